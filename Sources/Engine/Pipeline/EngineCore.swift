import Device
import Geometry
import SimulationCore
import Traces

/// The built-in engine's state and stages as one value. `TrackingEngine` is a class (its
/// geofence manager holds GEOS geometry), and each access to a mutable stored property of a
/// class pays a dynamic exclusivity check: about ten per fix when the stages were its
/// properties. Held in one stored struct, a callback pays one check and the per-fix path
/// runs on the value.
struct EngineCore {
    let configuration: EngineConfiguration
    private(set) var recorder: Recorder
    private var gate: AccuracyGate
    private var smoother = KalmanSmoother()
    private(set) var odometer = Odometer()
    private(set) var motion: MotionStateMachine
    let geofences: GeofenceManager?
    /// Where the last recorded fix was: all the distance filter reads of it.
    private var lastRecordedPosition: Coordinate?
    private var wantsGPS = false
    /// The `preventSuspend` keep-alive service holds location updates while stationary.
    private var isKeepAliveRunning = false
    private var heartbeatGeneration = 0
    /// When tracking GPS last replaced the keep-alive: a fix handed over in that same instant
    /// is the keep-alive's (low-accuracy in an SDK), not the new request's.
    private var keepAliveEndedAt: SimInstant?
    private var isStarted = false
    private var movingRegionCenter: Coordinate?

    init(configuration: EngineConfiguration, geofences: GeofenceManager?, expectedFixCount: Int) {
        self.configuration = configuration
        gate = AccuracyGate(configuration: configuration.gate)
        odometer.accuracyThresholdMeters = configuration.odometerAccuracyThresholdMeters
        motion = MotionStateMachine(
            configuration: configuration.motion, usesMotionActivity: configuration.requestsMotionActivity)
        self.geofences = geofences
        recorder = Recorder(expectedFixCount: expectedFixCount)
    }

    /// The app started the SDK: motion updates, significant changes for relaunch, and GPS
    /// until the first fix places the stationary region. Motion activity is used when
    /// `CMMotionActivityManager` says it is authorized and available.
    mutating func start(
        _ launch: LocationClientLaunch, at now: SimInstant, into requests: inout [LocationClientRequest<EngineTimer>]
    ) {
        isStarted = true
        motion.usesMotionActivity = configuration.requestsMotionActivity && launch.isMotionActivityAuthorized
        if configuration.requestsMotionActivity { requests.append(.device(.startedMotionUpdates)) }
        requests.append(.device(.startedSignificantChanges))
        if configuration.startsBackgroundSession { requests.append(.device(.startedBackgroundSession)) }
        scheduleHeartbeat(after: now, into: &requests)
        if configuration.startsMoving {
            apply(motion.handle(.paceChangedToMoving, at: now), at: now, into: &requests)
        } else {
            startGPS(at: now, into: &requests)
        }
    }

    /// Runs each fix through the pipeline at the instant it was delivered.
    mutating func didUpdateLocations(
        _ locations: [LocationDelivery], at now: SimInstant, into requests: inout [LocationClientRequest<EngineTimer>]
    ) {
        for delivery in locations where isTracking(delivery) {
            location(delivery.fix, at: delivery.time, into: &requests)
        }
    }

    /// Each delivery of `run` as its own `didUpdateLocations` call, until one writes a request:
    /// the same per-fix work in one loop, without a call, an array and an exclusivity check per fix.
    /// - Returns: how many deliveries were handled, the one that wrote a request included.
    mutating func didUpdateLocationRun(
        _ run: LocationRun, into requests: inout [LocationClientRequest<EngineTimer>]
    ) -> Int {
        let before = requests.count
        var handled = 0
        for delivery in run.deliveries {
            handled += 1
            guard isTracking(delivery) else { continue }
            location(delivery.fix, at: delivery.time, into: &requests)
            if requests.count != before { break }
        }
        return handled
    }

    /// The keep-alive's fixes only keep the app running; they are not tracking. Inlined: a
    /// method of `self` called from a mutating one copies all of `self` when it is not.
    @inline(__always)
    private func isTracking(_ delivery: LocationDelivery) -> Bool {
        !(isKeepAliveRunning && !wantsGPS || keepAliveEndedAt == delivery.time)
    }

    /// A wake-up while parked; with GPS on, the same position arrives as a standard update.
    mutating func didReceiveSignificantChange(
        _ location: Fix, at now: SimInstant, into requests: inout [LocationClientRequest<EngineTimer>]
    ) {
        if !wantsGPS { self.location(location, at: now, into: &requests) }
    }

    /// Feeds the motion state machine.
    mutating func didUpdateMotionActivity(
        _ sample: MotionSample, at now: SimInstant, into requests: inout [LocationClientRequest<EngineTimer>]
    ) {
        apply(motion.handle(.motionActivityReceived(sample), at: now), at: now, into: &requests)
    }

    /// Leaving the stationary region is a departure; other regions are geofences.
    mutating func didCrossRegion(
        _ identifier: String, _ crossing: RegionCrossing, at now: SimInstant,
        into requests: inout [LocationClientRequest<EngineTimer>]
    ) {
        if identifier == TrackingEngine.stationaryRegionIdentifier {
            if crossing == .exit {
                apply(motion.handle(.stationaryRegionExited, at: now), at: now, into: &requests)
            }
        } else if let geofences {
            for event in geofences.regionEvent(identifier, crossing, at: now) { recorder.geofence(event) }
        }
    }

    /// Without motion permission the machine falls back to speed and the stationary region.
    mutating func didChangeMotionAuthorization(
        _ status: MotionAuthorizationStatus, at now: SimInstant,
        into requests: inout [LocationClientRequest<EngineTimer>]
    ) {
        motion.usesMotionActivity = configuration.requestsMotionActivity && status == .authorized
    }

    /// A relaunch restores what the SDK was doing; the first launch is `start`'s job.
    mutating func didLaunch(
        _ reason: LaunchReason, inBackground: Bool, at now: SimInstant,
        into requests: inout [LocationClientRequest<EngineTimer>]
    ) {
        guard isStarted else { return }
        if configuration.requestsMotionActivity { requests.append(.device(.startedMotionUpdates)) }
        if wantsGPS {
            requests.append(.device(.startedLocationUpdates(configuration.locationOptions)))
        } else if isKeepAliveRunning {
            requests.append(.device(.startedLocationUpdates(keepAliveOptions)))
        }
        heartbeatGeneration += 1
        scheduleHeartbeat(after: now, into: &requests)
    }

    /// iOS paused the updates: the SDK takes it as a stop, and restarts them on departure.
    mutating func didPauseLocationUpdates(at now: SimInstant, into requests: inout [LocationClientRequest<EngineTimer>])
    {
        isKeepAliveRunning = false
        apply(motion.handle(.locationUpdatesPaused, at: now), at: now, into: &requests)
    }

    /// A timer the engine scheduled came due.
    mutating func timerFired(
        _ timer: EngineTimer, at now: SimInstant, into requests: inout [LocationClientRequest<EngineTimer>]
    ) {
        switch timer {
        case .stop(let stop): apply(motion.handle(.stopTimerFired(stop), at: now), at: now, into: &requests)
        case .heartbeat(let generation):
            guard generation == heartbeatGeneration else { return }
            recorder.heartbeat(at: now)
            scheduleHeartbeat(after: now, into: &requests)
        }
    }

    /// Nothing to close: the record is complete after each callback.
    mutating func finish(at now: SimInstant) {}

    // MARK: The per-fix path

    private mutating func location(
        _ fix: Fix, at now: SimInstant, into requests: inout [LocationClientRequest<EngineTimer>]
    ) {
        recorder.fixDelivered()
        switch gate.judge(fix, deliveredAt: now) {
        case .hold:
            return
        case .reject(let reason), .rejectHeld(let reason):
            recorder.rejected(reason)
        case .accept:
            accepted(fix, at: now, feedsMotion: true, into: &requests)
        case .acceptReleasing(let held):
            // A released first fix is history: it is recorded, but the motion machine places
            // its first stationary region on the newest position.
            accepted(held, at: now, feedsMotion: false, into: &requests)
            accepted(fix, at: now, feedsMotion: true, into: &requests)
        }
    }

    private mutating func accepted(
        _ raw: Fix, at now: SimInstant, feedsMotion: Bool, into requests: inout [LocationClientRequest<EngineTimer>]
    ) {
        let accuracy = raw.horizontalAccuracyMeters(uere: configuration.gate.uere)?.meters
        // Pass-through (the default) records the fix as given, without copying it.
        if configuration.smoothing == .passThrough {
            record(raw, accuracyMeters: accuracy, at: now, feedsMotion: feedsMotion, into: &requests)
            return
        }
        guard
            let smoothed = smoother.smooth(
                raw, accuracyMeters: accuracy ?? configuration.gate.maximumAccuracyMeters,
                rejectOutliers: configuration.smoothing == .conservative)
        else {
            recorder.rejected(.outlier)
            return
        }
        record(smoothed, accuracyMeters: accuracy, at: now, feedsMotion: feedsMotion, into: &requests)
    }

    /// Keeps an accepted fix (after smoothing): the record, the odometer, the distance filter,
    /// the motion machine and the geofences, in that order.
    @inline(__always)
    private mutating func record(
        _ fix: Fix, accuracyMeters accuracy: Double?, at now: SimInstant, feedsMotion: Bool,
        into requests: inout [LocationClientRequest<EngineTimer>]
    ) {
        recorder.accepted(fix)
        odometer.add(fix, accuracyMeters: accuracy)
        let position = Coordinate(latitude: fix.latitude, longitude: fix.longitude)
        if Self.passesDistanceFilter(
            position, speed: fix.speedMetersPerSecond, since: lastRecordedPosition, configuration.distanceFilter)
        {
            lastRecordedPosition = position
            recorder.recordedLastAccepted()
        }
        if feedsMotion {
            let actions = motion.fixAccepted(fix, at: now)
            if !actions.isEmpty { apply(actions, at: now, into: &requests) }
            refreshMovingRegion(around: position, into: &requests)
        }
        guard let geofences else { return }
        do {
            for event in try geofences.fixDelivered(fix) { recorder.geofence(event) }
        } catch {
            // Fences were validated when the engine was built, so GEOS failing here is a bug.
            preconditionFailure("geofence hit-test failed after validation: \(error)")
        }
        let changes = geofences.rerank(at: position, time: now, reserve: 1)
        for identifier in changes.remove { requests.append(.device(.stoppedMonitoring(identifier: identifier))) }
        for region in changes.add { requests.append(.device(.startedMonitoring(region))) }
    }

    /// Keeps a region around a moving device so a force-quit app can be relaunched when it
    /// moves on; the device replaces a region registered again under the same identifier.
    private mutating func refreshMovingRegion(
        around position: Coordinate, into requests: inout [LocationClientRequest<EngineTimer>]
    ) {
        guard motion.state == .moving, let refresh = configuration.movingRegionRefreshMeters else { return }
        if let center = movingRegionCenter, LocalDistance.isBelow(center, position, refresh) { return }
        movingRegionCenter = position
        let region = MonitoredRegion(
            identifier: TrackingEngine.stationaryRegionIdentifier, center: position,
            radiusMeters: configuration.motion.stationaryRadiusMeters)
        requests.append(.device(.startedMonitoring(region)))
    }

    /// Whether a fix at `position` moving at `speed` is far enough from the last recorded one.
    /// Static, so the per-fix path does not copy the engine's state to call it.
    private static func passesDistanceFilter(
        _ position: Coordinate, speed: Float?, since last: Coordinate?, _ filter: DistanceFilter
    ) -> Bool {
        guard let last else { return true }
        return LocalDistance.isAtLeast(
            last, position, filter.thresholdMeters(speedMetersPerSecond: Double(speed ?? 0)))
    }

    // MARK: Motion actions become device requests

    private mutating func apply(
        _ actions: MotionStateMachine.Actions, at now: SimInstant,
        into requests: inout [LocationClientRequest<EngineTimer>]
    ) {
        for action in actions {
            switch action {
            case .startGPS:
                startGPS(at: now, into: &requests)
            case .stopGPS:
                wantsGPS = false
                requests.append(.device(.stoppedLocationUpdates))
                if configuration.preventSuspend {
                    // Transistorsoft's preventSuspend: a service that keeps iOS from suspending
                    // the stationary app (b1, a4 #16).
                    isKeepAliveRunning = true
                    requests.append(.device(.startedLocationUpdates(keepAliveOptions)))
                }
            case .monitorStationaryRegion(let center, let radius):
                let region = MonitoredRegion(
                    identifier: TrackingEngine.stationaryRegionIdentifier, center: center, radiusMeters: radius)
                requests.append(.device(.startedMonitoring(region)))
            case .removeStationaryRegion:
                movingRegionCenter = nil
                requests.append(.device(.stoppedMonitoring(identifier: TrackingEngine.stationaryRegionIdentifier)))
            case .departed:
                recorder.motionChanged(to: .moving, at: now)
            case .arrived:
                recorder.motionChanged(to: .stationary, at: now)
            case .schedule(let timer, let due):
                requests.append(.schedule(.stop(timer), at: due))
            }
        }
    }

    private mutating func startGPS(at now: SimInstant, into requests: inout [LocationClientRequest<EngineTimer>]) {
        wantsGPS = true
        if isKeepAliveRunning { keepAliveEndedAt = now }
        isKeepAliveRunning = false
        requests.append(.device(.startedLocationUpdates(configuration.locationOptions)))
    }

    /// The keep-alive's updates: the tracking options without iOS's automatic pause, which
    /// would end the keep-alive after a stationary quarter of an hour.
    private var keepAliveOptions: LocationUpdateOptions {
        var options = configuration.locationOptions
        options.pausesLocationUpdatesAutomatically = false
        return options
    }

    private mutating func scheduleHeartbeat(
        after now: SimInstant, into requests: inout [LocationClientRequest<EngineTimer>]
    ) {
        guard let interval = configuration.heartbeatIntervalSeconds else { return }
        requests.append(.schedule(.heartbeat(generation: heartbeatGeneration), at: now.advanced(bySeconds: interval)))
    }
}
