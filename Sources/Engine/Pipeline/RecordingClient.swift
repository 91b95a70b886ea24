import Device
import SimulationCore

/// A `LocationClient` whose run a scenario can measure: what it recorded, how far its odometer
/// went, what went unhandled, and whether it could go on.
///
/// The built-in `TrackingEngine` is one. A team's own engine is another: driven through the
/// Core Location facade, through the subprocess protocol, or written against `LocationClient`
/// directly, it fills a `Recorder` the way the built-in engine does, so every report and
/// metric reads it unchanged.
public protocol RecordingClient: LocationClient {
    /// Everything the engine produced: deliveries, accepted and recorded fixes, motion
    /// transitions, geofence events.
    var recorder: Recorder { get }
    /// The engine's odometer, metres.
    var odometerMeters: Double { get }
    /// What the engine reported for the run's output to show beside the metrics: callbacks the
    /// app had no handler for, protocol warnings. Empty for the built-in engine; TraceSim's own
    /// notes on a run (`ScenarioRun.notes`) are never among them.
    var diagnostics: [ClientDiagnostic] { get }
    /// Diagnostics the client did not keep: distinct messages beyond
    /// `ClientDiagnostics.maximumMessages`, and how often they came.
    var droppedDiagnostics: DroppedDiagnostics { get }
    /// Why the engine could not go on (a subprocess that exited or wrote invalid JSON); the run
    /// fails with it. `nil` while the engine is healthy.
    var failure: EngineFailure? { get }
}

extension RecordingClient {
    /// No diagnostics.
    public var diagnostics: [ClientDiagnostic] { [] }
    /// Nothing dropped.
    public var droppedDiagnostics: DroppedDiagnostics { DroppedDiagnostics() }
    /// Never fails.
    public var failure: EngineFailure? { nil }
}

extension TrackingEngine: RecordingClient {}

/// Something about a run that the metrics do not show: the same message once, with how often
/// it happened and when first.
public struct ClientDiagnostic: Sendable, Equatable {
    /// What happened, e.g. "locationManager(_:didVisit:) reached a delegate without a handler".
    public var message: String
    /// How many times.
    public var count: Int
    /// When it happened first.
    public var firstTime: SimInstant

    /// A diagnostic seen `count` times, first at `firstTime`.
    public init(message: String, count: Int = 1, firstTime: SimInstant) {
        self.message = message
        self.count = count
        self.firstTime = firstTime
    }
}

extension [ClientDiagnostic] {
    /// Counts `message` at `time`: a new entry the first time, one more after that. Entries
    /// keep the order they were first seen in.
    public mutating func note(_ message: String, at time: SimInstant) {
        if let index = firstIndex(where: { $0.message == message }) {
            self[index].count += 1
        } else {
            append(ClientDiagnostic(message: message, firstTime: time))
        }
    }
}

/// The diagnostics of one run, bounded whatever the engine says: the first
/// `maximumMessages` distinct messages in the order first seen, each cut to
/// `maximumMessageBytes`, with how often and when first; later distinct messages are counted,
/// not kept.
///
/// An engine in another process writes its log lines as fast as it likes, so the run must not
/// keep what it wrote: a message is filed with one lookup in a table, never a search of what
/// came before, and a run's JSON keeps a bounded share of the engine's text, however much of it
/// there is.
public struct ClientDiagnostics: Sendable, Equatable {
    /// Distinct messages kept per run: enough for every distinct thing a real engine reports
    /// (the Core Location facade's unhandled callbacks are a dozen at most), few enough that a
    /// run's JSON line stays small.
    public static let maximumMessages = 64
    /// UTF-8 bytes kept of one message, the "…" that marks a cut included.
    public static let maximumMessageBytes = 1_024
    /// Distinct dropped messages told apart per run: past this many, `DroppedDiagnostics.messages`
    /// is a lower bound (and says so), so counting them takes 4 MiB at most (a 64-bit hash each).
    public static let maximumCountedDroppedMessages = 1 << 18

    /// The messages kept, in the order first seen.
    public private(set) var kept: [ClientDiagnostic] = []
    /// What was not kept.
    public private(set) var dropped = DroppedDiagnostics()
    private var indexByMessage: [String: Int] = [:]
    /// 64-bit FNV-1a hashes of the dropped messages: a fixed hash, so the count is the same in
    /// every process.
    private var droppedHashes: Set<UInt64> = []
    /// Table lookups made by `note` so far: the work done, which tests compare with the
    /// messages filed.
    package private(set) var lookups = 0

    /// No diagnostics yet.
    public init() {}

    /// Counts `message` at `time`: a new entry the first time while fewer than
    /// `maximumMessages` are kept, one more after that; a message beyond them is counted in
    /// `dropped`. Messages longer than `maximumMessageBytes` are cut first, so two that differ
    /// only after the cut are one.
    /// - Complexity: O(length of `message`).
    public mutating func note(_ message: String, at time: SimInstant) {
        let message = Self.cut(message)
        lookups += 1
        if let index = indexByMessage[message] {
            kept[index].count += 1
            return
        }
        if kept.count < Self.maximumMessages {
            indexByMessage[message] = kept.count
            kept.append(ClientDiagnostic(message: message, firstTime: time))
            return
        }
        dropped.occurrences += 1
        guard !dropped.isLowerBound else { return }
        lookups += 1
        if droppedHashes.count == Self.maximumCountedDroppedMessages {
            if !droppedHashes.contains(Self.hash(message)) { dropped.isLowerBound = true }
            return
        }
        if droppedHashes.insert(Self.hash(message)).inserted { dropped.messages += 1 }
    }

    /// `message`, cut at a Unicode scalar to at most `maximumMessageBytes` UTF-8 bytes, "…" included.
    package static func cut(_ message: String) -> String {
        guard message.utf8.count > maximumMessageBytes else { return message }
        let mark = "…"
        var budget = maximumMessageBytes - mark.utf8.count
        var result = String.UnicodeScalarView()
        for scalar in message.unicodeScalars {
            let size = UTF8.width(scalar)
            guard size <= budget else { break }
            budget -= size
            result.append(scalar)
        }
        return String(result) + mark
    }

    private static func hash(_ message: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in message.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}

/// The diagnostics of a run that were not kept (`ClientDiagnostics`): how many distinct
/// messages, and how many times they came.
public struct DroppedDiagnostics: Sendable, Equatable {
    /// Distinct messages not kept; a lower bound when `isLowerBound`.
    public var messages = 0
    /// How many times those messages came, all told.
    public var occurrences = 0
    /// Whether more distinct messages came than were told apart
    /// (`ClientDiagnostics.maximumCountedDroppedMessages`).
    public var isLowerBound = false

    /// `messages` distinct messages, `occurrences` times all told.
    public init(messages: Int = 0, occurrences: Int = 0, isLowerBound: Bool = false) {
        self.messages = messages
        self.occurrences = occurrences
        self.isLowerBound = isLowerBound
    }

    /// Whether nothing was dropped.
    public var isEmpty: Bool { occurrences == 0 }
}

/// Why an engine under test could not go on: the run fails with this message.
public struct EngineFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, naming the engine and, for a subprocess, the offending line. One line:
    /// control characters are escaped (`VisibleText`), since it quotes what the engine wrote.
    public var message: String

    /// A failure saying `message`, its control characters escaped.
    public init(_ message: String) { self.message = VisibleText.escapingControls(message) }

    public var description: String { message }
}
