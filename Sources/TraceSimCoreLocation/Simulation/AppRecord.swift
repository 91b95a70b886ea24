import Engine
import Foundation
import SimulationCore

/// What an app keeps of a run (the locations it would store or upload, and when it thought the
/// device moving), for the simulation to measure it on instead of everything the phone
/// delivered.
///
/// Make one per run beside the app and hand it to `CoreLocationApp(recording:makeApp:)`; the
/// app's own store (a protocol the app already has, such as an upload queue) forwards to it.
/// Like a backend, it outlives the app's process: the app object made again at each relaunch
/// writes to the same record, and a trip started again after a relaunch is the trip going on.
///
///     let record = AppRecord(expectedFixCount: context.expectedFixCount)
///     return CoreLocationApp(recording: record) { Tracker(onKeep: record.keep) }
public final class AppRecord: RecordingApp {
    /// The record: every location kept counts as delivered, accepted and recorded.
    public private(set) var recorder: Recorder
    /// The distance between consecutive kept locations, metres (`CLLocation.distance(from:)`).
    public private(set) var odometerMeters = 0.0
    private var lastKept: CLLocation?
    private var isMoving = false

    /// An empty record, with room for `expectedFixCount` locations (a hint, such as
    /// `EngineContext.expectedFixCount`; a count below 0 reserves nothing).
    /// - Parameter expectedFixCount: how many locations the run may keep at most.
    public init(expectedFixCount: Int = 0) { recorder = Recorder(expectedFixCount: expectedFixCount) }

    /// Keeps `location`: what the app would store or upload.
    /// - Parameter location: the location the app keeps, as Core Location delivered it or as the
    ///   app made it (invalid values, negative in Core Location, become absent).
    public func keep(_ location: CLLocation) {
        recorder.fixDelivered()
        recorder.accepted(location.fix)
        recorder.recordedLastAccepted()
        if let lastKept { odometerMeters += location.distance(from: lastKept) }
        lastKept = location
    }

    /// Notes that the app now takes the device to be moving (a trip started) or still (it
    /// ended); saying the state it is already in changes nothing. The record starts still, so
    /// an end before any start is not a change.
    /// - Parameters:
    ///   - isMoving: whether the device moves, by the app's reckoning.
    ///   - date: when the app decided it: a location's timestamp, or `AppClock.now`.
    public func motionChanged(isMoving: Bool, at date: Date) {
        guard isMoving != self.isMoving else { return }
        self.isMoving = isMoving
        let nanoseconds = (date.timeIntervalSince1970 * 1e9).rounded()
        recorder.motionChanged(
            to: isMoving ? .moving : .stationary,
            at: SimInstant(nanosecondsSinceEpoch: Int64(exactly: nanoseconds) ?? 0))
    }
}
