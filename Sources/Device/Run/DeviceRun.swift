import SimulationCore
import Traces

/// One phone on one virtual clock, from the first thing that happens to it to the last: the
/// run loop that a permission flow, a replay and a rule test all drive.
///
/// It owns the `Device`, the queue of what is due later (the script, the device's timers, the
/// person's answers, the driver's app work), the person answering prompts, the timelines a
/// report draws (authorization, lifecycle), the GPS clock and the cursor into a trace. A
/// device step goes through `send` (or `recordFix`), and `carryOut` is the one place that acts
/// on what the device did: timers and answers go into the queue, the rest is the app's, which
/// the driver hands to its app code. A permission flow and the replay after it are one run:
/// the same phone and queue, so a Settings change scripted an hour in is already queued when
/// tracking starts.
///
/// At one instant, scripted events come first, then timers, answers and app work in the order
/// they were queued; a replay takes motion samples and then fixes after those. Nothing reads
/// the wall clock or an unseeded generator, so a run is deterministic.
public struct DeviceRun: Sendable {
    /// Something waiting in the queue.
    public enum Queued: Sendable, Equatable {
        /// A move of the person or the system, scripted before the run.
        case scripted(DeviceEvent)
        /// A timer the device asked for.
        case timer(DeviceTimer)
        /// The person's answer to a prompt, after their delay.
        case answer(PromptAnswer)
        /// Code the app side queued (a timer of its own), known to the driver by this token.
        case app(Int)

        /// What the device receives for this item; `nil` for the app's own work.
        public var deviceEvent: DeviceEvent? {
            switch self {
            case .scripted(let event): event
            case .timer(let timer): .system(.timerFired(timer))
            case .answer(let answer): .user(.answeredPrompt(answer))
            case .app: nil
            }
        }
    }

    /// Queue priorities at one instant: what was scripted before the run goes first.
    @usableFromInline enum Priority {
        @usableFromInline static var script: Int { 0 }
        @usableFromInline static var followUp: Int { 1 }
    }

    /// The phone.
    public private(set) var device: Device
    /// The virtual clock: the time of the last step (or of the deadline a wait ran to).
    public private(set) var now: SimInstant
    /// The person answering prompts; `nil` leaves them on screen.
    public var user: SimulatedUser?
    /// What the app was allowed, and whether it could run, as it changed, opening with the
    /// state the phone started in (`open(at:)`); prompts are in the device's log.
    public private(set) var authorizationTimeline: [AuthorizationChange] = []
    /// The app's phase and screen lock as they changed, from `open(at:)`.
    public private(set) var lifecycleTimeline: [LifecycleChange] = []
    /// When the phone ran location updates for the app, from `startMeasuringGPS(at:)`.
    public private(set) var gpsOn = GPSOnTime()
    /// Every device action with its time, while `keepsLog` is set.
    public private(set) var log: [TimedDeviceAction] = []
    /// Every event sent to the device with its time, while `keepsLog` is set.
    public private(set) var sentEvents: [ScriptedDeviceEvent] = []
    /// Whether `log` and `sentEvents` are kept (a permission transcript, a rule test); a
    /// replay of hours of fixes leaves it off.
    public var keepsLog: Bool
    /// Where a replay is in its trace.
    public var cursor = TraceCursor()

    @usableFromInline var queue = EventQueue<Queued>(reservingCapacity: 16)
    private var isOpen = false
    private var isMeasuringGPS = false
    private var isReceiverRunning = false
    /// The person's answers still queued: a permission flow waits for them before it settles.
    public private(set) var pendingAnswers = 0
    /// The driver's app work still queued: a permission flow runs it before it settles.
    public private(set) var pendingAppWork = 0
    /// Scripted launches still queued, so a replay does not launch the app a second time.
    public private(set) var pendingScriptedLaunches = 0

    /// A run of `device` with `user` answering its prompts; nothing has happened yet.
    public init(device: Device, user: SimulatedUser? = nil, keepsLog: Bool = false) {
        self.device = device
        self.user = user
        self.keepsLog = keepsLog
        now = SimInstant(nanosecondsSinceEpoch: 0)
    }

    /// Starts the timelines at `time` with the phone as it is: the authorization timeline
    /// opens with what the app was allowed before anything changed it. A run already open
    /// (a replay after its permission flow) only notes the lifecycle if it differs.
    public mutating func open(at time: SimInstant) {
        if !isOpen {
            isOpen = true
            now = time
            let state = device.authorization.state
            authorizationTimeline.append(
                AuthorizationChange(
                    time: time, kind: .location(state.status, state.accuracy, provisional: state.isProvisionalAlways)))
            authorizationTimeline.append(AuthorizationChange(time: time, kind: .motion(state.motionStatus)))
        }
        lifecycleTimeline.record(device.lifecycle.phase, isScreenLocked: device.lifecycle.isScreenLocked, at: time)
    }

    /// Starts the GPS clock at `time` (tracking starts; a permission flow before it costs none).
    public mutating func startMeasuringGPS(at time: SimInstant) {
        isMeasuringGPS = true
        isReceiverRunning = device.isReceiverRunning(at: time)
        if isReceiverRunning { gpsOn.started(at: time) }
    }

    /// Stops the GPS clock at `time`, the run's end.
    public mutating func stopMeasuringGPS(at time: SimInstant) {
        gpsOn.stopped(at: time)
    }

    /// Stops keeping the log, and forgets it.
    public mutating func stopLogging() {
        keepsLog = false
        log = []
        sentEvents = []
    }

    // MARK: The queue

    /// Queues the person's Settings changes at their times after `start`, in their order.
    public mutating func scriptSettingsChanges(from start: SimInstant) {
        for change in user?.settingsChanges ?? [] {
            script(.user(.changedSettings(change.change)), at: start.advanced(bySeconds: change.atSeconds))
        }
    }

    /// Queues a move of the person or the system at `time`; among items due at one instant,
    /// scripted ones come first, in the order they were scripted.
    public mutating func script(_ event: DeviceEvent, at time: SimInstant) {
        if event == .user(.launchedApp) { pendingScriptedLaunches += 1 }
        queue.push(.scripted(event), at: time, priority: Priority.script)
    }

    /// Queues the app's own work at `time`, known to the driver by `token`.
    public mutating func queueAppWork(_ token: Int, at time: SimInstant) {
        pendingAppWork += 1
        queue.push(.app(token), at: time, priority: Priority.followUp)
    }

    /// When the next queued item is due.
    @inlinable public var nextDue: SimInstant? { queue.next?.time }

    /// The next queued item, left in the queue.
    public var nextQueued: Queued? { queue.next?.payload }

    /// Whether nothing is queued.
    public var isQueueEmpty: Bool { queue.isEmpty }

    /// Takes the next queued item out and sets the clock to its time (an overdue one runs
    /// now); the caller sends it (`deviceEvent`) or runs its app work.
    public mutating func popNext() -> Queued? {
        guard let next = queue.popNext() else { return nil }
        now = max(now, next.time)
        switch next.payload {
        case .scripted(let event): if event == .user(.launchedApp) { pendingScriptedLaunches -= 1 }
        case .answer: pendingAnswers -= 1
        case .app: pendingAppWork -= 1
        case .timer: break
        }
        return next.payload
    }

    /// Runs queued items in time order until `condition` holds or nothing more is due by
    /// `deadline` (the clock then stands at the deadline). App work that comes due is
    /// returned, its token, for the driver to run before it waits again.
    public mutating func runQueued(until deadline: SimInstant, stoppingWhen condition: (Device) -> Bool) -> Int? {
        while !condition(device) {
            guard let due = queue.next?.time, due <= deadline else {
                now = max(now, deadline)
                return nil
            }
            if let token = runNext() { return token }
        }
        return nil
    }

    /// Takes the next queued item and sends it to the device; app work is returned, its
    /// token, for the driver to run.
    @discardableResult
    public mutating func runNext() -> Int? {
        guard let item = popNext() else { return nil }
        guard let event = item.deviceEvent else {
            if case .app(let token) = item { return token }
            return nil
        }
        send(event)
        return nil
    }

    /// Leaves the queue without the app work the driver queued: a permission flow's code
    /// does not run in the replay that follows it.
    public mutating func dropAppWork() {
        guard pendingAppWork > 0 else { return }
        var kept: [EventQueue<Queued>.Entry] = []
        while let entry = queue.popNext() {
            if case .app = entry.payload { continue }
            kept.append(entry)
        }
        // Taken out in order, pushed back in order: the same order as before.
        for entry in kept { queue.push(entry.payload, at: entry.time, priority: entry.priority) }
        pendingAppWork = 0
    }

    // MARK: Device steps

    /// Sends `event` to the device now and carries out what it does.
    /// - Returns: the device's actions, in order.
    @discardableResult
    public mutating func send(_ event: DeviceEvent) -> [DeviceAction] {
        var actions: [DeviceAction] = []
        send(event, at: now, into: &actions)
        return actions
    }

    /// Sends `event` to the device at `time`, carries out what it does and appends its
    /// actions to `actions` (which the caller hands to its app code).
    /// - Complexity: allocates nothing when `actions` has capacity and the device schedules nothing.
    public mutating func send(_ event: DeviceEvent, at time: SimInstant, into actions: inout [DeviceAction]) {
        now = time
        if keepsLog { sentEvents.append(ScriptedDeviceEvent(time: time, event: event)) }
        let before = AuthorizationChange.Snapshot(device.lifecycle.phase, device.authorization.state)
        let first = actions.endIndex
        device.handle(event, at: time, into: &actions)
        carryOut(actions, from: first, since: before, at: time)
    }

    /// `send` for a recorded fix, the most frequent step of a replay, without wrapping it in an
    /// event (`Device.handleRecordedFix`).
    /// - Complexity: allocates nothing when `actions` has capacity and the device schedules nothing.
    public mutating func recordFix(_ fix: Fix, at time: SimInstant, into actions: inout [DeviceAction]) {
        now = time
        let before = AuthorizationChange.Snapshot(device.lifecycle.phase, device.authorization.state)
        let first = actions.endIndex
        device.handleRecordedFix(fix, at: time, into: &actions)
        carryOut(actions, from: first, since: before, at: time)
    }

    /// What follows one device step on the run's side: the timelines, the GPS clock, the log,
    /// and the timers and answers it queues. The one place a `DeviceAction` is acted on for the
    /// phone; the app's share is the driver's.
    @inline(__always)
    private mutating func carryOut(
        _ actions: [DeviceAction], from first: Int, since before: AuthorizationChange.Snapshot, at time: SimInstant
    ) {
        AuthorizationChange.record(
            actions, from: first, since: before, phase: device.lifecycle.phase, state: device.authorization.state,
            at: time,
            into: &authorizationTimeline)
        if isMeasuringGPS {
            let running = device.isReceiverRunning(at: time)
            if running != isReceiverRunning {
                isReceiverRunning = running
                if running { gpsOn.started(at: time) } else { gpsOn.stopped(at: time) }
            }
        }
        lifecycleTimeline.record(device.lifecycle.phase, isScreenLocked: device.lifecycle.isScreenLocked, at: time)
        if keepsLog {
            for action in actions[first...] {
                log.append(TimedDeviceAction(time: time, action: action, appPhase: device.lifecycle.phase))
            }
        }
        // Nearly every step of a replay: one fix delivered, nothing for the run to do.
        if actions.count == first + 1, case .deliverLocation = actions[first] { return }
        for action in actions[first...] {
            switch action {
            case .schedule(let timer, let due):
                queue.push(.timer(timer), at: due, priority: Priority.followUp)
            case .promptShown(let kind):
                if case .answer(let answer, let delay)? = user?.respond(to: kind) {
                    pendingAnswers += 1
                    queue.push(.answer(answer), at: time.advanced(bySeconds: delay), priority: Priority.followUp)
                }
            case .deliverLocation, .dropLocation, .locationUpdatesFailed, .locationUpdatesPaused,
                .promptSuppressed, .authorizationChanged, .temporaryFullAccuracyCompleted,
                .motionAuthorizationChanged, .bluetoothAuthorizationChanged, .regionEvent, .regionEventDropped,
                .regionMonitoringFailed, .significantChange, .significantChangeDropped, .visit, .visitDropped,
                .deliverMotion, .dropMotion, .appLaunched, .appTerminated:
                // The app's: the driver hands it to the app code.
                continue
            }
        }
    }
}
