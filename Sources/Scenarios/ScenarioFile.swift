import ConfigJSON
import Device
import Engine
import Permissions
import Traces

/// Reads a scenario from JSON. Every key is optional except `name`; unknown keys and bad values
/// are errors naming the file, line, column and JSON path. The `device` block changes only what
/// it names: of the ideal phone without a permission flow, of a fresh install with one.
///
/// ```json
/// {"name": "night-shift", "summary": "When-In-Use, locked after a minute",
///  "device": {DEVICE.json},
///  "authorization": "fixed" | {"flow": "doorstep|bggeo|airship|wizard", "user": {USER.json}}
///                   | {"user": {USER.json}} (fixed, with this person),
///  "expectedAuthorization": "authorizedWhenInUse" (any CLAuthorizationStatus name),
///  "timeline": [{"at": 60, "event": "lock"}, {"atFraction": 0.25, "event": "forceQuit"}],
///  "engine": {"startsMoving": false, "stopRule": "timeout|radar", "stopTimeout": 300,
///             "stationaryRadius": 25, "smoothing": "passThrough|adjust|conservative",
///             "gate": {"horizontalAccuracy": 100, "maxImpliedSpeed": 60, "maxAge": 15},
///             "distanceFilter": 10, "elasticity": "transistorsoft|mauron85|none",
///             "backgroundUpdates": true, "backgroundSession": false,
///             "pausesLocationUpdatesAutomatically": true, "preventSuspend": false, "heartbeatInterval": 60,
///             "odometerAccuracy": 20, "movingRegionRefresh": 100, "requestsMotionActivity": true,
///             "geofencing": {"proximityRadius": 1000, "maximumRegistered": 20, "rerankInterval": 60,
///                            "initialTriggerEntry": true}},
///  "engineSettings": {"accuracyThreshold": 50, "mode": "drive"},
///  "geofences": "fences.geojson", "seed": 0}
/// ```
///
/// The `user` is the one person of the whole run: they answer the flow, every prompt the app
/// raises while tracking, and make their Settings changes; without a `user` the person is
/// `SimulatedUser.agreeable`. With `expectedAuthorization`, a run that ends with another status
/// is marked (`AuthorizationDrift`).
///
/// `engineSettings` holds values of settings a team's own engine declares (`EngineSetting`);
/// the run checks them against the engine's declarations.
public enum ScenarioFile {
    /// A scenario and the geofence file it names (relative to the scenario file's folder).
    public struct Parsed: Sendable {
        public var scenario: Scenario
        /// The geofence file as written, if any.
        public var geofences: String?
    }

    /// Parses `bytes` from `file`.
    /// - Throws: `ConfigError` for the first problem.
    public static func parse(_ bytes: [UInt8], file: String) throws(ConfigError) -> Parsed {
        let reader = ConfigReader(file: file)
        let root = try ConfigJSON.parse(bytes, file: file)
        let members = try reader.object(
            root, "$",
            allowed: [
                "name", "summary", "device", "authorization", "expectedAuthorization", "timeline", "engine",
                "engineSettings", "geofences", "seed",
            ])
        let name = try reader.string(try reader.required(members, "name", in: root, "$"), "$.name")
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw reader.fail(root, "$.name", "a scenario name is letters, digits, '-' and '_'")
        }
        var scenario = Scenario(
            name: name,
            summary: try members["summary"].map { (node) throws(ConfigError) in
                try reader.string(node, "$.summary")
            } ?? "")
        // Without a permission flow the built-in engine asks for no location permission, so a
        // fresh install would collect nothing whatever else the device block says: such a
        // phone starts as the ideal one. A flow must be able to prompt, so its phone starts as
        // a fresh install. The block changes only what it names. (An `authorization` that is
        // without a "flow" is fixed, or an error reported below.)
        var isFlow = false
        if case .object(let fields) = members["authorization"]?.value {
            isFlow = fields.contains { $0.key == "flow" }
        }
        scenario.device = isFlow ? Device.Configuration() : Scenario.idealDevice
        if let node = members["device"] {
            scenario.device = try DeviceSetup.parse(node, at: "$.device", reader: reader, over: scenario.device)
                .configuration
        }
        var personMoves: [Scenario.TimelineEvent] = []
        if let node = members["authorization"] {
            (scenario.authorization, scenario.user, personMoves) = try authorization(node, reader)
        }
        if let node = members["expectedAuthorization"] {
            scenario.expectedAuthorization = try reader.token(
                node, "$.expectedAuthorization", AuthorizationStatus.allCases.map { ($0.name, $0) })
        }
        for (index, node) in try reader.optionalArray(members, "timeline", "$").enumerated() {
            scenario.timeline.append(try timelineEvent(node, "$.timeline[\(index)]", reader))
        }
        // The person's own lifecycle moves are timeline events at their times, after the
        // scenario's at the same instant (the runner keeps ties in order).
        scenario.timeline += personMoves
        if let node = members["engine"] { scenario.engine = try engine(node, reader) }
        if let node = members["engineSettings"] { scenario.engineSettings = try engineSettings(node, reader) }
        var geofences: String?
        if let node = members["geofences"] { geofences = try reader.string(node, "$.geofences") }
        if let node = members["seed"] {
            scenario.seed = UInt64(try reader.number(node, "$.seed", in: 0...9_007_199_254_740_991).rounded(.down))
        }
        return Parsed(scenario: scenario, geofences: geofences)
    }

    /// The authorization, the scenario's person, and the person's lifecycle moves
    /// (`USER.json`'s `lifecycle`), which the scenario's timeline carries.
    private static func authorization(_ node: JSONNode, _ reader: ConfigReader) throws(ConfigError)
        -> (Scenario.Authorization, SimulatedUser, [Scenario.TimelineEvent])
    {
        if case .string = node.value {
            return (
                try reader.token(node, "$.authorization", [("fixed", Scenario.Authorization.fixed)]), .agreeable, []
            )
        }
        let members = try reader.object(node, "$.authorization", allowed: ["flow", "user"])
        guard !members.isEmpty else {
            throw reader.fail(
                node, "$.authorization",
                "give a 'flow' (doorstep, bggeo, airship or wizard), a 'user', or both; \"fixed\" for neither")
        }
        var authorization = Scenario.Authorization.fixed
        if let flow = members["flow"] {
            authorization = .flow(
                try reader.token(flow, "$.authorization.flow", PermissionLayer.allCases.map { ($0.rawValue, $0) }))
        }
        var user = SimulatedUser.agreeable
        var moves: [Scenario.TimelineEvent] = []
        if let userNode = members["user"], case .string = userNode.value {
            user = try reader.token(
                userNode, "$.authorization.user", SimulatedUser.builtInPeople.map { ($0.name ?? "", $0) })
        } else if let userNode = members["user"] {
            let script = try UserScript.parse(userNode, at: "$.authorization.user", reader: reader)
            user = script.user
            moves = script.lifecycle.map { Scenario.TimelineEvent(.seconds($0.atSeconds), $0.event) }
        }
        return (authorization, user, moves)
    }

    private static func timelineEvent(_ node: JSONNode, _ path: @autoclosure () -> String, _ reader: ConfigReader)
        throws(ConfigError)
        -> Scenario.TimelineEvent
    {
        let fields = try reader.object(node, path(), allowed: ["at", "atFraction", "event"])
        let when: Scenario.When
        switch (fields["at"], fields["atFraction"]) {
        case (let seconds?, nil): when = .seconds(try reader.number(seconds, "\(path()).at", in: 0...31_536_000))
        case (nil, let share?): when = .fraction(try reader.number(share, "\(path()).atFraction", in: 0...1))
        case (nil, nil), (.some, .some):
            throw reader.fail(node, path(), "give exactly one of 'at' (seconds) or 'atFraction' (0...1)")
        }
        let event = try reader.token(
            try reader.required(fields, "event", in: node, path()), "\(path()).event", timelineVocabulary)
        return Scenario.TimelineEvent(when, event)
    }

    /// The events a timeline may name, built once: rebuilding it for every event cost more
    /// than parsing the event.
    private static let timelineVocabulary: [(String, DeviceEvent)] =
        UserScript.lifecycleEvents + UserScript.settings.map { ($0.0, DeviceEvent.user(.changedSettings($0.1))) }

    /// The `engine` object: every key is a `Tuning.Parameter`'s key path, so whatever a sweep can
    /// set a scenario file can hold, and `TuneReport.scenarioSnippet` writes back.
    private static func engine(_ node: JSONNode, _ reader: ConfigReader) throws(ConfigError)
        -> EngineConfiguration
    {
        var engine = EngineConfiguration()
        try engineSettings(node, prefix: [], path: "$.engine", reader, into: &engine)
        return engine
    }

    /// The settings under `prefix` (`[]` for the engine object, `["gate"]` for its gate).
    private static func engineSettings(
        _ node: JSONNode, prefix: [String], path: String, _ reader: ConfigReader,
        into engine: inout EngineConfiguration
    ) throws(ConfigError) {
        let below = Tuning.parameters.filter { $0.keyPath.count > prefix.count && $0.keyPath.starts(with: prefix) }
        var keys: [String] = []
        for parameter in below where !keys.contains(parameter.keyPath[prefix.count]) {
            keys.append(parameter.keyPath[prefix.count])
        }
        let fields = try reader.object(node, path, allowed: keys)
        for key in keys {
            guard let value = fields[key] else { continue }
            let keyPath = prefix + [key]
            guard let parameter = below.first(where: { $0.keyPath == keyPath }) else {
                try engineSettings(value, prefix: keyPath, path: "\(path).\(key)", reader, into: &engine)
                continue
            }
            parameter.apply(try setting(value, parameter, "\(path).\(key)", reader), to: &engine)
        }
    }

    private static func setting(
        _ node: JSONNode, _ parameter: Tuning.Parameter, _ path: String, _ reader: ConfigReader
    ) throws(ConfigError) -> Tuning.SettingValue {
        switch parameter.kind {
        case .number(let range):
            let number = try reader.number(node, path, in: range)
            guard !parameter.isWhole || number == number.rounded() else {
                throw reader.fail(node, path, "must be a whole number, not \(number)")
            }
            return .number(number)
        case .bool: return .bool(try reader.bool(node, path))
        case .tokens(let tokens): return .token(try reader.token(node, path, tokens.map { ($0, $0) }))
        }
    }
}
