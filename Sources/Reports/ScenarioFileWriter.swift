import Device
import Engine
import Fleet
import Permissions
import Scenarios

/// Writes a scenario as the JSON `ScenarioFile` reads: its phone (every device parameter, the
/// Info.plist, the starting permissions), its authorization flow and person, the status it
/// promises (`expectedAuthorization`, so a drifted run is marked again), its timeline,
/// its engine, its engine's own settings and its seed, each written out in full so the file
/// does not lean on defaults that may change. Re-running the file reproduces the scenario.
///
/// A few states a preset can start in have no key in a scenario file (a provisional Always, a
/// pending deferred upgrade, a person who leaves the app at a prompt): `lossy` names them,
/// found by reading the written file back and comparing, never by guessing.
enum ScenarioFileWriter {
    /// The scenario as a file's JSON object, and what of it the file cannot hold.
    static func write(_ scenario: Scenario, name: String, summary: String) -> (object: JSONText, lossy: [String]) {
        var members: [(String, JSONText)] = [
            ("name", .string(name)), ("summary", .string(summary)), ("device", device(scenario.device)),
        ]
        members.append(("authorization", authorization(scenario.authorization, person: scenario.user)))
        if let expected = scenario.expectedAuthorization {
            members.append(("expectedAuthorization", .string(expected.name)))
        }
        members.append(("timeline", .array(scenario.timeline.compactMap(timelineEvent))))
        members.append(("engine", TuneReport.engineObject(scenario.engine)))
        if !scenario.engineSettings.isEmpty {
            members.append(
                ("engineSettings", .object(scenario.engineSettings.map { ($0.name, TuneReport.json($0.value)) })))
        }
        members.append(("seed", .integer(Int(clamping: scenario.seed))))
        let object = JSONText.object(members)
        return (object, lossy(scenario, written: object))
    }

    /// What the written file does not reproduce: read back, what differs from `scenario`.
    private static func lossy(_ scenario: Scenario, written: JSONText) -> [String] {
        let parsed: Scenario
        do {
            parsed = try ScenarioFile.parse(Array(written.rendered.utf8), file: "written scenario").scenario
        } catch {
            return ["the file does not read back (\(error))"]
        }
        var differences: [String] = []
        if parsed.device.infoPlist != scenario.device.infoPlist { differences.append("the Info.plist") }
        if parsed.device.parameters != scenario.device.parameters { differences.append("device parameters") }
        if parsed.device.authorization != scenario.device.authorization {
            differences.append("the starting authorization state (a provisional or pending state has no key)")
        }
        switch (parsed.authorization, scenario.authorization) {
        case (.fixed, .fixed): break
        case (.flow(let layer), .flow(let original)):
            if layer != original { differences.append("the permission flow") }
        default: differences.append("the authorization flow")
        }
        if parsed.timeline != scenario.timeline { differences.append("the timeline") }
        // A person's name labels reports only; a file's person has none.
        var person = parsed.user
        person.name = scenario.user.name
        if person != scenario.user { differences.append("the person answering prompts") }
        if parsed.expectedAuthorization != scenario.expectedAuthorization {
            differences.append("the status the scenario promises")
        }
        if parsed.seed != scenario.seed { differences.append("the seed") }
        if !parsed.engineSettings.elementsEqual(
            scenario.engineSettings, by: { $0.name == $1.name && $0.value == $1.value })
        {
            differences.append("the engine's own settings")
        }
        return differences
    }

    private static func device(_ configuration: Device.Configuration) -> JSONText {
        let parameters = DeviceParameters.descriptors.map { descriptor -> (String, JSONText) in
            let value: JSONText
            switch descriptor.value(in: configuration.parameters) {
            case .number(let number): value = .number(number)
            case .integer(let integer): value = .integer(integer)
            case .flag(let flag): value = .bool(flag)
            case .optionalFlag(let flag):
                value = flag.map(JSONText.bool) ?? .string(DeviceParameterDescriptor.Value.followsProfile)
            case .profile(let profile): value = .string(profile.rawValue)
            }
            return (descriptor.name, value)
        }
        let info = configuration.infoPlist
        let state = configuration.authorization
        return .object([
            ("parameters", .object(parameters)),
            (
                "infoPlist",
                .object([
                    ("whenInUseUsageDescription", .bool(info.hasWhenInUseUsageDescription)),
                    ("alwaysAndWhenInUseUsageDescription", .bool(info.hasAlwaysAndWhenInUseUsageDescription)),
                    ("motionUsageDescription", .bool(info.hasMotionUsageDescription)),
                    ("bluetoothUsageDescription", .bool(info.hasBluetoothUsageDescription)),
                    (
                        "temporaryFullAccuracyPurposes",
                        .array(info.temporaryFullAccuracyPurposes.sorted().map(JSONText.string))
                    ),
                    ("locationBackgroundMode", .bool(info.hasLocationBackgroundMode)),
                    ("defaultAccuracyReduced", .bool(info.defaultAccuracyReduced)),
                ])
            ),
            (
                "authorization",
                .object([
                    ("location", .string(state.storedStatus.name)), ("precise", .bool(state.isPrecise)),
                    ("locationServices", .bool(state.isLocationServicesEnabled)),
                    ("motion", .string(motionName(state.motionStatus))),
                    ("motionAvailable", .bool(state.isMotionAvailable)),
                    ("bluetooth", .string(bluetoothName(state.bluetoothStatus))),
                ])
            ),
        ])
    }

    private static func motionName(_ status: MotionAuthorizationStatus) -> String {
        switch status {
        case .notDetermined: "notDetermined"
        case .restricted: "restricted"
        case .denied: "denied"
        case .authorized: "authorized"
        }
    }

    private static func bluetoothName(_ status: BluetoothAuthorizationStatus) -> String {
        switch status {
        case .notDetermined: "notDetermined"
        case .restricted: "restricted"
        case .denied: "denied"
        case .allowedAlways: "allowedAlways"
        }
    }

    private static func authorization(_ authorization: Scenario.Authorization, person user: SimulatedUser)
        -> JSONText
    {
        var flow: [(String, JSONText)] = []
        if case .flow(let layer) = authorization { flow = [("flow", .string(layer.rawValue))] }
        // A file without a person has the agreeable one: some of its answers (precise While
        // Using) have no word in USER.json, so it is written by leaving it out.
        guard user != .agreeable else { return flow.isEmpty ? .string("fixed") : .object(flow) }
        if let name = user.name, SimulatedUser.builtInPeople.contains(user) {
            return .object(flow + [("user", .string(name))])
        }
        var answers: [JSONText] = []
        let responses = user.scriptedResponses
        for vocabulary in UserScript.answers {
            for response in responses[vocabulary.family] ?? [] {
                let (answer, delay): (PromptAnswer?, Double)
                switch response {
                case .answer(let given, let seconds): (answer, delay) = (given, seconds)
                case .neverAnswers: (answer, delay) = (nil, 2)
                case .leavesApp: continue  // no key in USER.json; `lossy` reports it
                }
                guard let word = vocabulary.answers.first(where: { $0.1 == answer })?.0 else { continue }
                var entry: [(String, JSONText)] = [("prompt", .string(vocabulary.prompt)), ("answer", .string(word))]
                if answer != nil { entry.append(("afterSeconds", .number(delay))) }
                answers.append(.object(entry))
            }
        }
        let settings = user.settingsChanges.compactMap { change -> JSONText? in
            guard let word = UserScript.settings.first(where: { $0.1 == change.change })?.0 else { return nil }
            return .object([("at", .number(change.atSeconds)), ("change", .string(word))])
        }
        return .object(flow + [("user", .object([("answers", .array(answers)), ("settings", .array(settings))]))])
    }

    /// Scenario events as a file names them: a person's move, or a Settings change.
    private static let events: [(String, DeviceEvent)] =
        UserScript.lifecycleEvents + UserScript.settings.map { ($0.0, DeviceEvent.user(.changedSettings($0.1))) }

    private static func timelineEvent(_ event: Scenario.TimelineEvent) -> JSONText? {
        guard let word = events.first(where: { $0.1 == event.event })?.0 else { return nil }
        switch event.when {
        case .seconds(let seconds): return .object([("at", .number(seconds)), ("event", .string(word))])
        case .fraction(let share): return .object([("atFraction", .number(share)), ("event", .string(word))])
        }
    }
}
