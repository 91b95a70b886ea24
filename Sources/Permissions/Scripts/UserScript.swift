import ConfigJSON
import Device
import Traces

/// A simulated person from `USER.json`: prompt answers, Settings changes and lifecycle moves.
///
/// ```
/// {"answers":   [{"prompt": "location", "answer": "allowWhileUsing", "afterSeconds": 2}, ...],
///  "settings":  [{"at": 600, "change": "locationAlways"}, ...],
///  "lifecycle": [{"at": 30, "event": "lock"}, ...]}
/// ```
/// Answers are consumed in order for each prompt kind.
public struct UserScript: Sendable {
    /// The person.
    public var user: SimulatedUser
    /// Lifecycle moves at their times.
    public var lifecycle: [PermissionSession.ScriptedEvent]

    /// One prompt family's name in the file and the answers it offers (`nil` is `noAnswer`).
    public struct PromptVocabulary: Sendable {
        public var prompt: String
        public var family: SimulatedUser.PromptFamily
        public var answers: [(String, PromptAnswer?)]
    }

    /// The prompt families and the answers each offers, in the file's vocabulary.
    public static let answers: [PromptVocabulary] = [
        PromptVocabulary(
            prompt: "location", family: .location,
            answers: [
                ("allowWhileUsing", .allowWhileUsing(precise: nil)),
                ("allowWhileUsingApproximate", .allowWhileUsing(precise: false)),
                ("allowOnce", .allowOnce(precise: nil)), ("dontAllow", .dontAllow), ("noAnswer", nil),
            ]),
        PromptVocabulary(
            prompt: "upgrade", family: .upgrade,
            answers: [
                ("changeToAlwaysAllow", .changeToAlways), ("keepOnlyWhileUsing", .keepWhileUsing), ("noAnswer", nil),
            ]),
        PromptVocabulary(
            prompt: "motion", family: .motion, answers: [("allow", .allow), ("dontAllow", .deny), ("noAnswer", nil)]),
        PromptVocabulary(
            prompt: "bluetooth", family: .bluetooth,
            answers: [("allow", .allow), ("dontAllow", .deny), ("noAnswer", nil)]),
        PromptVocabulary(
            prompt: "temporaryFullAccuracy", family: .temporaryFullAccuracy,
            answers: [
                ("allow", .allow), ("dontAllow", .deny), ("noAnswer", nil),
            ]),
    ]

    /// Settings changes in the file's vocabulary.
    public static let settings: [(String, SettingsChange)] = [
        ("locationAlways", .setAlways), ("locationWhileUsing", .setWhileUsing), ("locationNever", .setNever),
        ("locationAskNextTime", .setAskNextTime), ("preciseOn", .setPrecise(true)), ("preciseOff", .setPrecise(false)),
        ("locationServicesOn", .setLocationServices(true)), ("locationServicesOff", .setLocationServices(false)),
        ("motionOn", .setMotion(true)), ("motionOff", .setMotion(false)),
        ("bluetoothOn", .setBluetooth(true)), ("bluetoothOff", .setBluetooth(false)),
    ]

    /// Lifecycle moves in the file's vocabulary.
    public static let lifecycleEvents: [(String, DeviceEvent)] = [
        ("lock", .user(.lockedScreen)), ("unlock", .user(.unlockedScreen)),
        ("background", .user(.movedAppToBackground)),
        ("foreground", .user(.movedAppToForeground)), ("forceQuit", .user(.forceQuitApp)),
        ("relaunch", .user(.launchedApp)),
        ("suspend", .system(.suspendedApp)), ("terminate", .system(.terminatedApp)),
    ]

    /// Reads `USER.json`.
    /// - Throws: `ConfigError` with the line, column and JSON path of the first problem.
    public static func parse(_ bytes: [UInt8], file: String) throws(ConfigError) -> UserScript {
        let reader = ConfigReader(file: file)
        return try parse(try ConfigJSON.parse(bytes, file: file), at: "$", reader: reader)
    }

    /// Reads the same shape from `root`, a node inside a larger file, at JSON path `path`.
    public static func parse(_ root: JSONNode, at path: String, reader: ConfigReader) throws(ConfigError)
        -> UserScript
    {
        let members = try reader.object(root, path, allowed: ["answers", "settings", "lifecycle"])
        var responses: [SimulatedUser.PromptFamily: [SimulatedUser.Response]] = [:]
        for (index, entry) in try reader.optionalArray(members, "answers", path).enumerated() {
            let path = "\(path).answers[\(index)]"
            let fields = try reader.object(entry, path, allowed: ["prompt", "answer", "afterSeconds"])
            let vocabulary: [(String, PromptVocabulary)] = answers.map { ($0.prompt, $0) }
            let prompt = try reader.token(
                try reader.required(fields, "prompt", in: entry, path), "\(path).prompt", vocabulary)
            let answer = try reader.token(
                try reader.required(fields, "answer", in: entry, path), "\(path).answer", prompt.answers)
            var delay = 2.0
            if let node = fields["afterSeconds"] {
                delay = try reader.number(node, "\(path).afterSeconds", in: 0...86_400)
            }
            responses[prompt.family, default: []].append(
                answer.map { .answer($0, afterSeconds: delay) } ?? .neverAnswers)
        }
        var changes: [SimulatedUser.ScheduledChange] = []
        for (index, entry) in try reader.optionalArray(members, "settings", path).enumerated() {
            let path = "\(path).settings[\(index)]"
            let fields = try reader.object(entry, path, allowed: ["at", "change"])
            let at = try reader.number(
                try reader.required(fields, "at", in: entry, path), "\(path).at", in: 0...31_536_000)
            let change = try reader.token(
                try reader.required(fields, "change", in: entry, path), "\(path).change", settings)
            changes.append(SimulatedUser.ScheduledChange(atSeconds: at, change: change))
        }
        var lifecycle: [PermissionSession.ScriptedEvent] = []
        for (index, entry) in try reader.optionalArray(members, "lifecycle", path).enumerated() {
            let path = "\(path).lifecycle[\(index)]"
            let fields = try reader.object(entry, path, allowed: ["at", "event"])
            let at = try reader.number(
                try reader.required(fields, "at", in: entry, path), "\(path).at", in: 0...31_536_000)
            let event = try reader.token(
                try reader.required(fields, "event", in: entry, path), "\(path).event", lifecycleEvents)
            lifecycle.append(PermissionSession.ScriptedEvent(atSeconds: at, event: event))
        }
        do {
            return UserScript(
                user: try SimulatedUser(responses: responses, settingsChanges: changes), lifecycle: lifecycle)
        } catch {
            throw reader.fail(root, "\(path).answers", error.description)
        }
    }
}
