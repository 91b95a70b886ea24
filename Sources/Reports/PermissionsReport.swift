import Device
import Permissions
import SimulationCore

/// The renderings of `tracesim permissions`. JSON keys and their order are a contract.
public enum PermissionsReport {
    /// One permission flow's result, prompts and device state as the documented JSON object
    /// (`permissions --format json`).
    public static func json(_ run: PermissionLayer.Run) -> String { jsonValue(run).rendered }

    package static func jsonValue(_ run: PermissionLayer.Run) -> JSONText {
        .object([
            ("promptLog", promptLog(run.session)),
            ("result", result(run)),
            ("device", device(run)),
            ("schemaVersion", .integer(1)),
            ("sdk", .string(run.layer.rawValue)),
            ("secondsTaken", .number(run.secondsTaken)),
        ])
    }

    static func promptLog(_ session: PermissionSession) -> JSONText {
        promptLog(session.device.promptLog, since: session.start)
    }

    /// Prompt log entries with times in seconds from `start`.
    static func promptLog(_ entries: [PromptLogEntry], since start: SimInstant) -> JSONText {
        .array(
            entries.map { entry in
                var members: [(String, JSONText)] = [
                    ("atSeconds", .number(entry.time.seconds(since: start))),
                    ("prompt", .string(entry.kind.name)),
                ]
                switch entry.outcome {
                case .shown: members.append(("outcome", .string("shown")))
                case .suppressed(let rule):
                    members.append(("outcome", .string("suppressed")))
                    members.append(("reason", .string(rule.rawValue)))
                case .answered(let answer):
                    members.append(("outcome", .string("answered")))
                    members.append(("answer", .string(answer.name)))
                }
                return .object(members)
            })
    }

    static func device(_ run: PermissionLayer.Run) -> JSONText {
        let state = run.session.device.authorization.state
        return .object([
            ("location", .string(state.status.name)),
            ("accuracy", .string(state.accuracy.name)),
            ("locationServices", .bool(state.isLocationServicesEnabled)),
            ("provisionalAlways", .bool(state.isProvisionalAlways)),
            ("motion", .string(motionName(state.motionStatus))),
            ("bluetooth", .string(bluetoothName(state.bluetoothStatus))),
            ("backgroundCollectionPossible", .bool(run.isBackgroundCollectionPossible)),
        ])
    }

    static func result(_ run: PermissionLayer.Run) -> JSONText {
        if let doorstep = run.doorstep {
            let order = DoorstepPermission.allCases
            func list(_ buckets: [DoorstepPermission]) -> JSONText { .array(buckets.map { .string($0.rawValue) }) }
            return .object([
                ("requested", list(doorstep.requested)),
                ("alreadyDetermined", list(doorstep.alreadyDetermined)),
                ("unavailable", list(doorstep.unavailable)),
                (
                    "deferred",
                    .object(
                        order.compactMap { bucket in
                            doorstep.deferred[bucket].map {
                                (
                                    bucket.rawValue,
                                    .object([("code", .string($0.code)), ("reason", .string($0.message))])
                                )
                            }
                        })
                ),
                (
                    "statuses",
                    .object(
                        order.compactMap { bucket in
                            doorstep.statuses[bucket].map {
                                (
                                    bucket.rawValue,
                                    .object([
                                        ("state", .string($0.state.rawValue)), ("canRequest", .bool($0.canRequest)),
                                        ("os", .string($0.osStatus)),
                                    ])
                                )
                            }
                        })
                ),
                ("didRequest", .bool(doorstep.didRequest)),
            ])
        }
        if let bggeo = run.bggeo {
            let changes = BackgroundGeolocation.providerChanges(run.session)
            return .object([
                ("status", .string(bggeo.status.rawValue)),
                ("providerState", provider(bggeo.provider)),
                (
                    "onProviderChange",
                    .array(
                        changes.map { .object([("atSeconds", .number($0.atSeconds)), ("state", provider($0.state))]) })
                ),
            ])
        }
        if let airship = run.airship {
            return .object([
                ("status", .string(airship.status.rawValue)),
                ("isBackgroundCollectionPossible", .bool(airship.isBackgroundCollectionPossible)),
                ("warning", airship.warning.map { .string($0) } ?? .null),
            ])
        }
        if let wizard = run.wizard {
            return .object([
                ("presented", .bool(wizard.wasPresented)),
                ("granted", .bool(wizard.granted)),
                ("transcript", .array(wizard.transcript.map(step))),
            ])
        }
        return .null
    }

    private static func provider(_ state: BackgroundGeolocation.ProviderState) -> JSONText {
        .object([
            ("enabled", .bool(state.enabled)), ("status", .string(state.status.rawValue)),
            ("accuracyAuthorization", .string(state.accuracyAuthorization.rawValue)),
        ])
    }

    private static func step(_ step: PermissionsWizard.Step) -> JSONText {
        var members: [(String, JSONText)] = [("atSeconds", .number(step.atSeconds))]
        switch step.kind {
        case .pageShown(let page, let title):
            members += [("step", .string("pageShown")), ("page", .string(page.rawValue)), ("title", .string(title))]
        case .tapped(let button): members += [("step", .string("tapped")), ("button", .string(button))]
        case .promptShown(let kind): members += [("step", .string("promptShown")), ("prompt", .string(kind.name))]
        case .promptNotShown(let kind, let rule):
            members += [
                ("step", .string("promptNotShown")), ("prompt", .string(kind.name)), ("reason", .string(rule.rawValue)),
            ]
        case .pageSkipped(let page, let reason):
            members += [
                ("step", .string("pageSkipped")), ("page", .string(page.rawValue)), ("reason", .string(reason)),
            ]
        case .statusRow(let title, let text, let satisfied):
            members += [
                ("step", .string("statusRow")), ("title", .string(title)), ("text", .string(text)),
                ("satisfied", .bool(satisfied)),
            ]
        case .settingsOpened: members += [("step", .string("settingsOpened"))]
        case .closed(let granted): members += [("step", .string("closed")), ("granted", .bool(granted))]
        case .notPresented(let reason): members += [("step", .string("notPresented")), ("reason", .string(reason))]
        }
        return .object(members)
    }

    /// The same for a terminal: prompts, result and device (`permissions --format text`).
    public static func text(_ run: PermissionLayer.Run) -> String {
        var lines = ["SDK: \(run.layer.rawValue)", "", "PROMPTS"]
        let session = run.session
        if session.device.promptLog.isEmpty { lines.append("  (none)") }
        for entry in session.device.promptLog {
            let at = Formatting.seconds(entry.time.seconds(since: session.start))
            switch entry.outcome {
            case .shown: lines.append("  \(at)  \(entry.kind.name) shown")
            case .suppressed(let rule): lines.append("  \(at)  \(entry.kind.name) not shown: \(rule.rawValue)")
            case .answered(let answer): lines.append("  \(at)  \(entry.kind.name) answered \(answer.name)")
            }
        }
        lines += ["", "RESULT", "  " + result(run).rendered, "", "DEVICE"]
        let state = session.device.authorization.state
        lines.append(
            "  location \(state.status.name), \(state.accuracy.name); motion \(motionName(state.motionStatus)); "
                + "bluetooth \(bluetoothName(state.bluetoothStatus))")
        lines.append("  background collection: \(run.isBackgroundCollectionPossible ? "possible" : "not possible")")
        lines.append("  time taken: \(Formatting.seconds(run.secondsTaken))")
        return lines.joined(separator: "\n")
    }

    /// Several SDKs' flows side by side (`permissions --compare`), a row per SDK.
    public static func text(comparing runs: [PermissionLayer.Run]) -> String {
        var cells = [["sdk", "location", "accuracy", "motion", "prompts shown", "time", "background"]]
        for run in runs {
            let state = run.session.device.authorization.state
            cells.append([
                run.layer.rawValue, state.status.name, state.accuracy.name, motionName(state.motionStatus),
                run.session.promptsShown.map(\.name).joined(separator: ", "), Formatting.seconds(run.secondsTaken),
                run.isBackgroundCollectionPossible ? "yes" : "no",
            ])
        }
        return table(cells)
    }

    /// `text(comparing:)` as a JSON array, an object per SDK.
    public static func json(comparing runs: [PermissionLayer.Run]) -> String {
        JSONText.array(
            runs.map { run in
                let state = run.session.device.authorization.state
                return .object([
                    ("sdk", .string(run.layer.rawValue)),
                    ("location", .string(state.status.name)),
                    ("accuracy", .string(state.accuracy.name)),
                    ("motion", .string(motionName(state.motionStatus))),
                    ("promptsShown", .array(run.session.promptsShown.map { .string($0.name) })),
                    ("secondsTaken", .number(run.secondsTaken)),
                    ("backgroundCollectionPossible", .bool(run.isBackgroundCollectionPossible)),
                ])
            }
        ).rendered
    }

    /// The share of a population one SDK ends with Always, Precise and Motion.
    public struct PopulationShare: Sendable, Equatable {
        /// The SDK.
        public var layer: PermissionLayer
        /// The share of the population, 0...1.
        public var share: Double
        /// How many answer combinations were enumerated for it.
        public var combinations: Int

        /// An SDK's share.
        public init(layer: PermissionLayer, share: Double, combinations: Int) {
            self.layer = layer
            self.share = share
            self.combinations = combinations
        }
    }

    /// The share of a population each SDK ends with Always, Precise and Motion
    /// (`permissions --compare --population`), a row per SDK.
    public static func text(population shares: [PopulationShare]) -> String {
        var cells = [["sdk", "Always + Precise + Motion", "answer combinations"]]
        for row in shares {
            cells.append([row.layer.rawValue, String(format: "%.4f%%", row.share * 100), String(row.combinations)])
        }
        return table(cells)
    }

    /// `text(population:)` as a JSON array, an object per SDK.
    public static func json(population shares: [PopulationShare]) -> String {
        JSONText.array(
            shares.map { row in
                .object([
                    ("sdk", .string(row.layer.rawValue)), ("alwaysPreciseMotionShare", .number(row.share)),
                    ("combinations", .integer(row.combinations)),
                ])
            }
        ).rendered
    }

    private static func table(_ cells: [[String]]) -> String {
        var table = TextTable(cells, alignments: Array(repeating: .left, count: cells[0].count))
        table.trimsTrailingSpaces = true
        return table.rendered
    }

    static func motionName(_ status: MotionAuthorizationStatus) -> String {
        switch status {
        case .notDetermined: "notDetermined"
        case .restricted: "restricted"
        case .denied: "denied"
        case .authorized: "authorized"
        }
    }

    static func bluetoothName(_ status: BluetoothAuthorizationStatus) -> String {
        switch status {
        case .notDetermined: "notDetermined"
        case .restricted: "restricted"
        case .denied: "denied"
        case .allowedAlways: "allowedAlways"
        }
    }
}
