import Device
import SimulationCore

/// A person, a phone and an app, on a virtual clock: what the permission layers run on.
///
/// SDK code that "awaits" an answer calls `wait(atMost:until:)`, which runs the queued
/// events (the user's answers after their delays, scripted lifecycle moves and Settings
/// changes, device timers) in time order until the condition holds or the time runs out.
/// Everything is single-threaded and deterministic.
public struct PermissionSession: Sendable {
    /// A scripted move the person makes at a time, in seconds from the start.
    public struct ScriptedEvent: Sendable, Equatable {
        /// Seconds from the start.
        public var atSeconds: Double
        /// What happens.
        public var event: DeviceEvent

        /// Creates a scripted event.
        public init(atSeconds: Double, event: DeviceEvent) {
            self.atSeconds = atSeconds
            self.event = event
        }
    }

    /// One thing that happened, for transcripts and reports.
    public struct Entry: Sendable, Equatable {
        public var time: SimInstant
        /// What the device did.
        public var action: DeviceAction
        /// The app's phase right after.
        public var appPhase: AppPhase
    }

    /// The phone.
    public private(set) var device: Device
    /// The virtual clock.
    public private(set) var now: SimInstant
    /// When the session started.
    public let start: SimInstant
    /// Every device action so far, with its time.
    public private(set) var transcript: [Entry] = []
    /// Every event sent to the device so far, with its time.
    public private(set) var events: [(time: SimInstant, event: DeviceEvent)] = []
    /// State the SDK layers keep across calls (an in-flight request, a one-shot flag).
    public var layerState = LayerState()

    private var user: SimulatedUser
    /// The run loop's queue; equal times run in the order they were queued.
    private var pending = EventQueue<Item>()

    /// Something queued: an event for the device, or app code to run at that time.
    private enum Item: Sendable {
        case event(DeviceEvent)
        case call(@Sendable (inout PermissionSession) -> Void)
    }

    /// Creates a session and launches the app in the foreground at `start`.
    public init(
        device: Device, user: SimulatedUser, script: [ScriptedEvent] = [],
        start: SimInstant = SimInstant(nanosecondsSinceEpoch: 1_700_000_000_000_000_000)
    ) {
        self.device = device
        self.user = user
        self.start = start
        now = start
        for change in user.settingsChanges {
            enqueue(.user(.changedSettings(change.change)), at: time(afterStart: change.atSeconds))
        }
        for scripted in script { enqueue(scripted.event, at: time(afterStart: scripted.atSeconds)) }
        perform(.user(.launchedApp))
    }

    /// Seconds since the start.
    public var elapsedSeconds: Double { now.seconds(since: start) }

    /// The instant `seconds` after the start.
    public func time(afterStart seconds: Double) -> SimInstant {
        start.advanced(bySeconds: seconds)
    }

    /// Sends an event to the device now and handles what follows (answers, timers).
    @discardableResult
    public mutating func perform(_ event: DeviceEvent) -> [DeviceAction] {
        events.append((now, event))
        let actions = device.handle(event, at: now)
        for action in actions {
            transcript.append(Entry(time: now, action: action, appPhase: device.lifecycle.phase))
            switch action {
            case .schedule(let timer, let due):
                enqueue(.system(.timerFired(timer)), at: due)
            case .promptShown(let kind):
                if case .answer(let answer, let delay) = user.respond(to: kind) {
                    enqueue(
                        .user(.answeredPrompt(answer)), at: now.advanced(bySeconds: delay))
                }
            case .deliverLocation, .dropLocation, .locationUpdatesFailed, .locationUpdatesPaused,
                .promptSuppressed, .authorizationChanged, .temporaryFullAccuracyCompleted,
                .motionAuthorizationChanged, .bluetoothAuthorizationChanged, .regionEvent, .regionEventDropped,
                .regionMonitoringFailed, .significantChange, .significantChangeDropped, .visit, .visitDropped,
                .deliverMotion, .dropMotion, .appLaunched, .appTerminated:
                // Only timers and prompts make the session queue a follow-up event.
                break
            }
        }
        return actions
    }

    /// Runs queued events until `condition` holds or `seconds` pass.
    /// - Returns: whether the condition held.
    @discardableResult
    public mutating func wait(atMost seconds: Double, until condition: (Device) -> Bool) -> Bool {
        let deadline = now.advanced(bySeconds: seconds)
        while !condition(device) {
            guard let next = pending.next, next.time <= deadline else {
                now = max(now, deadline)
                return condition(device)
            }
            runNext()
        }
        return true
    }

    /// Lets `seconds` pass, running whatever is due.
    public mutating func advance(by seconds: Double) {
        wait(atMost: seconds) { _ in false }
    }

    /// Runs everything still queued (answers, scripted moves), however late.
    public mutating func drain() {
        while !pending.isEmpty { runNext() }
    }

    /// Runs app code at a later time (for example a second request while one waits).
    public mutating func schedule(
        afterSeconds seconds: Double, _ call: @escaping @Sendable (inout PermissionSession) -> Void
    ) {
        pending.push(.call(call), at: now.advanced(bySeconds: seconds))
    }

    /// Runs the earliest queued item; one already overdue runs now.
    private mutating func runNext() {
        guard let next = pending.popNext() else { return }
        now = max(now, next.time)
        switch next.payload {
        case .event(let event): perform(event)
        case .call(let call): call(&self)
        }
    }

    /// Whether a prompt is on screen.
    public var isPromptOnScreen: Bool { device.authorization.state.promptOnScreen != nil }

    /// Whether the app is in the foreground ("active").
    public var isActive: Bool { device.lifecycle.phase == .foreground }

    /// The prompts shown so far, in order.
    public var promptsShown: [PromptKind] {
        device.promptLog.compactMap { $0.outcome == .shown ? $0.kind : nil }
    }

    private mutating func enqueue(_ event: DeviceEvent, at time: SimInstant) {
        pending.push(.event(event), at: time)
    }
}

/// What the SDK layers remember between calls, kept in the session so that a call made
/// while another waits sees it.
public struct LayerState: Sendable, Equatable {
    /// The bucket requester's running request: when it started and what it asks for.
    public var doorstepInFlight: (since: SimInstant, whitelist: [DoorstepPermission])?
    /// The collector has asked for Always once.
    public var doorstepCollectorHasAsked = false

    /// Nothing in flight.
    public init() {}

    public static func == (lhs: LayerState, rhs: LayerState) -> Bool {
        lhs.doorstepInFlight?.since == rhs.doorstepInFlight?.since
            && lhs.doorstepInFlight?.whitelist == rhs.doorstepInFlight?.whitelist
            && lhs.doorstepCollectorHasAsked == rhs.doorstepCollectorHasAsked
    }
}
