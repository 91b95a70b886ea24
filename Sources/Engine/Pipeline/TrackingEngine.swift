import Device
import Geometry
import SimulationCore
import Traces

/// The engine's settings, one per stage. Every default names its source in its stage.
public struct EngineConfiguration: Sendable, Equatable {
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
/// machine, geofences) are called in a fixed order, with no dynamic dispatch.
///
/// A final class because the geofence manager holds GEOS geometry; one engine per replay. Its
/// state is one value (`EngineCore`), so a callback pays one exclusivity check, not one per stage.
public final class TrackingEngine: LocationClient {
    /// The motion machine's stop timer is the engine's only timer.
    public typealias Timer = EngineTimer

    /// The region id of the stationary geofence the engine leaves when it stops.
    public static let stationaryRegionIdentifier = "tracesim.stationary"

    /// The settings.
    public let configuration: EngineConfiguration
    /// Everything produced so far.
    public var recorder: Recorder { core.recorder }
    /// Distance over accepted fixes, metres.
    public var odometerMeters: Double { core.odometer.meters }
    /// The OS regions the engine has registered for geofences (not the stationary region).
    public var registeredGeofenceIdentifiers: [String] { core.geofences.map { $0.registered.keys.sorted() } ?? [] }
    public var motionState: MotionStateMachine.State { core.motion.state }

    private var core: EngineCore

    /// Creates an engine over `fences`, validating polygons with GEOS in `context`.
    /// - Throws: `GeometryError` naming the first invalid fence.
    public init(
        configuration: EngineConfiguration = EngineConfiguration(), fences: [Geofence] = [], context: GEOSContext,
        expectedFixCount: Int = 0
    ) throws(GeometryError) {
        self.configuration = configuration
        let geofences =
            fences.isEmpty
            ? nil : try GeofenceManager(fences: fences, configuration: configuration.geofencing, context: context)
        core = EngineCore(configuration: configuration, geofences: geofences, expectedFixCount: expectedFixCount)
    }

    /// The app started the SDK: motion updates, significant changes for relaunch, and GPS
    /// until the first fix places the stationary region. Motion activity is used when
    /// `CMMotionActivityManager` says it is authorized and available.
    public func start(
        _ launch: LocationClientLaunch, at now: SimInstant, into requests: inout [LocationClientRequest<EngineTimer>]
    ) {
        core.start(launch, at: now, into: &requests)
    }

    /// Runs each fix through the pipeline at the instant it was delivered.
    public func didUpdateLocations(
        _ locations: [LocationDelivery], at now: SimInstant, into requests: inout [LocationClientRequest<EngineTimer>]
    ) {
        core.didUpdateLocations(locations, at: now, into: &requests)
    }

    /// In process the replay hands this engine one location per call: it asks the device for
    /// something about every seven fixes while driving (its moving-region refresh), and the run
    /// path's stepping ahead and going back then cost more than it saved (the gated pipeline
    /// workload counted 20 % more instructions with runs, issue 32). `serve-engine` hands it
    /// whole protocol runs through `didUpdateLocationRun` all the same.
    public var takesLocationRuns: Bool { false }

    /// Runs each delivery of `run` through the pipeline, as `didUpdateLocations` would one call
    /// at a time, and stops after the first that asks something of the device or schedules a
    /// timer (a region refresh, a motion change, a geofence re-rank).
    /// - Parameters:
    ///   - run: the deliveries, in order.
    ///   - requests: where the engine's requests go.
    /// - Returns: how many deliveries were handled, from 1 to `run.deliveries.count`.
    /// - Complexity: O(handled deliveries); recording a fix allocates nothing while the
    ///   recorder's reserved capacity lasts.
    public func didUpdateLocationRun(
        _ run: LocationRun, into requests: inout [LocationClientRequest<EngineTimer>]
    ) -> Int {
        core.didUpdateLocationRun(run, into: &requests)
    }

    /// A wake-up while parked; with GPS on, the same position arrives as a standard update.
    public func didReceiveSignificantChange(
        _ location: Fix, at now: SimInstant, into requests: inout [LocationClientRequest<EngineTimer>]
    ) {
        core.didReceiveSignificantChange(location, at: now, into: &requests)
    }

    /// Feeds the motion state machine.
    public func didUpdateMotionActivity(
        _ sample: MotionSample, at now: SimInstant, into requests: inout [LocationClientRequest<EngineTimer>]
    ) {
        core.didUpdateMotionActivity(sample, at: now, into: &requests)
    }

    /// Leaving the stationary region is a departure; other regions are geofences.
    public func didCrossRegion(
        _ identifier: String, _ crossing: RegionCrossing, at now: SimInstant,
        into requests: inout [LocationClientRequest<EngineTimer>]
    ) {
        core.didCrossRegion(identifier, crossing, at: now, into: &requests)
    }

    /// Without motion permission the machine falls back to speed and the stationary region.
    public func didChangeMotionAuthorization(
        _ status: MotionAuthorizationStatus, at now: SimInstant,
        into requests: inout [LocationClientRequest<EngineTimer>]
    ) {
        core.didChangeMotionAuthorization(status, at: now, into: &requests)
    }

    /// A relaunch restores what the SDK was doing; the first launch is `start`'s job.
    public func didLaunch(
        _ reason: LaunchReason, inBackground: Bool, at now: SimInstant,
        into requests: inout [LocationClientRequest<EngineTimer>]
    ) {
        core.didLaunch(reason, inBackground: inBackground, at: now, into: &requests)
    }

    /// iOS paused the updates: the SDK takes it as a stop, and restarts them on departure.
    public func didPauseLocationUpdates(at now: SimInstant, into requests: inout [LocationClientRequest<EngineTimer>]) {
        core.didPauseLocationUpdates(at: now, into: &requests)
    }

    /// A timer the engine scheduled came due.
    public func timerFired(
        _ timer: EngineTimer, at now: SimInstant, into requests: inout [LocationClientRequest<EngineTimer>]
    ) {
        core.timerFired(timer, at: now, into: &requests)
    }

    /// Nothing to close: the record is complete after each callback.
    public func finish(at now: SimInstant) {}
}
