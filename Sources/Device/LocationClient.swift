import SimulationCore
import Traces

/// The app side of the phone: the code that talks to Core Location, seen by the device only
/// through the requests it makes and fed only what the device hands over.
///
/// A replay owns one client, calls `start` when the app's process first runs, forwards every
/// delivery the device makes to the app at the instant it happens, fires the client's own
/// timers, and calls `finish` when the trace ends. The client answers by writing into the
/// `requests` buffer it is given: calls to the device (`AppRequest`) or timers of its own.
/// The buffer is the replay's and is reused, so a client that writes nothing allocates
/// nothing; never keep it.
///
/// The callbacks mirror `CLLocationManagerDelegate` (and Core Motion's handler), so a
/// Core Location-shaped facade can sit on top. Only `start`, `didUpdateLocations` and
/// `finish` are required; the others do nothing unless implemented. A client with no timers
/// leaves `Timer` as `Never`.
///
/// Locations, motion, region crossings, visits, significant changes and the client's own
/// timers arrive only while the app's process runs (a suspended or terminated app gets none of
/// them), as on iOS. Authorization changes (location and motion) and the temporary
/// full-accuracy completion are passed on whenever the device reports them, even before
/// `start` and while the process does not run: they stand for what the app reads the next
/// time it asks the framework, so a client keeps its view of its permissions current.
public protocol LocationClient {
    /// A timer the client schedules with `LocationClientRequest.schedule` and gets back in
    /// `timerFired`; its own type, so the replay never needs to know what it means.
    associatedtype Timer: Sendable = Never

    /// The app's process ran for the first time; `launch` is what the app can ask the
    /// frameworks at that moment.
    mutating func start(
        _ launch: LocationClientLaunch, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>])

    /// `locationManager(_:didUpdateLocations:)`: one or more fixes handed over in one call,
    /// oldest first, each with the instant the device delivered it. The device decides how
    /// many fixes one call carries; `now` is the instant of the call (the last delivery).
    mutating func didUpdateLocations(
        _ locations: [LocationDelivery], at now: SimInstant, into requests: inout [LocationClientRequest<Timer>])

    /// Whether the replay may hand this client whole runs of locations through
    /// `didUpdateLocationRun` rather than one `didUpdateLocations` call each. `false` unless
    /// the client says so: the facade and subprocess engines that do not declare runs see
    /// one call per location.
    var takesLocationRuns: Bool { get }

    /// A run of locations, each of which would otherwise be its own `didUpdateLocations` call
    /// of one location (issue 32). Handle them in order and stop after the first one that
    /// writes to `requests` (a call to the device or a timer): the device may behave
    /// differently from then on, so the locations after it are handed over again later.
    /// - Returns: how many deliveries were handled, from 1 to `run.deliveries.count`.
    mutating func didUpdateLocationRun(
        _ run: LocationRun, into requests: inout [LocationClientRequest<Timer>]
    ) -> Int

    /// A location from significant-change monitoring (a wake-up while parked, a relaunch).
    mutating func didReceiveSignificantChange(
        _ location: Fix, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>])

    /// A motion activity update (Core Motion's activity handler).
    mutating func didUpdateMotionActivity(
        _ sample: MotionSample, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>])

    /// `didEnterRegion` or `didExitRegion` for a region the app monitors.
    mutating func didCrossRegion(
        _ identifier: String, _ crossing: RegionCrossing, at now: SimInstant,
        into requests: inout [LocationClientRequest<Timer>])

    /// `monitoringDidFailFor`: the region could not be monitored, for this rule.
    mutating func monitoringDidFail(
        forRegion identifier: String, _ rule: DeviceRule, at now: SimInstant,
        into requests: inout [LocationClientRequest<Timer>])

    /// `locationManager(_:didVisit:)`.
    mutating func didVisit(_ visit: VisitEvent, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>])

    /// `locationManagerDidChangeAuthorization(_:)` with the new status and accuracy.
    mutating func didChangeAuthorization(
        _ status: AuthorizationStatus, _ accuracy: AccuracyAuthorization, at now: SimInstant,
        into requests: inout [LocationClientRequest<Timer>])

    /// Motion authorization changed (the app sees it on its next query).
    mutating func didChangeMotionAuthorization(
        _ status: MotionAuthorizationStatus, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>])

    /// The temporary full-accuracy request's completion handler.
    mutating func didCompleteTemporaryFullAccuracyRequest(
        granted: Bool, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>])

    /// `locationManager(_:didFailWithError:)`: starting location updates failed, for this rule.
    mutating func didFailLocationUpdates(
        _ rule: DeviceRule, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>])

    /// `locationManagerDidPauseLocationUpdates(_:)`.
    mutating func didPauseLocationUpdates(at now: SimInstant, into requests: inout [LocationClientRequest<Timer>])

    /// The process started again after it ended (a relaunch by a region, a significant
    /// change, the person); the first launch is `start`.
    mutating func didLaunch(
        _ reason: LaunchReason, inBackground: Bool, at now: SimInstant,
        into requests: inout [LocationClientRequest<Timer>])

    /// A timer the client scheduled came due while its process runs.
    mutating func timerFired(_ timer: Timer, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>])

    /// The trace ended at `now`; nothing more will be delivered.
    mutating func finish(at now: SimInstant)
}

/// What the app can know when its process first runs, before any callback.
public struct LocationClientLaunch: Sendable, Equatable {
    /// `CLLocationManager.authorizationStatus`.
    public var authorizationStatus: AuthorizationStatus
    /// `CLLocationManager.accuracyAuthorization`.
    public var accuracyAuthorization: AccuracyAuthorization
    /// `CMMotionActivityManager.authorizationStatus()`.
    public var motionAuthorizationStatus: MotionAuthorizationStatus
    /// `CMMotionActivityManager.isActivityAvailable()`.
    public var isMotionActivityAvailable: Bool
    /// `CLLocationManager.locationServicesEnabled()`: the system-wide switch in Settings.
    public var isLocationServicesEnabled = true

    /// Whether motion activity updates will arrive: authorized and available.
    public var isMotionActivityAuthorized: Bool {
        motionAuthorizationStatus == .authorized && isMotionActivityAvailable
    }

    /// A launch with these answers, for driving a client without a device.
    public init(
        authorizationStatus: AuthorizationStatus, accuracyAuthorization: AccuracyAuthorization,
        motionAuthorizationStatus: MotionAuthorizationStatus, isMotionActivityAvailable: Bool
    ) {
        self.authorizationStatus = authorizationStatus
        self.accuracyAuthorization = accuracyAuthorization
        self.motionAuthorizationStatus = motionAuthorizationStatus
        self.isMotionActivityAvailable = isMotionActivityAvailable
    }

    /// What an app launched under `authorization` sees.
    public init(_ authorization: AuthorizationStateMachine.State) {
        authorizationStatus = authorization.status
        accuracyAuthorization = authorization.accuracy
        motionAuthorizationStatus = authorization.motionStatus
        isMotionActivityAvailable = authorization.isMotionAvailable
        isLocationServicesEnabled = authorization.isLocationServicesEnabled
    }
}

/// One fix handed to the app, with the instant the device handed it over (which may be later
/// than the fix's own timestamp).
public struct LocationDelivery: Sendable, Equatable {
    /// The location as the app sees it (reduced when accuracy is reduced).
    public var fix: Fix
    /// When the app received it.
    public var time: SimInstant

    /// A delivery of `fix` at `time`.
    public init(fix: Fix, time: SimInstant) {
        self.fix = fix
        self.time = time
    }
}

/// What a `LocationClient` asks of the world after handling something.
public enum LocationClientRequest<Timer: Sendable>: Sendable {
    /// Make this call to the device now.
    case device(AppRequest)
    /// Call `timerFired` with this timer at this instant (if the process runs then).
    case schedule(Timer, at: SimInstant)
}

extension LocationClientRequest: Equatable where Timer: Equatable {}

extension LocationClient {
    /// Ignores the significant change.
    public mutating func didReceiveSignificantChange(
        _ location: Fix, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]
    ) {}

    /// Ignores the motion update.
    public mutating func didUpdateMotionActivity(
        _ sample: MotionSample, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]
    ) {}

    /// Ignores the crossing.
    public mutating func didCrossRegion(
        _ identifier: String, _ crossing: RegionCrossing, at now: SimInstant,
        into requests: inout [LocationClientRequest<Timer>]
    ) {}

    /// Ignores the failure.
    public mutating func monitoringDidFail(
        forRegion identifier: String, _ rule: DeviceRule, at now: SimInstant,
        into requests: inout [LocationClientRequest<Timer>]
    ) {}

    /// Ignores the visit.
    public mutating func didVisit(
        _ visit: VisitEvent, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]
    ) {}

    /// Ignores the change.
    public mutating func didChangeAuthorization(
        _ status: AuthorizationStatus, _ accuracy: AccuracyAuthorization, at now: SimInstant,
        into requests: inout [LocationClientRequest<Timer>]
    ) {}

    /// Ignores the change.
    public mutating func didChangeMotionAuthorization(
        _ status: MotionAuthorizationStatus, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]
    ) {}

    /// Ignores the completion.
    public mutating func didCompleteTemporaryFullAccuracyRequest(
        granted: Bool, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]
    ) {}

    /// Ignores the failure.
    public mutating func didFailLocationUpdates(
        _ rule: DeviceRule, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]
    ) {}

    /// Ignores the pause.
    public mutating func didPauseLocationUpdates(
        at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]
    ) {}

    /// Ignores the relaunch.
    public mutating func didLaunch(
        _ reason: LaunchReason, inBackground: Bool, at now: SimInstant,
        into requests: inout [LocationClientRequest<Timer>]
    ) {}
}

extension LocationClient where Timer == Never {
    /// A client without timers is never called back.
    public mutating func timerFired(
        _ timer: Never, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]
    ) {}
}
