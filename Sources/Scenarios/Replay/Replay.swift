import Device
import SimulationCore
import Traces

/// Something that happens to the device at a fixed time during a replay (the person, the
/// system), such as a screen lock scripted a minute in.
public struct ScriptedDeviceEvent: Sendable, Equatable {
    /// When it happens.
    public var time: SimInstant
    /// What happens.
    public var event: DeviceEvent

    /// `event` at `time`.
    public init(time: SimInstant, event: DeviceEvent) {
        self.time = time
        self.event = event
    }
}

/// Replays a trace through a simulated device and a `LocationClient`: the device sees every
/// recorded fix and motion sample, the client sees only what the device delivers, and the
/// timers both ask for fire in simulated time. Deterministic: no clocks, no unordered iteration.
///
/// The run loop merges the trace's dense, already sorted streams (fixes, motion samples) by
/// cursor and keeps only the sparse things (scripted events, device and client timers, prompt
/// answers) in an `EventQueue`. At one instant the script goes first, then timers in the order
/// they were scheduled, then motion, then fixes.
public struct Replay<Client: LocationClient> {
    /// The device after the replay.
    public private(set) var device: Device
    /// The client after the replay.
    public private(set) var client: Client
    /// Every device action, with its time, when `keepsDeviceLog` was set.
    public private(set) var deviceLog: [TimedDeviceAction] = []
    /// The app's lifecycle as it changed: phase and screen lock, from the replay's start.
    public private(set) var lifecycleTimeline: [LifecycleChange] = []
    /// When each fix reached the app (standard updates).
    public private(set) var deliveryTimes: [SimInstant] = []
    /// What the app was allowed, and whether it could run, as it changed: status and accuracy,
    /// motion, suspensions, wakes, launches and terminations (prompts are in the device's log).
    public private(set) var authorizationTimeline: [AuthorizationChange] = []
    /// When the phone ran location updates for the app, measured from the device.
    public private(set) var gpsOn = GPSOnTime()
    /// The person answering prompts that appear during the replay (the deferred Always
    /// upgrade, for example); `nil` leaves them on screen.
    public private(set) var user: SimulatedUser?
    private let keepsDeviceLog: Bool
    private var queue = EventQueue<Pending>(reservingCapacity: 16)
    private var requests: [LocationClientRequest<Client.Timer>] = []
    /// The next request to send: `flushRequests` runs re-entrantly (a request's deliveries may
    /// raise more), and every level walks the one buffer in order, so requests reach the device
    /// first in, first out, and none is shifted along the buffer.
    private var nextRequest = 0
    private var hasRun = false
    /// The fixes of the next `didUpdateLocations` call: those the device delivered in one
    /// step, in order. Emptied after each call.
    private var locations: [LocationDelivery] = []
    /// Emptied action buffers kept for the next event. `send` runs re-entrantly (a client
    /// request becomes a device event), so each level takes its own buffer.
    private var spareActionBuffers: [[DeviceAction]] = []
    /// The action buffer of a recorded fix: the loop records fixes one at a time and never
    /// re-entrantly, so they share one buffer without the spare buffers' bookkeeping.
    private var fixActions: [DeviceAction] = []
    private var isReceiverRunning = false
    private var isClientStarted = false
    /// Client timers that came due while the process was suspended, in the order they came
    /// due: they fire when the same process runs again, and are forgotten when it ends.
    private var overdueClientTimers: [Client.Timer] = []

    /// What waits in the queue.
    private enum Pending {
        case scripted(DeviceEvent)
        case deviceTimer(DeviceTimer)
        case clientTimer(Client.Timer)
        case answer(PromptAnswer)
    }

    /// Queue priorities at one instant. Motion samples and fixes come after every queued
    /// item due at the same instant, motion before fixes.
    private enum Priority {
        static var script: Int { 0 }
        static var timer: Int { 1 }
    }

    /// Which source the loop takes the next item from.
    private enum Source {
        case none
        case queue
        case motion
        case fix
    }

    /// Prepares a replay of `device` (fresh, or as a permission flow left it) and `client`.
    public init(device: Device, client: Client, user: SimulatedUser? = nil, keepsDeviceLog: Bool = false) {
        self.device = device
        self.client = client
        self.user = user
        self.keepsDeviceLog = keepsDeviceLog
        requests.reserveCapacity(16)
        locations.reserveCapacity(1)
        fixActions.reserveCapacity(8)
    }

    /// Runs `trace` with `script` (sorted or not; ties keep their order), from `start` on
    /// when given (fixes before it happened before the app tracked). Unless the device already
    /// runs the app or the script launches it, the app is launched at the first instant. The
    /// client starts as soon as the app runs. Nothing is known after the trace's last
    /// instant, so timers and scripted events due later do not happen.
    ///
    /// A replay runs one trace: its queue, timeline and measurements belong to that run, so
    /// make a new `Replay` for the next trace.
    public mutating func run(_ trace: Trace, script: [ScriptedDeviceEvent] = [], from start: SimInstant? = nil) {
        precondition(!hasRun, "a Replay runs one trace; make a new Replay for the next one")
        hasRun = true
        let fixes = trace.fixes
        let samples = trace.motionSamples
        // Cursors, not copies: the fixes before `start` are skipped by index.
        var fixIndex = start.map { start in fixes.firstIndex { !($0.timestamp < start) } ?? fixes.endIndex } ?? 0
        var sampleIndex =
            start.map { start in samples.firstIndex { !($0.timestamp < start) } ?? samples.endIndex } ?? 0
        let firstFix = fixIndex < fixes.endIndex ? fixes[fixIndex].timestamp : nil
        let firstSample = sampleIndex < samples.endIndex ? samples[sampleIndex].timestamp : nil
        guard
            let first = [start, firstFix, firstSample, script.lazy.map(\.time).min()].compactMap({ $0 }).min()
        else { return }
        for scripted in script { queue.push(.scripted(scripted.event), at: scripted.time, priority: Priority.script) }
        deliveryTimes.reserveCapacity(fixes.endIndex - fixIndex)
        lifecycleTimeline.append(
            LifecycleChange(time: first, phase: device.lifecycle.phase, isScreenLocked: device.lifecycle.isScreenLocked)
        )
        isReceiverRunning = device.isReceiverRunning(at: first)
        if isReceiverRunning { gpsOn.started(at: first) }
        if !device.lifecycle.phase.isRunning && !script.contains(where: { $0.event == .user(.launchedApp) }) {
            send(.user(.launchedApp), at: first)
        }
        startClientIfLaunched(at: first)
        var now = first
        let last =
            [firstFix == nil ? nil : fixes.last?.timestamp, firstSample == nil ? nil : samples.last?.timestamp]
            .compactMap { $0 }.max() ?? first
        loop: while true {
            var next = SimInstant(nanosecondsSinceEpoch: .max)
            var source = Source.none
            if let pending = queue.next, pending.time <= last {
                next = pending.time
                source = .queue
            }
            if sampleIndex < samples.endIndex, samples[sampleIndex].timestamp < next {
                next = samples[sampleIndex].timestamp
                source = .motion
            }
            if fixIndex < fixes.endIndex, fixes[fixIndex].timestamp < next {
                next = fixes[fixIndex].timestamp
                source = .fix
            }
            switch source {
            case .none:
                break loop
            case .queue:
                now = next
                guard let pending = queue.popNext() else { preconditionFailure("the queue's next item vanished") }
                handle(pending.payload, at: now)
            case .motion:
                now = next
                send(.sensor(.motionSampleRecorded(samples[sampleIndex])), at: now)
                sampleIndex += 1
            case .fix:
                // A run of fixes: every fix before the next queued item or motion sample (which
                // go first at a shared instant). Nothing between two of them but the fixes can
                // change the phone or the app, so the loop stays here, taking the queue's head
                // again after each fix because a fix may schedule a timer.
                let nextSample =
                    sampleIndex < samples.endIndex
                    ? samples[sampleIndex].timestamp : SimInstant(nanosecondsSinceEpoch: .max)
                repeat {
                    now = fixes[fixIndex].timestamp
                    recordFix(fixes[fixIndex], at: now)
                    fixIndex += 1
                    startClientIfLaunched(at: now)
                } while fixIndex < fixes.endIndex && fixes[fixIndex].timestamp < nextSample
                    && queue.next.map({ fixes[fixIndex].timestamp < $0.time }) ?? true
                continue loop
            }
            startClientIfLaunched(at: now)
        }
        gpsOn.stopped(at: now)
        client.finish(at: now)
    }

    /// The app starts its location code as soon as its process first runs, before anything
    /// else is handled.
    private mutating func startClientIfLaunched(at now: SimInstant) {
        guard !isClientStarted, device.lifecycle.phase.isRunning else { return }
        isClientStarted = true
        client.start(LocationClientLaunch(device.authorization.state), at: now, into: &requests)
        flushRequests(at: now)
    }

    private mutating func handle(_ pending: Pending, at now: SimInstant) {
        switch pending {
        case .scripted(let event): send(event, at: now)
        case .deviceTimer(let timer): send(.system(.timerFired(timer)), at: now)
        case .answer(let answer): send(.user(.answeredPrompt(answer)), at: now)
        case .clientTimer(let timer):
            // Models app timers under suspension (rule suspendedAppGetsNoMotionOrTimers): a
            // suspended process runs no code, so a timer due then fires once it runs again, as an
            // overdue Foundation timer does; a terminated process's timers are gone.
            switch device.lifecycle.phase {
            case .foreground, .background:
                client.timerFired(timer, at: now, into: &requests)
                flushRequests(at: now)
            case .suspended:
                overdueClientTimers.append(timer)
            case .notRunning, .terminatedBySystem, .forceQuit:
                return
            }
        }
    }

    private mutating func send(_ event: DeviceEvent, at now: SimInstant) {
        var actions = spareActionBuffers.popLast() ?? []
        let before = AuthorizationChange.Snapshot(device.lifecycle.phase, device.authorization.state)
        device.handle(event, at: now, into: &actions)
        carryOut(actions, since: before, at: now)
        actions.empty()
        spareActionBuffers.append(actions)
    }

    /// `send` for a recorded fix, the replay's most frequent event, on the fix's own buffer.
    private mutating func recordFix(_ fix: Fix, at now: SimInstant) {
        var actions: [DeviceAction] = []
        swap(&actions, &fixActions)
        let before = AuthorizationChange.Snapshot(device.lifecycle.phase, device.authorization.state)
        device.handleRecordedFix(fix, at: now, into: &actions)
        carryOut(actions, since: before, at: now)
        actions.empty()
        swap(&actions, &fixActions)
    }

    /// What follows one device step: the timelines, the GPS clock, and the actions handed to
    /// the client, the queue and the user, then the client's requests.
    private mutating func carryOut(
        _ actions: [DeviceAction], since before: AuthorizationChange.Snapshot, at now: SimInstant
    ) {
        AuthorizationChange.record(
            actions, since: before, phase: device.lifecycle.phase, state: device.authorization.state, at: now,
            into: &authorizationTimeline)
        let running = device.isReceiverRunning(at: now)
        if running != isReceiverRunning {
            isReceiverRunning = running
            if running { gpsOn.started(at: now) } else { gpsOn.stopped(at: now) }
        }
        let phase = device.lifecycle.phase
        lifecycleTimeline.record(phase, isScreenLocked: device.lifecycle.isScreenLocked, at: now)
        if actions.count == 1, !keepsDeviceLog, case .deliverLocation(let fix) = actions[0] {
            // Nearly every step of a replay: one fix delivered and nothing else. What the loop
            // below does with it, without copying the action through the general switch.
            deliveryTimes.append(now)
            locations.append(LocationDelivery(fix: fix, time: now))
        } else {
            for action in actions {
                if keepsDeviceLog { deviceLog.append(TimedDeviceAction(time: now, action: action)) }
                if case .deliverLocation = action {} else { handOverLocations(at: now) }
                deliver(action, at: now)
            }
        }
        handOverLocations(at: now)
        if !overdueClientTimers.isEmpty { fireOverdueClientTimers(phase: phase, at: now) }
        flushRequests(at: now)
    }

    /// Fires the timers that came due during a suspension once the process runs again, or
    /// forgets them when the process ended.
    private mutating func fireOverdueClientTimers(phase: AppPhase, at now: SimInstant) {
        switch phase {
        case .foreground, .background:
            let due = overdueClientTimers
            overdueClientTimers.removeAll()
            for timer in due { client.timerFired(timer, at: now, into: &requests) }
        case .suspended:
            return
        case .notRunning, .terminatedBySystem, .forceQuit:
            overdueClientTimers.removeAll()
        }
    }

    /// Hands one device action to whoever it is for: the client, the queue, the user.
    private mutating func deliver(_ action: DeviceAction, at now: SimInstant) {
        switch action {
        case .deliverLocation(let fix):
            // Collected until the device's step ends or it does something else: the device
            // decides how many fixes one call carries (today one per step).
            deliveryTimes.append(now)
            locations.append(LocationDelivery(fix: fix, time: now))
        case .significantChange(let fix):
            client.didReceiveSignificantChange(fix, at: now, into: &requests)
        case .deliverMotion(let sample):
            client.didUpdateMotionActivity(sample, at: now, into: &requests)
        case .regionEvent(let identifier, let crossing):
            client.didCrossRegion(identifier, crossing, at: now, into: &requests)
        case .regionMonitoringFailed(let identifier, let rule):
            client.monitoringDidFail(forRegion: identifier, rule, at: now, into: &requests)
        case .visit(let visit):
            client.didVisit(visit, at: now, into: &requests)
        case .authorizationChanged(let status, let accuracy):
            client.didChangeAuthorization(status, accuracy, at: now, into: &requests)
        case .motionAuthorizationChanged(let status):
            client.didChangeMotionAuthorization(status, at: now, into: &requests)
        case .temporaryFullAccuracyCompleted(let granted):
            client.didCompleteTemporaryFullAccuracyRequest(granted: granted, at: now, into: &requests)
        case .locationUpdatesFailed(let rule):
            client.didFailLocationUpdates(rule, at: now, into: &requests)
        case .locationUpdatesPaused:
            client.didPauseLocationUpdates(at: now, into: &requests)
        case .appLaunched(let reason, let inBackground):
            // The first launch is the client's `start`, which follows this event.
            guard isClientStarted else { return }
            client.didLaunch(reason, inBackground: inBackground, at: now, into: &requests)
        case .schedule(let timer, let due):
            queue.push(.deviceTimer(timer), at: due, priority: Priority.timer)
        case .promptShown(let kind):
            if case .answer(let answer, let delay)? = user?.respond(to: kind) {
                queue.push(.answer(answer), at: now.advanced(bySeconds: delay), priority: Priority.timer)
            }
        case .dropLocation, .promptSuppressed, .bluetoothAuthorizationChanged, .regionEventDropped,
            .significantChangeDropped, .visitDropped, .dropMotion, .appTerminated:
            // What the app never sees, or (Bluetooth) not a location callback.
            return
        }
    }

    /// `didUpdateLocations` with the fixes collected so far, if any.
    private mutating func handOverLocations(at now: SimInstant) {
        guard !locations.isEmpty else { return }
        client.didUpdateLocations(locations, at: now, into: &requests)
        locations.empty()
    }

    /// Sends the client's requests to the device; their deliveries may raise more requests.
    private mutating func flushRequests(at now: SimInstant) {
        while nextRequest < requests.count {
            let request = requests[nextRequest]
            nextRequest += 1
            switch request {
            case .device(let request): send(.app(request), at: now)
            case .schedule(let timer, let due): queue.push(.clientTimer(timer), at: due, priority: Priority.timer)
            }
        }
        // Only the outermost level finds requests left to clear; a nested level has already
        // emptied the buffer.
        if nextRequest > 0 {
            requests.removeAll(keepingCapacity: true)
            nextRequest = 0
        }
    }
}

extension Array {
    /// Empties a reused buffer, keeping its storage. The buffers here hold one or two elements;
    /// `removeAll(keepingCapacity:)` goes through the general `replaceSubrange`, several times
    /// the cost of removing them one by one.
    @inline(__always)
    fileprivate mutating func empty() {
        while !isEmpty { removeLast() }
    }
}
