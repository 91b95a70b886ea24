import Device
import SimulationCore

/// A person, a phone and an app, on a virtual clock: what the permission layers run on.
///
/// SDK code that "awaits" an answer calls `wait(atMost:until:)`, which runs the queued
/// events (the user's answers after their delays, scripted lifecycle moves and Settings
/// changes, device timers) in time order until the condition holds or the time runs out.
/// It drives the phone's one run loop (`DeviceRun`); a replay after the flow goes on with the
/// same run (`settle()`, then `phone`). Everything is single-threaded and deterministic.
public struct PermissionSession: Sendable {
    /// A scripted move the person makes at a time, in seconds from the start.
    public typealias ScriptedEvent = ScriptedDeviceEvent.AfterStart

    /// One thing that happened, for transcripts and reports: the device's action, its time,
    /// and the app's phase right after.
    public typealias Entry = TimedDeviceAction

    /// The phone's run: the device, its queue and its timelines.
    public private(set) var phone: DeviceRun
    /// When the session started.
    public let start: SimInstant
    /// What the SDK layers remember between calls, kept in the session so that a call made
    /// while another waits sees it (`LayerMemory`).
    private var memories: [ObjectIdentifier: any LayerMemory] = [:]
    /// App code queued for later, by the token queued for it.
    private var calls: [Int: @Sendable (inout PermissionSession) -> Void] = [:]
    private var nextCall = 0

    /// Creates a session and launches the app in the foreground at `start`: the person's
    /// Settings changes and `script` are queued at their times.
    public init(
        device: Device, user: SimulatedUser, script: [ScriptedEvent] = [],
        start: SimInstant = SimInstant(nanosecondsSinceEpoch: 1_700_000_000_000_000_000)
    ) {
        phone = DeviceRun(device: device, user: user, keepsLog: true)
        self.start = start
        phone.open(at: start)
        phone.scriptSettingsChanges(from: start)
        for scripted in script { phone.script(scripted.event, at: start.advanced(bySeconds: scripted.atSeconds)) }
        perform(.user(.launchedApp))
    }

    /// The phone.
    public var device: Device { phone.device }
    /// The virtual clock.
    public var now: SimInstant { phone.now }
    /// Every device action so far, with its time.
    public var transcript: [Entry] { phone.log }
    /// Every event sent to the device so far, with its time.
    public var events: [ScriptedDeviceEvent] { phone.sentEvents }

    /// Seconds since the start.
    public var elapsedSeconds: Double { now.seconds(since: start) }

    /// The instant `seconds` after the start.
    public func time(afterStart seconds: Double) -> SimInstant {
        start.advanced(bySeconds: seconds)
    }

    /// Sends an event to the device now and handles what follows (answers, timers).
    @discardableResult
    public mutating func perform(_ event: DeviceEvent) -> [DeviceAction] {
        phone.send(event)
    }

    /// Runs queued events until `condition` holds or `seconds` pass.
    /// - Returns: whether the condition held.
    @discardableResult
    public mutating func wait(atMost seconds: Double, until condition: (Device) -> Bool) -> Bool {
        let deadline = now.advanced(bySeconds: seconds)
        while let token = phone.runQueued(until: deadline, stoppingWhen: condition) { runCall(token) }
        return condition(device)
    }

    /// Lets `seconds` pass, running whatever is due.
    public mutating func advance(by seconds: Double) {
        wait(atMost: seconds) { _ in false }
    }

    /// Runs everything still queued (answers, scripted moves), however late.
    public mutating func drain() {
        while !phone.isQueueEmpty {
            if let token = phone.runNext() { runCall(token) }
        }
    }

    /// Runs what the flow still waits for after the layer's call returned, and stops where
    /// tracking can start: every answer to a prompt it raised and all app code it scheduled
    /// have run, or the person is about to change Settings on their own. What is left in the
    /// queue (later Settings changes, lifecycle moves, device timers) belongs to the replay
    /// that goes on with `phone`; the flow's app code does not.
    public mutating func settle() {
        while phone.pendingAnswers > 0 || phone.pendingAppWork > 0, let next = phone.nextQueued {
            if case .scripted(.user(.changedSettings)) = next { break }
            if let token = phone.runNext() { runCall(token) }
        }
        phone.dropAppWork()
    }

    /// Runs app code at a later time (for example a second request while one waits).
    public mutating func schedule(
        afterSeconds seconds: Double, _ call: @escaping @Sendable (inout PermissionSession) -> Void
    ) {
        let token = nextCall
        nextCall += 1
        calls[token] = call
        phone.queueAppWork(token, at: now.advanced(bySeconds: seconds))
    }

    private mutating func runCall(_ token: Int) {
        guard let call = calls.removeValue(forKey: token) else { return }
        call(&self)
    }

    /// The memory a layer keeps in this session, fresh until the layer first changes it.
    public subscript<Memory: LayerMemory>(memory type: Memory.Type) -> Memory {
        get { memories[ObjectIdentifier(type)] as? Memory ?? Memory() }
        set { memories[ObjectIdentifier(type)] = newValue }
    }

    /// Whether a prompt is on screen.
    public var isPromptOnScreen: Bool { device.authorization.state.promptOnScreen != nil }

    /// Whether the app is in the foreground ("active").
    public var isActive: Bool { device.lifecycle.phase == .foreground }

    /// The prompts shown so far, in order.
    public var promptsShown: [PromptKind] {
        device.promptLog.compactMap { $0.outcome == .shown ? $0.kind : nil }
    }
}

/// What one SDK layer remembers between its calls in a session (an in-flight request, a
/// one-shot flag). The layer declares it beside its code; the session only keeps it.
public protocol LayerMemory: Sendable {
    /// Nothing remembered yet.
    init()
}
