import Device
import Foundation
import SimulationCore
import TraceSimCoreLocation
import Traces

/// Called with each motion activity update. Models `CMMotionActivityHandler`.
public typealias CMMotionActivityHandler = (CMMotionActivity?) -> Void

/// Called with the activities of a query, or an error. Models `CMMotionActivityQueryHandler`.
public typealias CMMotionActivityQueryHandler = ([CMMotionActivity]?, (any Error)?) -> Void

/// Motion activity updates from the simulated phone. Models `CMMotionActivityManager`.
///
/// Create it (and start updates) inside app code a replay runs (`CoreLocationApp`'s launch or
/// a callback): it finds its phone there. Outside a replay it is inert: no activity is
/// available and no handler is ever called.
///
/// Handlers run on the replay's thread, synchronously, inside the callback that delivers the
/// motion sample, whatever `OperationQueue` is passed: that keeps a run deterministic, and it
/// is what an app that passes `OperationQueue.main` sees on iOS apart from the hop to the
/// main thread (each update handled before the next event). A handler that relies on
/// running on a queue of its own (its `OperationQueue.current`, its `underlyingQueue`)
/// does not get it.
open class CMMotionActivityManager: NSObject {
    private let host: SimulationHost?
    private var updates: ActivityUpdates?

    /// A manager for the phone of the replay whose code is running, if any.
    public override init() {
        host = SimulationHost.current
        super.init()
    }

    /// Whether the phone has a motion coprocessor that reports activity. Models
    /// `CMMotionActivityManager.isActivityAvailable()`. `false` outside a replay.
    open class func isActivityAvailable() -> Bool {
        SimulationHost.current?.isMotionActivityAvailable ?? false
    }

    /// The app's motion authorization as the phone last reported it. Models
    /// `CMMotionActivityManager.authorizationStatus()` (Apple's raw values).
    /// `.notDetermined` outside a replay.
    open class func authorizationStatus() -> CMAuthorizationStatus {
        guard let host = SimulationHost.current else { return .notDetermined }
        return CMAuthorizationStatus(host.motionAuthorizationStatus)
    }

    /// Starts motion activity updates: tells the phone (which asks for motion permission the
    /// first time, `AppRequest.startedMotionUpdates`) and calls `handler` with every activity
    /// the phone delivers from then on, until `stopActivityUpdates()`. Starting again replaces
    /// the handler. Models `startActivityUpdates(to:withHandler:)`; `queue` is not used (see
    /// the type's notes).
    open func startActivityUpdates(to queue: OperationQueue, withHandler handler: @escaping CMMotionActivityHandler) {
        guard let host = acting("startActivityUpdates(to:withHandler:)") else { return }
        if let updates { host.removeObserver(updates) }
        let updates = ActivityUpdates(handler: handler)
        self.updates = updates
        host.addObserver(updates)
        host.perform(.startedMotionUpdates)
    }

    /// The phone, for a call that asks it for something. A manager made by another run (a
    /// `static` or a singleton outlives the run that made it) notes in the current run's
    /// diagnostics that `call` did nothing, as `CLLocationManager` does.
    private func acting(_ call: String) -> SimulationHost? {
        guard let current = SimulationHost.current, current !== host else { return host }
        let origin = host == nil ? "made outside any run" : "made by another run"
        current.diagnostics.note(
            "\(call) was called on a CMMotionActivityManager \(origin), which does nothing", at: current.now)
        return nil
    }

    /// Stops calling the handler. Models `stopActivityUpdates()`. The phone keeps no count of
    /// motion clients, so nothing is sent to it.
    open func stopActivityUpdates() {
        guard let host, let updates else { return }
        host.removeObserver(updates)
        self.updates = nil
    }

    /// The activities that began between `start` and `end`. Models
    /// `queryActivityStarting(from:to:to:withHandler:)`, answered from what this manager's
    /// updates have seen so far in the run (the simulated phone keeps no activity history of
    /// its own): the samples delivered to its handler whose start lies in `[start, end)`,
    /// oldest first, or an empty array. The handler is called at once, on the caller's thread.
    open func queryActivityStarting(
        from start: Date, to end: Date, to queue: OperationQueue,
        withHandler handler: @escaping CMMotionActivityQueryHandler
    ) {
        let seen = updates?.seen ?? []
        handler(seen.filter { $0.startDate >= start && $0.startDate < end }, nil)
    }
}

extension CMAuthorizationStatus {
    init(_ status: MotionAuthorizationStatus) {
        switch status {
        case .notDetermined: self = .notDetermined
        case .restricted: self = .restricted
        case .denied: self = .denied
        case .authorized: self = .authorized
        }
    }
}

/// One `startActivityUpdates` call's handler, hearing from the phone.
private final class ActivityUpdates: SimulationObserver {
    let handler: CMMotionActivityHandler
    private(set) var seen: [CMMotionActivity] = []

    init(handler: @escaping CMMotionActivityHandler) { self.handler = handler }

    func simulationDidUpdateMotionActivity(_ sample: MotionSample) {
        let activity = CMMotionActivity(sample)
        seen.append(activity)
        handler(activity)
    }
}
