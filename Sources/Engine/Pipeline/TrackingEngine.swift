import Device
import Geometry
import SimulationCore
import Traces

/// The engine's settings, one per stage. Every default names its source in its stage.
public struct EngineConfiguration: Sendable {
    /// The accuracy gate.
    public var gate = AccuracyGate.Configuration()
    /// Smoothing after the gate (pass-through by default, as Transistorsoft v5 ships).
    public var smoothing = SmoothingPolicy.passThrough
    /// The elastic distance filter deciding which accepted fixes are recorded.
    public var distanceFilter = DistanceFilter()
    /// The odometer's own accuracy threshold in metres.
    public var odometerAccuracyThresholdMeters = 20.0
    /// The motion state machine.
    public var motion = MotionStateMachine.Configuration()
    /// Geofence proximity ranking.
    public var geofencing = GeofenceManager.Configuration()
    /// How standard updates are started: background updates allowed, and iOS's automatic pause
    /// left on, as Transistorsoft does unless `pausesLocationUpdatesAutomatically` is set (its
    /// docs: leave it undefined; its own stop detection turns GPS off after `stopTimeout`, and
    /// with stop detection disabled it falls back to iOS's pause, fact sheet b1). A pause is
    /// taken as a stop (`MotionStateMachine.Event.locationUpdatesPaused`).
    public var locationOptions = LocationUpdateOptions(
        allowsBackgroundLocationUpdates: true, pausesLocationUpdatesAutomatically: true)
    /// Transistorsoft's `preventSuspend` (b1, a4 #16; default false): while stationary keep a
    /// standard-updates service running (without automatic pause) so iOS does not suspend the
    /// app, which keeps motion activity arriving. Its fixes are ignored while stationary, and
    /// the phone counts it as GPS time: the countermeasure's price.
    public var preventSuspend = false
    /// Transistorsoft's `heartbeatInterval` (b1: 60 s, on iOS only with `preventSuspend`);
    /// `nil` (the default here) schedules none. A heartbeat is a client timer: it fires only
    /// while the app runs (once on resume if it came due during a suspension) and records its
    /// time in `Recorder.heartbeatTimes`.
    public var heartbeatIntervalSeconds: Double?
    /// Start in the moving state with GPS on, as an app calling `changePace(true)` at launch
    /// does; otherwise the first fix places a stationary region and GPS waits for a departure.
    public var startsMoving = false
    /// While moving, re-centre the stationary region on the latest fix once the device is this
    /// far from its centre (Radar's "bubble", fact sheet a9): the region a terminated app is
    /// relaunched by. `nil` registers it only when stopping.
    public var movingRegionRefreshMeters: Double? = 100
    /// Hold a `CLBackgroundActivitySession` from the start, which keeps a When-In-Use app
    /// "in use" in the background (fact sheet a4 #4, #8).
    public var startsBackgroundSession = false
    /// Whether to ask for motion activity at all.
    public var requestsMotionActivity = true

    public init() {}
}

/// A timer the engine schedules and gets back through `LocationClient.timerFired`.
public enum EngineTimer: Sendable, Equatable {
    /// The motion state machine's stop timer.
    case stop(MotionStateMachine.StopTimer)
    /// The periodic heartbeat (`EngineConfiguration.heartbeatIntervalSeconds`); stale when a
    /// relaunch started a new chain.
    case heartbeat(generation: Int)
}

/// The tracking SDK under test, a `LocationClient`. It sees only what the device delivers and
/// answers with requests to the device; the stages (gate, smoother, distance filter, odometer, motion
/// machine, geofences) are stored properties called in a fixed order, with no dynamic dispatch.
///
/// A final class because the geofence manager holds GEOS geometry; one engine per replay.
public final class TrackingEngine: LocationClient {
    /// The motion machine's stop timer is the engine's only timer.
    public typealias Timer = EngineTimer

    /// The region id of the stationary geofence the engine leaves when it stops.
    public static let stationaryRegionIdentifier = "tracesim.stationary"

    /// The settings.
    public let configuration: EngineConfiguration
    /// Everything produced so far.
    public private(set) var recorder: Recorder
    /// Distance over accepted fixes, metres.
    public var odometerMeters: Double { odometer.meters }
    /// The OS regions the engine has registered for geofences (not the stationary region).
    public var registeredGeofenceIdentifiers: [String] { geofences.map { $0.registered.keys.sorted() } ?? [] }
    public var motionState: MotionStateMachine.State { motion.state }

    private var gate: AccuracyGate
    private var smoother = KalmanSmoother()
    private var odometer = Odometer()
    private var motion: MotionStateMachine
    private let geofences: GeofenceManager?
    private var lastRecorded: Fix?
    private var wantsGPS = false
    /// The `preventSuspend` keep-alive service holds location updates while stationary.
    private var isKeepAliveRunning = false
    private var heartbeatGeneration = 0
    /// When tracking GPS last replaced the keep-alive: a fix handed over in that same instant
    /// is the keep-alive's (low-accuracy in an SDK), not the new request's.
    private var keepAliveEndedAt: SimInstant?
    private var isStarted = false
    private var movingRegionCenter: Coordinate?

    /// Creates an engine over `fences`, validating polygons with GEOS in `context`.
    /// - Throws: `GeometryError` naming the first invalid fence.
    public init(
        configuration: EngineConfiguration = EngineConfiguration(), fences: [Geofence] = [], context: GEOSContext,
        expectedFixCount: Int = 0
    ) throws(GeometryError) {
        self.configuration = configuration
        gate = AccuracyGate(configuration: configuration.gate)
        odometer.accuracyThresholdMeters = configuration.odometerAccuracyThresholdMeters
        motion = MotionStateMachine(
            configuration: configuration.motion, usesMotionActivity: configuration.requestsMotionActivity)
        geofences =
            fences.isEmpty
            ? nil : try GeofenceManager(fences: fences, configuration: configuration.geofencing, context: context)
        recorder = Recorder(expectedFixCount: expectedFixCount)
    }

    /// The app started the SDK: motion updates, significant changes for relaunch, and GPS
    /// until the first fix places the stationary region. Motion activity is used when
    /// `CMMotionActivityManager` says it is authorized and available.
    public func start(
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
    public func didUpdateLocations(
        _ locations: [LocationDelivery], at now: SimInstant, into requests: inout [LocationClientRequest<EngineTimer>]
    ) {
        for delivery in locations {
            // The keep-alive's fixes only keep the app running; they are not tracking.
            if isKeepAliveRunning && !wantsGPS || keepAliveEndedAt == delivery.time { continue }
            location(delivery.fix, at: delivery.time, into: &requests)
        }
    }

    /// A wake-up while parked; with GPS on, the same position arrives as a standard update.
    public func didReceiveSignificantChange(
        _ location: Fix, at now: SimInstant, into requests: inout [LocationClientRequest<EngineTimer>]
    ) {
        if !wantsGPS { self.location(location, at: now, into: &requests) }
    }

    /// Feeds the motion state machine.
    public func didUpdateMotionActivity(
        _ sample: MotionSample, at now: SimInstant, into requests: inout [LocationClientRequest<EngineTimer>]
    ) {
        apply(motion.handle(.motionActivityReceived(sample), at: now), at: now, into: &requests)
    }

    /// Leaving the stationary region is a departure; other regions are geofences.
    public func didCrossRegion(
        _ identifier: String, _ crossing: RegionCrossing, at now: SimInstant,
        into requests: inout [LocationClientRequest<EngineTimer>]
    ) {
        if identifier == Self.stationaryRegionIdentifier {
            if crossing == .exit {
                apply(motion.handle(.stationaryRegionExited, at: now), at: now, into: &requests)
            }
        } else if let geofences {
            for event in geofences.regionEvent(identifier, crossing, at: now) { recorder.geofence(event) }
        }
    }

    /// Without motion permission the machine falls back to speed and the stationary region.
    public func didChangeMotionAuthorization(
        _ status: MotionAuthorizationStatus, at now: SimInstant,
        into requests: inout [LocationClientRequest<EngineTimer>]
    ) {
        motion.usesMotionActivity = configuration.requestsMotionActivity && status == .authorized
    }

    /// A relaunch restores what the SDK was doing; the first launch is `start`'s job.
    public func didLaunch(
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
    public func didPauseLocationUpdates(at now: SimInstant, into requests: inout [LocationClientRequest<EngineTimer>]) {
        isKeepAliveRunning = false
        apply(motion.handle(.locationUpdatesPaused, at: now), at: now, into: &requests)
    }

    /// A timer the engine scheduled came due.
    public func timerFired(
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
    public func finish(at now: SimInstant) {}

    // MARK: The per-fix path

    private func location(_ fix: Fix, at now: SimInstant, into requests: inout [LocationClientRequest<EngineTimer>]) {
        recorder.fixDelivered()
        switch gate.evaluate(fix, deliveredAt: now) {
        case .hold:
            return
        case .reject(let reason):
            recorder.rejected(reason)
        case .rejectHeld(let reason):
            recorder.rejected(reason)
        case .accept(let fix, let held):
            // A released first fix is history: it is recorded, but the motion machine places
            // its first stationary region on the newest position.
            if let held { accepted(held, at: now, feedsMotion: false, into: &requests) }
            accepted(fix, at: now, feedsMotion: true, into: &requests)
        }
    }

    private func accepted(
        _ raw: Fix, at now: SimInstant, feedsMotion: Bool, into requests: inout [LocationClientRequest<EngineTimer>]
    ) {
        let accuracy = raw.horizontalAccuracyMeters(uere: configuration.gate.uere)?.meters
        var fix = raw
        if configuration.smoothing != .passThrough {
            guard
                let smoothed = smoother.smooth(
                    raw, accuracyMeters: accuracy ?? configuration.gate.maximumAccuracyMeters,
                    rejectOutliers: configuration.smoothing == .conservative)
            else {
                recorder.rejected(.outlier)
                return
            }
            fix = smoothed
        }
        recorder.accepted(fix)
        odometer.add(fix, accuracyMeters: accuracy)
        if passesDistanceFilter(fix) {
            lastRecorded = fix
            recorder.recordedLastAccepted()
        }
        if feedsMotion {
            apply(motion.handle(.fixAccepted(fix), at: now), at: now, into: &requests)
            refreshMovingRegion(around: fix, into: &requests)
        }
        guard let geofences else { return }
        do {
            for event in try geofences.fixDelivered(fix) { recorder.geofence(event) }
        } catch {
            // Fences were validated when the engine was built, so GEOS failing here is a bug.
            preconditionFailure("geofence hit-test failed after validation: \(error)")
        }
        let position = Coordinate(latitude: fix.latitude, longitude: fix.longitude)
        let changes = geofences.rerank(at: position, time: now, reserve: 1)
        for identifier in changes.remove { requests.append(.device(.stoppedMonitoring(identifier: identifier))) }
        for region in changes.add { requests.append(.device(.startedMonitoring(region))) }
    }

    /// Keeps a region around a moving device so a force-quit app can be relaunched when it
    /// moves on; the device replaces a region registered again under the same identifier.
    private func refreshMovingRegion(around fix: Fix, into requests: inout [LocationClientRequest<EngineTimer>]) {
        guard motion.state == .moving, let refresh = configuration.movingRegionRefreshMeters else { return }
        let position = Coordinate(latitude: fix.latitude, longitude: fix.longitude)
        if let center = movingRegionCenter, LocalDistance.meters(center, position) < refresh { return }
        movingRegionCenter = position
        let region = MonitoredRegion(
            identifier: Self.stationaryRegionIdentifier, center: position,
            radiusMeters: configuration.motion.stationaryRadiusMeters)
        requests.append(.device(.startedMonitoring(region)))
    }

    private func passesDistanceFilter(_ fix: Fix) -> Bool {
        guard let last = lastRecorded else { return true }
        let speed = Double(fix.speedMetersPerSecond ?? 0)
        let moved = LocalDistance.meters(
            Coordinate(latitude: last.latitude, longitude: last.longitude),
            Coordinate(latitude: fix.latitude, longitude: fix.longitude))
        return moved >= configuration.distanceFilter.thresholdMeters(speedMetersPerSecond: speed)
    }

    // MARK: Motion actions become device requests

    private func apply(
        _ actions: [MotionStateMachine.Action], at now: SimInstant,
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
                    identifier: Self.stationaryRegionIdentifier, center: center, radiusMeters: radius)
                requests.append(.device(.startedMonitoring(region)))
            case .removeStationaryRegion:
                movingRegionCenter = nil
                requests.append(.device(.stoppedMonitoring(identifier: Self.stationaryRegionIdentifier)))
            case .departed:
                recorder.motionChanged(to: .moving, at: now)
            case .arrived:
                recorder.motionChanged(to: .stationary, at: now)
            case .schedule(let timer, let due):
                requests.append(.schedule(.stop(timer), at: due))
            }
        }
    }

    private func startGPS(at now: SimInstant, into requests: inout [LocationClientRequest<EngineTimer>]) {
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

    private func scheduleHeartbeat(after now: SimInstant, into requests: inout [LocationClientRequest<EngineTimer>]) {
        guard let interval = configuration.heartbeatIntervalSeconds else { return }
        requests.append(.schedule(.heartbeat(generation: heartbeatGeneration), at: now.advanced(bySeconds: interval)))
    }
}
