import Device
import Engine
import Foundation
import SimulationCore
import Traces

/// The simulated phone as the facade's objects see it during one run: the virtual clock, what
/// the app may know of its permissions, and the one way to reach the device.
///
/// `CoreLocationApp` owns one per run and binds it as `current` around every callback it
/// makes into app code, so a `CLLocationManager()` created there (or a clock read, or a timer
/// scheduled) finds its phone without being told. Objects keep the host they were created
/// with. Outside a run `current` is `nil` and the facade's objects are inert.
///
/// Callbacks run on the replay's thread. Requests and timers may also come from Swift
/// concurrency tasks the app started (an `AsyncSequence` consumer), so the two queues are
/// behind a lock; everything else belongs to the replay's thread.
package final class SimulationHost: @unchecked Sendable {
    /// The phone of the run whose callback is on this thread (or task), if any.
    @TaskLocal package static var current: SimulationHost?

    /// The virtual instant of the callback being delivered (or last delivered).
    package private(set) var now: SimInstant
    /// What `CLLocationManager.authorizationStatus` answers.
    package private(set) var authorizationStatus: AuthorizationStatus
    /// What `CLLocationManager.accuracyAuthorization` answers.
    package private(set) var accuracyAuthorization: AccuracyAuthorization
    /// What `CMMotionActivityManager.authorizationStatus()` answers.
    package private(set) var motionAuthorizationStatus: MotionAuthorizationStatus
    /// What `CMMotionActivityManager.isActivityAvailable()` answers.
    package private(set) var isMotionActivityAvailable: Bool
    /// What `CLLocationManager.locationServicesEnabled()` answers (read at launch).
    package private(set) var isLocationServicesEnabled: Bool
    /// Why the current process was started, and whether in the background: `nil` for the
    /// first launch, set by a relaunch.
    package private(set) var relaunch: (reason: LaunchReason, inBackground: Bool)?
    /// Callbacks without a handler, and other things the run's output should show.
    package var diagnostics: [ClientDiagnostic] = []
    /// What the app received, for apps that keep no record of their own.
    package private(set) var received = ReceivedRecord()
    /// The app's Core Location services across its `CLLocationManager`s.
    package private(set) lazy var locationServices = LocationServices(host: self)
    /// The app's Swift concurrency tasks, kept in lock-step with the replay.
    package let tasks = SimulatedTasks()
    /// What app code did with the wall clock, run-loop timers and the main queue.
    let wallClock = WallClockFindings()

    private let lock = NSLock()
    private var pending: [LocationClientRequest<Int>] = []
    private var timers: [Int: () -> Void] = [:]
    private var nextTimer = 0
    private var observers: [WeakObserver] = []

    package init(launch: LocationClientLaunch, at now: SimInstant) {
        self.now = now
        authorizationStatus = launch.authorizationStatus
        accuracyAuthorization = launch.accuracyAuthorization
        motionAuthorizationStatus = launch.motionAuthorizationStatus
        isMotionActivityAvailable = launch.isMotionActivityAvailable
        isLocationServicesEnabled = launch.isLocationServicesEnabled
    }

    /// The virtual clock as a `Date`.
    package var date: Date { Date(now) }

    // MARK: - Requests from app code

    /// Makes `request` to the device once the current callback returns.
    package func perform(_ request: AppRequest) {
        lock.withLock { pending.append(.device(request)) }
    }

    /// Runs `body` at `instant` in virtual time, if the app's process runs then (once at the
    /// resume if it came due while suspended); never, after `cancelTimer`.
    @discardableResult
    package func schedule(at instant: SimInstant, _ body: @escaping () -> Void) -> Int {
        lock.withLock {
            nextTimer += 1
            timers[nextTimer] = body
            pending.append(.schedule(nextTimer, at: instant))
            return nextTimer
        }
    }

    /// Forgets a timer `schedule` returned.
    package func cancelTimer(_ identifier: Int) {
        _ = lock.withLock { timers.removeValue(forKey: identifier) }
    }

    /// Notes that `callback` reached a delegate of `type` that has no handler of its own: an
    /// information line, except an unhandled `didFailWithError` while authorization keeps
    /// every location away, which is a warning that says why it matters.
    package func noteUnhandled(_ callback: String, delegate type: Any.Type) {
        if callback == Self.didFailWithError, let why = whyNoLocationWillCome {
            // Apple's `locationManager(_:didFailWithError:)`: the error reports
            // `CLError.Code.denied` when the person denied the app location (fact sheet a8); it is
            // the app's only word that updates will not come, so a tracker without the handler
            // waits in silence.
            diagnostics.note(
                "\(callback) reached \(type) without a handler while \(why): the app is never told "
                    + "that no location will come (kCLErrorDenied)", at: now)
            return
        }
        diagnostics.note(ClientDiagnostic.unhandledCallbackMessage(callback, delegate: "\(type)"), at: now)
    }

    private static let didFailWithError = "locationManager(_:didFailWithError:)"

    /// Why no location can reach the app now, or `nil` while the authorization allows some.
    /// Location Services off read as `denied` (fact sheet a1 #3), so the status says it all.
    private var whyNoLocationWillCome: String? {
        switch authorizationStatus {
        case .denied: return "location authorization is denied"
        case .restricted: return "location authorization is restricted"
        case .notDetermined, .authorizedWhenInUse, .authorizedAlways: return nil
        }
    }

    /// Registers an object to hear from the phone; it is held weakly and called in the order
    /// objects registered.
    package func addObserver(_ observer: any SimulationObserver) {
        observers.removeAll { $0.value == nil }
        observers.append(WeakObserver(value: observer))
    }

    /// Stops calling `observer`.
    package func removeObserver(_ observer: any SimulationObserver) {
        observers.removeAll { $0.value == nil || $0.value === observer }
    }

    // MARK: - Driving, from `CoreLocationApp`

    /// Moves the clock, runs `body` (the app's `callback`) with this host bound as `current`,
    /// and hands back what app code asked for meanwhile.
    func deliver(
        _ callback: String, at instant: SimInstant, into requests: inout [LocationClientRequest<Int>],
        _ body: () -> Void
    ) {
        now = instant
        runAppCode(callback, body)
        lock.withLock {
            // Most callbacks (a delivered fix) ask for nothing: the generic array calls are
            // skipped then, which the per-fix cost of a facade app would otherwise be spent on.
            guard !pending.isEmpty else { return }
            requests.append(contentsOf: pending)
            pending.removeAll(keepingCapacity: true)
        }
    }

    /// Every live observer, in registration order.
    func forEachObserver(_ body: (any SimulationObserver) -> Void) {
        for observer in observers { if let value = observer.value { body(value) } }
    }

    /// Runs the timer's body once and forgets it.
    func fire(_ identifier: Int) {
        let body = lock.withLock { timers.removeValue(forKey: identifier) }
        body?()
    }

    func update(status: AuthorizationStatus, accuracy: AccuracyAuthorization) {
        authorizationStatus = status
        accuracyAuthorization = accuracy
    }

    func update(motionStatus: MotionAuthorizationStatus) { motionAuthorizationStatus = motionStatus }

    func relaunched(_ reason: LaunchReason, inBackground: Bool) {
        relaunch = (reason, inBackground)
        observers.removeAll()
        locationServices.processEnded()
        // The old process's timers and tasks died with it.
        lock.withLock { timers.removeAll() }
        tasks.endProcess()
    }

    func receive(_ deliveries: [LocationDelivery]) { for delivery in deliveries { received.receive(delivery.fix) } }

    func receive(_ fix: Fix) { received.receive(fix) }

    func receive(_ sample: MotionSample, at instant: SimInstant) { received.receive(sample, at: instant) }

    private struct WeakObserver {
        weak var value: (any SimulationObserver)?
    }
}

extension Date {
    /// The instant as a `Date`.
    package init(_ instant: SimInstant) {
        self.init(timeIntervalSince1970: Double(instant.nanosecondsSinceEpoch) / 1e9)
    }
}
