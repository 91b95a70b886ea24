import SimulationCore
import Traces

/// The simulated iPhone: everything iOS decides about location, in one value.
///
/// The engine and the permission layers only send it events and receive what it does; they
/// never see its rules. `handle(_:at:into:)` is the only way in; time is an argument and
/// randomness comes from the seeded generator, so a replay is deterministic.
///
/// The work is split by concern: app requests (`Device+Requests`), the lifecycle inputs
/// (`Device+Lifecycle`, driving `LifecycleStateMachine`), fix delivery (`Device+FixDelivery`),
/// region, significant-change and visit events (`Device+BackgroundEvents`) and what the
/// authorization machine asks for (`Device+Authorization`).
public struct Device: Sendable {
    /// The starting point of a replay.
    public struct Configuration: Sendable {
        /// What the app declares.
        public var infoPlist = InfoPlist()
        /// The numbers behind the rules.
        public var parameters = DeviceParameters()
        /// Permissions at the start (a fresh install by default).
        public var authorization = AuthorizationStateMachine.State()
        /// Seeds reduced-accuracy displacement and derived motion.
        public var seed: UInt64 = 0
        /// Whether the trace has recorded motion samples; without them the coprocessor derives
        /// activity from speed.
        public var traceHasMotionSamples = false

        /// The defaults: a complete Info.plist, a fresh install, current iOS.
        public init() {}
    }

    /// Permissions and prompts.
    public internal(set) var authorization: AuthorizationStateMachine
    /// Where the app process is, what it started, and the screen lock.
    public internal(set) var lifecycle: LifecycleStateMachine
    /// The numbers behind the rules.
    public let parameters: DeviceParameters
    /// Every prompt shown, suppressed or answered, in order.
    public internal(set) var promptLog: [PromptLogEntry] = []

    let traceHasMotionSamples: Bool
    var regions: RegionMonitor
    var significantChanges: SignificantChangeMonitor
    var visits = VisitMonitor()
    var reducedFilter = ReducedAccuracyFilter()
    var autoPause = AutoPauseTracker()
    var motionDeriver = MotionDeriver()
    /// What the receiver reports for each recorded fix: accuracy in metres, speed, course.
    var receiver = ReceiverReport()
    /// Locations waiting to be handed over together, while `locationsPerDelivery` is above 1.
    var heldLocations: [Fix] = []
    /// The event that raised the deferred upgrade prompt, kept for its answer.
    var heldAlwaysEvent: HeldBackgroundEvent?
    /// Location updates recorded for the suspended app, as it will see them, oldest first
    /// (a4 #2); handed over when it runs again.
    var queuedLocations: [Fix] = []
    /// The suspended app's queued updates paused automatically; it is told when it runs again.
    var pauseNoticePending = false
    /// The newest motion activity the suspended app missed, handed over when it runs again
    /// (`resumedAppGetsCurrentMotion`).
    var motionMissedWhileSuspended: MotionSample?
    var random: SplitMix64
    var switches: DeviceSwitchState

    /// A phone with the app installed and not yet launched.
    public init(configuration: Configuration = Configuration()) {
        authorization = AuthorizationStateMachine(
            state: configuration.authorization, infoPlist: configuration.infoPlist,
            profile: configuration.parameters.osProfile,
            firstAlwaysGrantsProvisional: configuration.parameters.firstAlwaysRequestGrantsProvisional)
        lifecycle = LifecycleStateMachine(
            parameters: configuration.parameters,
            hasLocationBackgroundMode: configuration.infoPlist.hasLocationBackgroundMode)
        parameters = configuration.parameters
        traceHasMotionSamples = configuration.traceHasMotionSamples
        random = SplitMix64(seed: configuration.seed)
        regions = RegionMonitor(seed: configuration.seed)
        switches = DeviceSwitchState(seed: configuration.seed)
        significantChanges = SignificantChangeMonitor(seed: configuration.seed)
        // Reserved once, so holding a location never allocates on the per-fix path.
        if parameters.locationsPerDelivery > 1 { heldLocations.reserveCapacity(parameters.locationsPerDelivery) }
    }

    /// The fields of the locations handed to the app that the device filled in because the
    /// trace lacked them (accuracy in metres, speed, course); empty when the trace had them all.
    public var derivedFields: DerivedLocationFields { receiver.derivedFields }

    /// Locations waiting for the rest of their `didUpdateLocations` call
    /// (`locationsPerDelivery`); those still waiting when a trace ends never reach the app.
    public var heldLocationCount: Int { heldLocations.count }

    /// The identifiers of the regions the OS is monitoring for the app.
    public var monitoredRegionIdentifiers: [String] { regions.identifiers }

    /// Standard location updates were requested by the current process and not stopped
    /// (automatically paused ones count, as in Core Location).
    public var isUpdatingLocation: Bool { lifecycle.isUpdatingLocation }

    /// Whether When-In-Use counts the app as in use now (a4 #3, #4, #8).
    public func isInUse(at now: SimInstant) -> Bool { lifecycle.isInUse(at: now) }

    /// Whether the phone actually runs GPS for the app: updates running (not paused), precise
    /// location, and permission to use them now. A request waiting on notDetermined, a
    /// When-In-Use app past its cutoff, paused updates or an app without a process cost no
    /// battery. A suspended app runs no GPS unless something holds the receiver for it: only
    /// with `suspendedAppQueuesUpdates` does Core Location keep its updates running and enqueue
    /// them (a4 #2; the sources disagree, Device.md "Issue 31: the suspended app's receiver").
    ///
    /// Inlinable, and always inlined, because a replay asks after every event: called out of
    /// line, the whole device (about 1 KB) is copied to pass it.
    @inlinable @inline(__always) public func isReceiverRunning(at now: SimInstant) -> Bool {
        // Reduced accuracy is served from Wi-Fi and cell positions, not the GPS receiver.
        guard lifecycle.hasRunningLocationUpdates, authorization.state.isLocationServicesEnabled,
            authorization.state.accuracy == .fullAccuracy,
            parameters.suspendedAppQueuesUpdates || lifecycle.phase != .suspended
        else { return false }
        switch authorization.state.status {
        // Provisional Always delivers as When-In-Use (a1 #9), so it runs GPS only while in use.
        case .authorizedAlways: return !authorization.state.isProvisionalAlways || lifecycle.isInUse(at: now)
        case .authorizedWhenInUse: return lifecycle.isInUse(at: now)
        case .notDetermined, .restricted, .denied: return false
        }
    }

    /// Applies an event at `now` and returns what the device does, in order.
    public mutating func handle(_ event: DeviceEvent, at now: SimInstant) -> [DeviceAction] {
        var actions: [DeviceAction] = []
        handle(event, at: now, into: &actions)
        return actions
    }

    /// Applies an event at `now` and appends what the device does to `actions`, in order.
    ///
    /// An app request is ignored unless the app's process runs (foreground or background):
    /// a suspended or terminated app runs no code.
    /// - Complexity: a recorded fix allocates nothing when `actions` has capacity, so a replay
    ///   loop passing a reused buffer pays no allocation per fix.
    public mutating func handle(_ event: DeviceEvent, at now: SimInstant, into actions: inout [DeviceAction]) {
        observeSwitches(event, at: now, into: &actions)
        switch event {
        case .app(let request):
            // App code runs only while the process runs.
            guard lifecycle.isRunning else { return }
            handleRequest(request, at: now, into: &actions)
            settleLifecycle(at: now, into: &actions)
        case .user(let action):
            handleUser(action, at: now, into: &actions)
            offerWaitingPrompt(at: now, into: &actions)
            settleLifecycle(at: now, into: &actions)
        case .system(let systemEvent):
            handleSystem(systemEvent, at: now, into: &actions)
            settleLifecycle(at: now, into: &actions)
        case .sensor(.fixRecorded(let fix)):
            handleFix(fix, at: now, into: &actions)
        case .sensor(.motionSampleRecorded(let sample)):
            offerMotion(sample, into: &actions)
        }
    }

    /// Applies a recorded fix at `now`, exactly as `handle(.sensor(.fixRecorded(fix)), at:into:)`
    /// does, without wrapping the fix in an event: a replay's loop calls it once per fix.
    /// - Complexity: allocates nothing when `actions` has capacity.
    public mutating func handleRecordedFix(_ fix: Fix, at now: SimInstant, into actions: inout [DeviceAction]) {
        // A fix is not an unlock, so of the switches only memory pressure can act.
        observeMemoryPressure(at: now, into: &actions)
        handleFix(fix, at: now, into: &actions)
    }

    /// Delivers a motion sample, or drops it with the rule; one a suspended app misses is kept
    /// (the newest only) for when it runs again.
    mutating func offerMotion(_ sample: MotionSample, into actions: inout [DeviceAction]) {
        guard let rule = motionRefusal else {
            actions.append(.deliverMotion(sample))
            return
        }
        if rule == .suspendedAppGetsNoMotionOrTimers { motionMissedWhileSuspended = sample }
        actions.append(.dropMotion(rule))
    }
}
