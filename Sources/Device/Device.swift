import Geometry
import SimulationCore
import Traces

/// The simulated iPhone: everything iOS decides about location, in one value.
///
/// The engine and the permission layers only send it requests and receive what it delivers;
/// they never see its rules. `handle(_:at:)` is the only way in; time is an argument and
/// randomness comes from the seeded generator, so a replay is deterministic.
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
    public private(set) var authorization: AuthorizationStateMachine
    /// The app's lifecycle.
    public private(set) var lifecycle = AppLifecycle()
    /// The numbers behind the rules.
    public let parameters: DeviceParameters
    /// Every prompt shown, suppressed or answered, in order.
    public private(set) var promptLog: [PromptLogEntry] = []

    /// Standard location updates are running (requested and not stopped or paused).
    public private(set) var isUpdatingLocation = false
    private var updateOptions = LocationUpdateOptions()
    private var updatesStartedInForeground = false
    private var isPaused = false
    private var hasActivitySession = false
    private var isMotionRunning = false
    private let traceHasMotionSamples: Bool

    private var regions = RegionMonitor()
    private var significantChanges = SignificantChangeMonitor()
    private var visits = VisitMonitor()
    private var reducedFilter = ReducedAccuracyFilter()
    private var autoPause = AutoPauseTracker()
    private var motionDeriver = MotionDeriver()
    private var random: SplitMix64
    /// Bumped whenever a scheduled cutoff or wake-window timer stops applying, so a stale one is ignored.
    private var cutoffGeneration = 0
    private var wakeGeneration = 0
    private var wasForegroundBeforeLock = false
    /// The time of the event being handled, for actions raised deep inside it.
    private var lastEventTime = SimInstant(nanosecondsSinceEpoch: 0)

    /// Creates a device.
    public init(configuration: Configuration = Configuration()) {
        authorization = AuthorizationStateMachine(
            state: configuration.authorization, infoPlist: configuration.infoPlist,
            profile: configuration.parameters.osProfile)
        parameters = configuration.parameters
        traceHasMotionSamples = configuration.traceHasMotionSamples
        random = SplitMix64(seed: configuration.seed)
    }

    /// The identifiers of the regions the OS is monitoring for the app.
    public var monitoredRegionIdentifiers: [String] { regions.identifiers }

    /// Whether When-In-Use counts the app as in use now.
    public func isInUse(at now: SimInstant) -> Bool {
        lifecycle.isInUse(
            at: now, cutoffSeconds: parameters.whenInUseLockCutoffSeconds, hasBackgroundSession: hasBackgroundSession)
    }

    /// Whether the phone actually runs GPS for the app: updates requested, precise location,
    /// and permission to use them now. A request waiting on notDetermined, or a When-In-Use app past its cutoff,
    /// costs no battery.
    public func isReceiverRunning(at now: SimInstant) -> Bool {
        // Reduced accuracy is served from Wi-Fi and cell positions, not the GPS receiver.
        guard isUpdatingLocation, authorization.state.isLocationServicesEnabled,
            authorization.state.accuracy == .fullAccuracy
        else { return false }
        switch authorization.state.status {
        case .authorizedAlways: return true
        case .authorizedWhenInUse: return isInUse(at: now)
        case .notDetermined, .restricted, .denied: return false
        }
    }

    /// Models the keep-alive of a When-In-Use app (a4 #4, #8): updates started in the
    /// foreground with the background mode and `allowsBackgroundLocationUpdates`, or an
    /// activity session.
    private var hasBackgroundSession: Bool {
        guard authorization.infoPlist.hasLocationBackgroundMode else { return false }
        let updatesSession =
            isUpdatingLocation && !isPaused && updateOptions.allowsBackgroundLocationUpdates
            && updatesStartedInForeground
        return updatesSession || hasActivitySession
    }

    /// Always that is not provisional: what background delivery and relaunch need.
    private var hasFullAlways: Bool {
        authorization.state.status == .authorizedAlways && !authorization.state.isProvisionalAlways
    }

    /// Applies an event at `now` and returns what the device does, in order.
    public mutating func handle(_ event: DeviceEvent, at now: SimInstant) -> [DeviceAction] {
        var actions: [DeviceAction] = []
        handle(event, at: now, into: &actions)
        return actions
    }

    /// Applies an event at `now` and appends what the device does to `actions`, in order. The
    /// replay loop passes a reused buffer, so a fix costs no allocation.
    public mutating func handle(_ event: DeviceEvent, at now: SimInstant, into actions: inout [DeviceAction]) {
        lastEventTime = now
        switch event {
        case .app(let request):
            // App code runs only while the process runs.
            guard lifecycle.phase.isRunning else { return }
            handleRequest(request, at: now, into: &actions)
        case .user(let action):
            handleUser(action, at: now, into: &actions)
        case .system(let systemEvent):
            handleSystem(systemEvent, at: now, into: &actions)
        case .sensor(.fixRecorded(let fix)):
            handleFix(fix, at: now, into: &actions)
        case .sensor(.motionSampleRecorded(let sample)):
            if let rule = motionRefusal {
                actions.append(.dropMotion(rule))
            } else {
                actions.append(.deliverMotion(sample))
            }
        }
    }

    private var context: AuthorizationStateMachine.Context {
        AuthorizationStateMachine.Context(isInForeground: lifecycle.phase == .foreground)
    }

    // MARK: Requests

    private mutating func handleRequest(_ request: AppRequest, at now: SimInstant, into actions: inout [DeviceAction]) {
        switch request {
        case .requestedWhenInUse:
            apply(authorization.handle(.whenInUseRequested, context: context), at: now, into: &actions)
        case .requestedAlways:
            apply(authorization.handle(.alwaysRequested, context: context), at: now, into: &actions)
        case .requestedTemporaryFullAccuracy(let purpose):
            apply(
                authorization.handle(.temporaryFullAccuracyRequested(purpose: purpose), context: context),
                at: now, into: &actions)
        case .startedMotionUpdates:
            isMotionRunning = true
            apply(authorization.handle(.motionRequested, context: context), at: now, into: &actions)
        case .createdCentralManager:
            apply(authorization.handle(.centralManagerCreated, context: context), at: now, into: &actions)
        case .startedLocationUpdates(let options):
            startUpdates(options, at: now, into: &actions)
        case .stoppedLocationUpdates:
            isUpdatingLocation = false
        case .startedMonitoring(let region):
            if let rule = regionRefusal(at: now) ?? regions.register(region, limit: parameters.maximumMonitoredRegions)
            {
                actions.append(.regionMonitoringFailed(identifier: region.identifier, rule))
            }
        case .stoppedMonitoring(let identifier):
            regions.remove(identifier)
        case .startedSignificantChanges:
            if let rule = serviceRefusal(at: now) {
                actions.append(.significantChangeDropped(rule))
            } else {
                significantChanges.start()
            }
        case .stoppedSignificantChanges:
            significantChanges.stop()
        case .startedVisitMonitoring:
            if let rule = serviceRefusal(at: now) {
                actions.append(.visitDropped(rule))
            } else {
                visits.start()
            }
        case .stoppedVisitMonitoring:
            visits.stop()
        case .startedBackgroundSession:
            // Models CLBackgroundActivitySession: only from the foreground, with the
            // background mode, under an effective authorization (a4 #8).
            if lifecycle.phase == .foreground, authorization.infoPlist.hasLocationBackgroundMode,
                authorization.state.status.isAuthorized
            {
                hasActivitySession = true
            }
        case .endedBackgroundSession:
            hasActivitySession = false
        }
    }

    private mutating func startUpdates(
        _ options: LocationUpdateOptions, at now: SimInstant, into actions: inout [DeviceAction]
    ) {
        if options.allowsBackgroundLocationUpdates && !authorization.infoPlist.hasLocationBackgroundMode {
            terminate(.terminatedBySystem, rule: .backgroundUpdatesWithoutModeCrash, into: &actions)
            return
        }
        let status = authorization.state.status
        if status == .denied || status == .restricted {
            actions.append(
                .locationUpdatesFailed(
                    authorization.state.isLocationServicesEnabled
                        ? .noDeliveryWithoutAuthorization : .servicesOffReportsDenied))
            return
        }
        if status == .authorizedWhenInUse && !isInUse(at: now) {
            actions.append(.locationUpdatesFailed(.startingUpdatesInBackgroundFails))
            return
        }
        isUpdatingLocation = true
        isPaused = false
        updateOptions = options
        updatesStartedInForeground = lifecycle.phase == .foreground
        autoPause.reset()
    }

    /// Why a region cannot be registered now, if it cannot.
    private func regionRefusal(at now: SimInstant) -> DeviceRule? {
        if authorization.state.accuracy == .reducedAccuracy { return .regionUnavailableWithReducedAccuracy }
        return serviceRefusal(at: now)
    }

    /// Models regions and significant change needing Always, or When-In-Use in use (a5 #8).
    private func serviceRefusal(at now: SimInstant) -> DeviceRule? {
        switch authorization.state.status {
        case .authorizedAlways: return nil
        case .authorizedWhenInUse: return isInUse(at: now) ? nil : .regionRequiresAuthorization
        default: return .regionRequiresAuthorization
        }
    }

    // MARK: Lifecycle

    private mutating func handleUser(_ action: UserAction, at now: SimInstant, into actions: inout [DeviceAction]) {
        switch action {
        case .launchedApp:
            if lifecycle.phase.isRunning || lifecycle.phase == .suspended {
                enterForeground(at: now, into: &actions)
            } else {
                launch(.user, inBackground: false, at: now, into: &actions)
            }
        case .movedAppToForeground, .unlockedScreen:
            if action == .unlockedScreen {
                lifecycle.isScreenLocked = false
                guard wasForegroundBeforeLock else { return }
                wasForegroundBeforeLock = false
            }
            if lifecycle.phase == .background || lifecycle.phase == .suspended {
                enterForeground(at: now, into: &actions)
            }
        case .movedAppToBackground, .lockedScreen:
            if action == .lockedScreen {
                lifecycle.isScreenLocked = true
                wasForegroundBeforeLock = lifecycle.phase == .foreground
            }
            if lifecycle.phase == .foreground {
                // Models locking or leaving as the start of the When-In-Use cutoff (a4 #1, #3).
                lifecycle.phase = .background
                lifecycle.leftForegroundAt = now
                cutoffGeneration += 1
                let due = now.advanced(byNanoseconds: Int64(parameters.whenInUseLockCutoffSeconds * 1e9))
                actions.append(.schedule(.inUseCutoff(generation: cutoffGeneration), at: due))
            }
        case .forceQuitApp:
            if lifecycle.phase != .notRunning { terminate(.forceQuit, rule: .forceQuitStopsEverything, into: &actions) }
        case .answeredPrompt(let answer):
            if let kind = authorization.state.promptOnScreen {
                promptLog.append(PromptLogEntry(time: now, kind: kind, outcome: .answered(answer)))
            }
            apply(authorization.handle(.promptAnswered(answer), context: context), at: now, into: &actions)
        case .changedSettings(let change):
            apply(authorization.handle(.settingsChanged(change), context: context), at: now, into: &actions)
        }
    }

    private mutating func handleSystem(_ event: SystemEvent, at now: SimInstant, into actions: inout [DeviceAction]) {
        switch event {
        case .terminatedApp:
            if lifecycle.phase != .notRunning {
                terminate(.terminatedBySystem, rule: .suspendedAppsReceiveNothing, into: &actions)
            }
        case .suspendedApp:
            if lifecycle.phase == .background && !hasKeepAlive { lifecycle.phase = .suspended }
        case .timerFired(.inUseCutoff(let generation)):
            guard generation == cutoffGeneration, !isInUse(at: now) else { return }
            apply(authorization.handle(.appStoppedBeingInUse, context: context), at: now, into: &actions)
        case .timerFired(.wakeWindowEnded(let generation)):
            guard generation == wakeGeneration, lifecycle.phase == .background, lifecycle.leftForegroundAt == nil
            else { return }
            lifecycle.wakeWindowEndsAt = nil
            if !hasKeepAlive { lifecycle.phase = .suspended }
        }
    }

    /// Whether the process keeps running in the background: a When-In-Use session, or Always
    /// with background updates running.
    private var hasKeepAlive: Bool {
        hasBackgroundSession
            || (hasFullAlways && isUpdatingLocation && !isPaused && updateOptions.allowsBackgroundLocationUpdates)
    }

    private mutating func enterForeground(at now: SimInstant, into actions: inout [DeviceAction]) {
        lifecycle.phase = .foreground
        lifecycle.leftForegroundAt = nil
        lifecycle.wakeWindowEndsAt = nil
        lifecycle.isScreenLocked = false
        cutoffGeneration += 1
        wakeGeneration += 1
    }

    private mutating func launch(
        _ reason: LaunchReason, inBackground: Bool, at now: SimInstant, into actions: inout [DeviceAction]
    ) {
        // Models a new process: services the app started are not restarted for it (a4 #11,
        // #12); the OS keeps monitoring regions and significant change.
        isUpdatingLocation = false
        isPaused = false
        hasActivitySession = false
        isMotionRunning = false
        cutoffGeneration += 1
        wakeGeneration += 1
        apply(authorization.handle(.appLaunched, context: context), at: now, into: &actions)
        if inBackground {
            lifecycle.phase = .background
            lifecycle.leftForegroundAt = nil
            let due = now.advanced(byNanoseconds: Int64(parameters.wakeWindowSeconds * 1e9))
            lifecycle.wakeWindowEndsAt = due
            actions.append(.schedule(.wakeWindowEnded(generation: wakeGeneration), at: due))
        } else {
            lifecycle.phase = .foreground
            lifecycle.leftForegroundAt = nil
            lifecycle.isScreenLocked = false
        }
        actions.append(.appLaunched(reason, inBackground: inBackground))
    }

    private mutating func terminate(_ phase: AppPhase, rule: DeviceRule, into actions: inout [DeviceAction]) {
        lifecycle.phase = phase
        lifecycle.leftForegroundAt = nil
        lifecycle.wakeWindowEndsAt = nil
        isUpdatingLocation = false
        hasActivitySession = false
        isMotionRunning = false
        cutoffGeneration += 1
        wakeGeneration += 1
        actions.append(.appTerminated(rule))
        // A terminated app is no longer in use: Allow Once lapses now (a1 #12).
        let now = lastEventTime
        apply(authorization.handle(.appStoppedBeingInUse, context: context), at: now, into: &actions)
    }

    // MARK: Fixes

    private mutating func handleFix(_ fix: Fix, at now: SimInstant, into actions: inout [DeviceAction]) {
        let position = Coordinate(latitude: fix.latitude, longitude: fix.longitude)
        let isLocationOn = authorization.state.isLocationServicesEnabled

        if isLocationOn {
            for (identifier, crossing) in regions.observe(position, at: now, parameters: parameters) {
                deliverBackgroundEvent(.regionEvent, at: now, into: &actions) { rule in
                    if let rule {
                        .regionEventDropped(identifier: identifier, crossing, rule)
                    } else {
                        .regionEvent(identifier: identifier, crossing)
                    }
                }
            }
            if significantChanges.observe(position, at: now, parameters: parameters) {
                deliverBackgroundEvent(.significantChange, at: now, into: &actions) { rule in
                    rule.map { .significantChangeDropped($0) } ?? .significantChange(fix)
                }
            }
            if let visit = visits.observe(position, at: now, parameters: parameters) {
                deliverBackgroundEvent(.visit, at: now, into: &actions) { rule in
                    rule.map { .visitDropped($0) } ?? .visit(visit)
                }
            }
        }

        if isMotionRunning, !traceHasMotionSamples {
            let derived = motionDeriver.observe(fix, parameters: parameters, random: &random)
            for sample in derived {
                actions.append(motionRefusal.map { .dropMotion($0) } ?? .deliverMotion(sample))
            }
        }

        if let rule = locationRefusal(at: now) {
            actions.append(.dropLocation(rule))
            return
        }
        if authorization.state.accuracy == .reducedAccuracy {
            if let reduced = reducedFilter.reduce(fix, parameters: parameters, random: &random) {
                actions.append(.deliverLocation(reduced))
            } else {
                actions.append(.dropLocation(.reducedAccuracyFewFixesPerHour))
            }
        } else {
            actions.append(.deliverLocation(fix))
        }
        if updateOptions.pausesLocationUpdatesAutomatically, autoPause.shouldPause(after: fix, parameters: parameters) {
            isPaused = true
            actions.append(.locationUpdatesPaused)
        }
    }

    /// Why a recorded fix does not reach the app now, or `nil` when it does.
    private func locationRefusal(at now: SimInstant) -> DeviceRule? {
        let state = authorization.state
        if !state.isLocationServicesEnabled && state.storedStatus != .restricted { return .servicesOffReportsDenied }
        guard state.status.isAuthorized else { return .noDeliveryWithoutAuthorization }
        switch lifecycle.phase {
        case .forceQuit: return .forceQuitStopsEverything
        case .suspended, .terminatedBySystem, .notRunning: return .suspendedAppsReceiveNothing
        case .foreground, .background: break
        }
        guard isUpdatingLocation else { return .updatesMustBeRunning }
        if isPaused { return .automaticPause }
        if !hasFullAlways && !isInUse(at: now) { return .whenInUseStopsAfterCutoff }
        return nil
    }

    /// Why motion does not reach the app now, or `nil` when it does.
    private var motionRefusal: DeviceRule? {
        guard isMotionRunning else { return .motionDeliversRecordedActivity }
        guard authorization.state.isMotionAvailable else { return .motionUnavailableWithoutHardware }
        guard authorization.state.motionStatus == .authorized else { return .motionRequestPrompts }
        guard lifecycle.phase.isRunning else { return .suspendedAppsReceiveNothing }
        return nil
    }

    /// Delivers a region, significant-change or visit event: to a running app in use, or under
    /// Always by waking or relaunching it (a6 #7, a5 #5); otherwise the event is an
    /// Always-requiring event that may raise the deferred upgrade prompt (a1 #10) and is dropped.
    private mutating func deliverBackgroundEvent(
        _ reason: LaunchReason, at now: SimInstant, into actions: inout [DeviceAction],
        make: (DeviceRule?) -> DeviceAction
    ) {
        let state = authorization.state
        if reason == .regionEvent && state.accuracy == .reducedAccuracy {
            actions.append(make(.regionUnavailableWithReducedAccuracy))
            return
        }
        guard state.status.isAuthorized else {
            actions.append(make(.noDeliveryWithoutAuthorization))
            return
        }
        if lifecycle.phase.isRunning && isInUse(at: now) {
            actions.append(make(nil))
            return
        }
        guard hasFullAlways else {
            apply(authorization.handle(.alwaysRequiringEventOccurred, context: context), at: now, into: &actions)
            actions.append(make(.regionEventsWhenNotInUseNeedAlways))
            return
        }
        switch lifecycle.phase {
        case .foreground, .background:
            break
        case .suspended:
            // Models the wake into the background for the event (a4 #11).
            lifecycle.phase = .background
            wakeGeneration += 1
            let due = now.advanced(byNanoseconds: Int64(parameters.wakeWindowSeconds * 1e9))
            lifecycle.wakeWindowEndsAt = due
            actions.append(.schedule(.wakeWindowEnded(generation: wakeGeneration), at: due))
        case .forceQuit where !parameters.regionRelaunchAfterForceQuit || reason != .regionEvent:
            actions.append(make(.forceQuitStopsEverything))
            return
        case .forceQuit, .terminatedBySystem, .notRunning:
            launch(reason, inBackground: true, at: now, into: &actions)
        }
        actions.append(make(nil))
    }

    // MARK: Authorization actions

    private mutating func apply(
        _ authorizationActions: [AuthorizationStateMachine.Action], at now: SimInstant,
        into actions: inout [DeviceAction]
    ) {
        for action in authorizationActions {
            switch action {
            case .showPrompt(let kind):
                promptLog.append(PromptLogEntry(time: now, kind: kind, outcome: .shown))
                actions.append(.promptShown(kind))
            case .suppressPrompt(let kind, let rule):
                promptLog.append(PromptLogEntry(time: now, kind: kind, outcome: .suppressed(rule)))
                actions.append(.promptSuppressed(kind, rule))
            case .notifyAuthorizationChanged(let status, let accuracy):
                actions.append(.authorizationChanged(status, accuracy))
            case .completeTemporaryFullAccuracy(let granted):
                actions.append(.temporaryFullAccuracyCompleted(granted: granted))
            case .notifyMotionAuthorizationChanged(let status):
                actions.append(.motionAuthorizationChanged(status))
            case .notifyBluetoothAuthorizationChanged(let status):
                actions.append(.bluetoothAuthorizationChanged(status))
            case .terminateApp(let rule):
                terminate(.terminatedBySystem, rule: rule, into: &actions)
            }
        }
    }
}
