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
    /// What the run's output should show beside the metrics: callbacks the app had no handler
    /// for, protocol warnings. Empty for the built-in engine.
    var diagnostics: [ClientDiagnostic] { get }
    /// Why the engine could not go on (a subprocess that exited or wrote invalid JSON); the run
    /// fails with it. `nil` while the engine is healthy.
    var failure: EngineFailure? { get }
}

extension RecordingClient {
    /// No diagnostics.
    public var diagnostics: [ClientDiagnostic] { [] }
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

/// Why an engine under test could not go on: the run fails with this message.
public struct EngineFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, naming the engine and, for a subprocess, the offending line.
    public var message: String

    /// A failure saying `message`.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
