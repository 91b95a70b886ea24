import Device
import SimulationCore
import Traces

/// Replays a trace through a simulated device and a `LocationClient`: the device sees every
/// recorded fix and motion sample, the client sees only what the device delivers, and the
/// timers both ask for fire in simulated time. Deterministic: no clocks, no unordered iteration.
///
/// It drives a `DeviceRun`, the phone's one run loop (fresh, or as a permission flow left it):
/// the loop merges the trace's dense, already sorted streams (fixes, motion samples) by the
/// run's cursor with the run's queue of sparse things (scripted events, device and client
/// timers, prompt answers). At one instant the script goes first, then timers in the order they
/// were scheduled, then motion, then fixes. The replay's own job is the client: it hands the
/// client what the device delivers and sends the client's requests back to the device.
public struct Replay<Client: LocationClient> {
    /// The phone's run: the device, its queue and timelines.
    public private(set) var phone: DeviceRun
    /// The client after the replay.
    public private(set) var client: Client
    private var requests: [LocationClientRequest<Client.Timer>] = []
    /// The next request to send: `flushRequests` runs re-entrantly (a request's deliveries may
    /// raise more), and every level walks the one buffer in order, so requests reach the device
    /// first in, first out, and none is shifted along the buffer.
    private var nextRequest = 0
    private var hasRun = false
    /// When each fix reached the app (standard updates).
    public private(set) var deliveryTimes: [SimInstant] = []
    /// Where the phone kept fixes from the app, and by which rule.
    public private(set) var locationDrops = LocationDrops()
    /// How the app was handed its locations: calls, their sizes, what the device filled in.
    public private(set) var deliveryTally = DeliveryTally()
    /// Scripted suspensions the phone did not carry out because the app was kept running.
    public private(set) var refusedSuspensions: [RefusedSuspension] = []
    /// The fixes of the next `didUpdateLocations` call: those the device delivered in one
    /// step, in order. Emptied after each call.
    private var locations: [LocationDelivery] = []
    /// Emptied action buffers kept for the next event. `send` runs re-entrantly (a client
    /// request becomes a device event), so each level takes its own buffer.
    private var spareActionBuffers: [[DeviceAction]] = []
    /// The action buffer of a recorded fix: the loop records fixes one at a time and never
    /// re-entrantly, so they share one buffer without the spare buffers' bookkeeping.
    private var fixActions: [DeviceAction] = []
    private var isClientStarted = false
    /// Whether the client takes runs of locations and the run keeps no device log (a log
    /// would have to be rolled back with the phone).
    private let takesRuns: Bool
    /// The deliveries of the run being handed over, reused.
    private var runDeliveries: [LocationDelivery] = []
    /// How many fixes the next run looks ahead.
    private var runLength = LocationRunLength()
    /// The client's timers waiting in the run's queue, by the token queued for each; a slot is
    /// reused once its timer fired.
    private var clientTimers: [Client.Timer?] = []
    private var freeTimerSlots: [Int] = []
    /// Client timers that came due while the process was suspended, in the order they came
    /// due: they fire when the same process runs again, and are forgotten when it ends.
    private var overdueClientTimers: [Client.Timer] = []

    /// Which source the loop takes the next item from.
    private enum Source {
        case none
        case queue
        case motion
        case fix
    }

    /// The device after the replay.
    public var device: Device { phone.device }
    /// Every device action, with its time, when `keepsDeviceLog` was set.
    public var deviceLog: [TimedDeviceAction] { phone.log }
    /// The app's lifecycle as it changed: phase and screen lock, from the run's start (the
    /// replay's, or its permission flow's).
    public var lifecycleTimeline: [LifecycleChange] { phone.lifecycleTimeline }
    /// What the app was allowed, and whether it could run, as it changed: opening with the
    /// phone's starting state, then status and accuracy, motion, suspensions, wakes, launches
    /// and terminations (prompts are in the device's log).
    public var authorizationTimeline: [AuthorizationChange] { phone.authorizationTimeline }
    /// When the phone ran location updates for the app, measured from the device.
    public var gpsOn: GPSOnTime { phone.gpsOn }
    /// The person answering prompts that appear during the replay (the deferred Always
    /// upgrade, for example); `nil` leaves them on screen.
    public var user: SimulatedUser? { phone.user }

    /// Prepares a replay of a fresh `device` and `client`.
    public init(device: Device, client: Client, user: SimulatedUser? = nil, keepsDeviceLog: Bool = false) {
        self.init(phone: DeviceRun(device: device, user: user, keepsLog: keepsDeviceLog), client: client)
    }

    /// Prepares a replay that goes on with `phone` (as a permission flow left it, with what is
    /// still queued) and `client`.
    public init(phone: DeviceRun, client: Client) {
        self.phone = phone
        self.client = client
        takesRuns = client.takesLocationRuns && !phone.keepsLog
        requests.reserveCapacity(16)
        locations.reserveCapacity(1)
        fixActions.reserveCapacity(8)
    }

    /// Runs `trace` with `script` (sorted or not; ties keep their order) and whatever the phone's
    /// run already has queued, from `start` on when given (fixes before it happened before the
    /// app tracked). Unless the device already runs the app or the script launches it, the app is
    /// launched at the first instant. The client starts as soon as the app runs. Nothing is known
    /// after the trace's last instant, so timers and scripted events due later do not happen.
    ///
    /// A replay runs one trace: its queue, timeline and measurements belong to that run, so
    /// make a new `Replay` for the next trace.
    public mutating func run(_ trace: Trace, script: [ScriptedDeviceEvent] = [], from start: SimInstant? = nil) {
        precondition(!hasRun, "a Replay runs one trace; make a new Replay for the next one")
        hasRun = true
        let fixes = trace.fixes
        let samples = trace.motionSamples
        phone.cursor = TraceCursor(trace, from: start)
        let firstFix = phone.cursor.fixIndex < fixes.endIndex ? fixes[phone.cursor.fixIndex].timestamp : nil
        let firstSample =
            phone.cursor.sampleIndex < samples.endIndex ? samples[phone.cursor.sampleIndex].timestamp : nil
        for scripted in script { phone.script(scripted.event, at: scripted.time) }
        guard let first = [start, firstFix, firstSample, phone.nextDue].compactMap({ $0 }).min() else { return }
        deliveryTimes.reserveCapacity(fixes.endIndex - phone.cursor.fixIndex)
        phone.open(at: first)
        phone.startMeasuringGPS(at: first)
        if !device.lifecycle.phase.isRunning && phone.pendingScriptedLaunches == 0 {
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
            if let due = phone.nextDue, due <= last {
                next = due
                source = .queue
            }
            if phone.cursor.sampleIndex < samples.endIndex, samples[phone.cursor.sampleIndex].timestamp < next {
                next = samples[phone.cursor.sampleIndex].timestamp
                source = .motion
            }
            if phone.cursor.fixIndex < fixes.endIndex, fixes[phone.cursor.fixIndex].timestamp < next {
                next = fixes[phone.cursor.fixIndex].timestamp
                source = .fix
            }
            switch source {
            case .none:
                break loop
            case .queue:
                now = next
                guard let item = phone.popNext() else { preconditionFailure("the queue's next item vanished") }
                handle(item, at: now)
            case .motion:
                now = next
                let sample = samples[phone.cursor.sampleIndex]
                phone.cursor.sampleIndex += 1
                send(.sensor(.motionSampleRecorded(sample)), at: now)
            case .fix:
                if takesRuns && isClientStarted && overdueClientTimers.isEmpty {
                    // The client takes runs: every plain delivery up to the next thing that can
                    // change the phone or the app goes to it in one call (`recordRun`).
                    let nextSample =
                        phone.cursor.sampleIndex < samples.endIndex
                        ? samples[phone.cursor.sampleIndex].timestamp : SimInstant(nanosecondsSinceEpoch: .max)
                    now = recordRun(fixes, before: min(nextSample, phone.nextDue ?? nextSample))
                    continue loop
                }
                // A run of fixes: every fix before the next queued item or motion sample (which
                // go first at a shared instant). Nothing between two of them but the fixes can
                // change the phone or the app, so the loop stays here, taking the queue's head
                // again after each fix because a fix may schedule a timer.
                let nextSample =
                    phone.cursor.sampleIndex < samples.endIndex
                    ? samples[phone.cursor.sampleIndex].timestamp : SimInstant(nanosecondsSinceEpoch: .max)
                var fixIndex = phone.cursor.fixIndex
                repeat {
                    now = fixes[fixIndex].timestamp
                    fixIndex += 1
                    phone.cursor.fixIndex = fixIndex
                    recordFix(fixes[fixIndex - 1], at: now)
                    startClientIfLaunched(at: now)
                } while fixIndex < fixes.endIndex && fixes[fixIndex].timestamp < nextSample
                    && phone.nextDue.map({ fixes[fixIndex].timestamp < $0 }) ?? true
                continue loop
            }
            startClientIfLaunched(at: now)
        }
        phone.stopMeasuringGPS(at: now)
        deliveryTally.heldWhenTraceEnded = device.heldLocationCount
        deliveryTally.derivedByDevice = device.derivedFields
        client.finish(at: now)
    }

    /// Records fixes from the cursor on, all before `limit` (the next queued item or motion
    /// sample), and hands the client the plain deliveries among them as one run: a step that
    /// delivers its one fix and does nothing else. The device steps ahead of the client, so
    /// when the client stops early (it wrote a request) the phone goes back to the state after
    /// the run's first fix and steps again up to the consumed one; the requests then reach it
    /// as they would have after that delivery. The first step that does anything else ends the
    /// run and, once the client took the whole run without a request, is handed over as usual.
    /// Everything the replay keeps per delivery comes out as one call per location would leave
    /// it. Returns the instant of the last step the replay kept.
    private mutating func recordRun(_ fixes: [Fix], before limit: SimInstant) -> SimInstant {
        let start = phone.cursor.fixIndex
        var actions: [DeviceAction] = []
        swap(&actions, &fixActions)
        defer {
            actions.empty()
            swap(&actions, &fixActions)
        }
        var afterFirst: DeviceRun?
        let length = runLength.current
        runDeliveries.removeAll(keepingCapacity: true)
        let endsInOtherStep = phone.recordDeliveries(
            fixes, before: limit, length: length, into: &runDeliveries, afterFirst: &afterFirst, otherStep: &actions)
        let fixIndex = phone.cursor.fixIndex
        let otherStepTime = fixes[fixIndex - 1].timestamp
        guard !runDeliveries.isEmpty else {
            // The first step was not a plain delivery: the usual hand-over.
            handOver(actions, at: otherStepTime)
            startClientIfLaunched(at: otherStepTime)
            return otherStepTime
        }
        let handled = client.didUpdateLocationRun(LocationRun(runDeliveries[...]), into: &requests)
        precondition(
            (1...runDeliveries.count).contains(handled),
            "didUpdateLocationRun returned \(handled) for a run of \(runDeliveries.count)")
        for delivery in runDeliveries[..<handled] { deliveryTimes.append(delivery.time) }
        deliveryTally.countCalls(ofOne: handled)
        let wroteRequests = !requests.isEmpty
        runLength.note(
            handled: handled, of: runDeliveries.count, wroteRequests: wroteRequests,
            endedAtLimit: endsInOtherStep || runDeliveries.count < length)
        let last = runDeliveries[handled - 1].time
        if handled == runDeliveries.count && !(wroteRequests && endsInOtherStep) {
            // The phone stands where the client's view of it does.
            if endsInOtherStep {
                flushRequests(at: last)
                handOver(actions, at: otherStepTime)
                return otherStepTime
            }
            flushRequests(at: last)
            return last
        }
        // The client stopped before the phone did: step again from after the first fix.
        // A run the client stopped short holds at least two deliveries, so the phone was copied
        // before its second step.
        guard let afterFirst else { preconditionFailure("a run stopped short without the phone's copy") }
        phone = afterFirst
        actions.empty()
        phone.cursor.fixIndex = start + 1
        phone.recordDeliveriesAgain(fixes, upTo: start + handled, actions: &actions)
        flushRequests(at: last)
        return last
    }

    /// The app starts its location code as soon as its process first runs, before anything
    /// else is handled.
    private mutating func startClientIfLaunched(at now: SimInstant) {
        guard !isClientStarted, device.lifecycle.phase.isRunning else { return }
        isClientStarted = true
        client.start(LocationClientLaunch(device.authorization.state), at: now, into: &requests)
        flushRequests(at: now)
    }

    private mutating func handle(_ item: DeviceRun.Queued, at now: SimInstant) {
        if let event = item.deviceEvent {
            send(event, at: now)
            return
        }
        guard case .app(let token) = item, let timer = clientTimers[token] else { return }
        clientTimers[token] = nil
        freeTimerSlots.append(token)
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

    /// Queues one of the client's timers in the phone's run.
    private mutating func queue(_ timer: Client.Timer, at due: SimInstant) {
        let token: Int
        if let free = freeTimerSlots.popLast() {
            token = free
            clientTimers[token] = timer
        } else {
            token = clientTimers.count
            clientTimers.append(timer)
        }
        phone.queueAppWork(token, at: due)
    }

    private mutating func send(_ event: DeviceEvent, at now: SimInstant) {
        var actions = spareActionBuffers.popLast() ?? []
        let phaseBefore = device.lifecycle.phase
        phone.send(event, at: now, into: &actions)
        // Only a script sends this event (the phone suspends an app on its own by a timer).
        if event == .system(.suspendedApp), phaseBefore.isRunning, device.lifecycle.phase == phaseBefore {
            refusedSuspensions.append(RefusedSuspension(time: now, phase: phaseBefore))
        }
        handOver(actions, at: now)
        actions.empty()
        spareActionBuffers.append(actions)
    }

    /// `send` for a recorded fix, the replay's most frequent event, on the fix's own buffer.
    private mutating func recordFix(_ fix: Fix, at now: SimInstant) {
        var actions: [DeviceAction] = []
        swap(&actions, &fixActions)
        phone.recordFix(fix, at: now, into: &actions)
        handOver(actions, at: now)
        actions.empty()
        swap(&actions, &fixActions)
    }

    /// The app's share of one device step (the phone's run has done its own): the actions
    /// handed to the client, then the client's requests.
    private mutating func handOver(_ actions: [DeviceAction], at now: SimInstant) {
        if actions.count == 1, case .deliverLocation(let fix) = actions[0] {
            // Nearly every step of a replay: one fix delivered and nothing else. What the loop
            // below does with it, without copying the action through the general switch.
            deliveryTimes.append(now)
            locations.append(LocationDelivery(fix: fix, time: now))
        } else {
            for action in actions {
                if case .deliverLocation = action {} else { handOverLocations(at: now) }
                deliver(action, at: now)
            }
        }
        handOverLocations(at: now)
        if !overdueClientTimers.isEmpty { fireOverdueClientTimers(phase: device.lifecycle.phase, at: now) }
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

    /// Hands one device action to the client, if it is for the client.
    private mutating func deliver(_ action: DeviceAction, at now: SimInstant) {
        switch action {
        case .deliverLocation(let fix):
            // Collected until the device's step ends or it does something else: the device
            // decides how many fixes one call carries (`locationsPerDelivery`).
            deliveryTimes.append(now)
            locations.append(LocationDelivery(fix: fix, time: now))
        case .significantChange(let fix):
            deliveryTally.significantChanges += 1
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
        case .dropLocation(let rule):
            locationDrops.dropped(rule, at: now, deliveries: deliveryTimes.count)
        case .promptShown, .schedule, .promptSuppressed, .bluetoothAuthorizationChanged,
            .regionEventDropped,
            .significantChangeDropped, .visitDropped, .dropMotion, .appTerminated:
            // What the app never sees, what the phone's run took care of (timers, the person's
            // answers), or (Bluetooth) not a location callback.
            return
        }
    }

    /// `didUpdateLocations` with the fixes collected so far, if any.
    private mutating func handOverLocations(at now: SimInstant) {
        guard !locations.isEmpty else { return }
        deliveryTally.countCall(of: locations.count)
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
            case .schedule(let timer, let due): queue(timer, at: due)
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
