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
    @inlinable public var phone: DeviceRun { storedPhone }
    /// The client after the replay.
    @inlinable public var client: Client { storedClient }
    /// When each fix reached the app (standard updates).
    @inlinable public var deliveryTimes: [SimInstant] { storedDeliveryTimes }
    /// Where the phone kept fixes from the app, and by which rule.
    @inlinable public var locationDrops: LocationDrops { storedLocationDrops }
    /// How the app was handed its locations: calls, their sizes, what the device filled in.
    @inlinable public var deliveryTally: DeliveryTally { storedDeliveryTally }
    /// Scripted suspensions the phone did not carry out because the app was kept running.
    @inlinable public var refusedSuspensions: [RefusedSuspension] { storedRefusedSuspensions }

    // The replay's state and steps are `@usableFromInline` and `@inlinable` (issue 32): a module
    // that replays its own client (an embedder, `track`, the benchmarks) then compiles the
    // replay for that client. Called generically across modules, every step asked the runtime
    // for the metadata of `Replay<Client>` and of its request buffer (about 540 instructions
    // per fix of a run-taking client) and went through unspecialised array code.
    @usableFromInline var storedPhone: DeviceRun
    @usableFromInline var storedClient: Client
    @usableFromInline var requests: [LocationClientRequest<Client.Timer>] = []
    /// The next request to send: `flushRequests` runs re-entrantly (a request's deliveries may
    /// raise more), and every level walks the one buffer in order, so requests reach the device
    /// first in, first out, and none is shifted along the buffer.
    @usableFromInline var nextRequest = 0
    @usableFromInline var hasRun = false
    @usableFromInline var storedDeliveryTimes: [SimInstant] = []
    @usableFromInline var storedLocationDrops = LocationDrops()
    @usableFromInline var storedDeliveryTally = DeliveryTally()
    @usableFromInline var storedRefusedSuspensions: [RefusedSuspension] = []
    /// The fixes of the next `didUpdateLocations` call: those the device delivered in one
    /// step, in order. Emptied after each call.
    @usableFromInline var locations: [LocationDelivery] = []
    /// Emptied action buffers kept for the next event. `send` runs re-entrantly (a client
    /// request becomes a device event), so each level takes its own buffer.
    @usableFromInline var spareActionBuffers: [[DeviceAction]] = []
    /// The action buffer of a recorded fix: the loop records fixes one at a time and never
    /// re-entrantly, so they share one buffer without the spare buffers' bookkeeping.
    @usableFromInline var fixActions: [DeviceAction] = []
    @usableFromInline var isClientStarted = false
    /// Whether the client takes runs of locations and the run keeps no device log (a log
    /// would have to be rolled back with the phone).
    @usableFromInline let takesRuns: Bool
    /// The deliveries of the run being handed over, reused.
    @usableFromInline var runDeliveries: [LocationDelivery] = []
    /// How many fixes the next run looks ahead.
    @usableFromInline var runLength = LocationRunLength()
    /// The client's timers waiting in the run's queue, by the token queued for each; a slot is
    /// reused once its timer fired.
    @usableFromInline var clientTimers: [Client.Timer?] = []
    @usableFromInline var freeTimerSlots: [Int] = []
    /// Client timers that came due while the process was suspended, in the order they came
    /// due: they fire when the same process runs again, and are forgotten when it ends.
    @usableFromInline var overdueClientTimers: [Client.Timer] = []

    /// Which source the loop takes the next item from.
    @usableFromInline enum Source {
        case none
        case queue
        case motion
        case fix
    }

    /// The device after the replay.
    @inlinable public var device: Device { storedPhone.device }
    /// Every device action, with its time, when `keepsDeviceLog` was set.
    public var deviceLog: [TimedDeviceAction] { storedPhone.log }
    /// The app's lifecycle as it changed: phase and screen lock, from the run's start (the
    /// replay's, or its permission flow's).
    public var lifecycleTimeline: [LifecycleChange] { storedPhone.lifecycleTimeline }
    /// What the app was allowed, and whether it could run, as it changed: opening with the
    /// phone's starting state, then status and accuracy, motion, suspensions, wakes, launches
    /// and terminations (prompts are in the device's log).
    public var authorizationTimeline: [AuthorizationChange] { storedPhone.authorizationTimeline }
    /// When the phone ran location updates for the app, measured from the device.
    public var gpsOn: GPSOnTime { storedPhone.gpsOn }
    /// The person answering prompts that appear during the replay (the deferred Always
    /// upgrade, for example); `nil` leaves them on screen.
    public var user: SimulatedUser? { storedPhone.user }

    /// Prepares a replay of a fresh `device` and `client`.
    public init(device: Device, client: Client, user: SimulatedUser? = nil, keepsDeviceLog: Bool = false) {
        self.init(phone: DeviceRun(device: device, user: user, keepsLog: keepsDeviceLog), client: client)
    }

    /// Prepares a replay that goes on with `phone` (as a permission flow left it, with what is
    /// still queued) and `client`.
    public init(phone: DeviceRun, client: Client) {
        storedPhone = phone
        storedClient = client
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
    @inlinable public mutating func run(
        _ trace: Trace, script: [ScriptedDeviceEvent] = [], from start: SimInstant? = nil
    ) {
        precondition(!hasRun, "a Replay runs one trace; make a new Replay for the next one")
        hasRun = true
        let fixes = trace.fixes
        let samples = trace.motionSamples
        storedPhone.cursor = TraceCursor(trace, from: start)
        let firstFix = storedPhone.cursor.fixIndex < fixes.endIndex ? fixes[storedPhone.cursor.fixIndex].timestamp : nil
        let firstSample =
            storedPhone.cursor.sampleIndex < samples.endIndex ? samples[storedPhone.cursor.sampleIndex].timestamp : nil
        for scripted in script { storedPhone.script(scripted.event, at: scripted.time) }
        guard let first = [start, firstFix, firstSample, storedPhone.nextDue].compactMap({ $0 }).min() else { return }
        storedDeliveryTimes.reserveCapacity(fixes.endIndex - storedPhone.cursor.fixIndex)
        storedPhone.open(at: first)
        storedPhone.startMeasuringGPS(at: first)
        if !storedPhone.device.lifecycle.phase.isRunning && storedPhone.pendingScriptedLaunches == 0 {
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
            if let due = storedPhone.nextDue, due <= last {
                next = due
                source = .queue
            }
            if storedPhone.cursor.sampleIndex < samples.endIndex,
                samples[storedPhone.cursor.sampleIndex].timestamp < next
            {
                next = samples[storedPhone.cursor.sampleIndex].timestamp
                source = .motion
            }
            if storedPhone.cursor.fixIndex < fixes.endIndex, fixes[storedPhone.cursor.fixIndex].timestamp < next {
                next = fixes[storedPhone.cursor.fixIndex].timestamp
                source = .fix
            }
            switch source {
            case .none:
                break loop
            case .queue:
                now = next
                guard let item = storedPhone.popNext() else { preconditionFailure("the queue's next item vanished") }
                handle(item, at: now)
            case .motion:
                now = next
                let sample = samples[storedPhone.cursor.sampleIndex]
                storedPhone.cursor.sampleIndex += 1
                send(.sensor(.motionSampleRecorded(sample)), at: now)
            case .fix:
                if takesRuns && isClientStarted && overdueClientTimers.isEmpty {
                    // The client takes runs: every plain delivery up to the next thing that can
                    // change the phone or the app goes to it in one call (`recordRun`).
                    let nextSample =
                        storedPhone.cursor.sampleIndex < samples.endIndex
                        ? samples[storedPhone.cursor.sampleIndex].timestamp : SimInstant(nanosecondsSinceEpoch: .max)
                    now = recordRun(fixes, before: min(nextSample, storedPhone.nextDue ?? nextSample))
                    continue loop
                }
                // A run of fixes: every fix before the next queued item or motion sample (which
                // go first at a shared instant). Nothing between two of them but the fixes can
                // change the phone or the app, so the loop stays here, taking the queue's head
                // again after each fix because a fix may schedule a timer.
                let nextSample =
                    storedPhone.cursor.sampleIndex < samples.endIndex
                    ? samples[storedPhone.cursor.sampleIndex].timestamp : SimInstant(nanosecondsSinceEpoch: .max)
                var fixIndex = storedPhone.cursor.fixIndex
                repeat {
                    now = fixes[fixIndex].timestamp
                    fixIndex += 1
                    storedPhone.cursor.fixIndex = fixIndex
                    recordFix(fixes[fixIndex - 1], at: now)
                    startClientIfLaunched(at: now)
                } while fixIndex < fixes.endIndex && fixes[fixIndex].timestamp < nextSample
                    && storedPhone.nextDue.map({ fixes[fixIndex].timestamp < $0 }) ?? true
                continue loop
            }
            startClientIfLaunched(at: now)
        }
        storedPhone.stopMeasuringGPS(at: now)
        storedDeliveryTally.heldWhenTraceEnded = storedPhone.device.heldLocationCount
        storedDeliveryTally.derivedByDevice = storedPhone.device.derivedFields
        storedClient.finish(at: now)
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
    @inlinable mutating func recordRun(_ fixes: [Fix], before limit: SimInstant) -> SimInstant {
        let start = storedPhone.cursor.fixIndex
        var actions: [DeviceAction] = []
        swap(&actions, &fixActions)
        defer {
            actions.empty()
            swap(&actions, &fixActions)
        }
        let length = runLength.current
        runDeliveries.removeAll(keepingCapacity: true)
        let endsAtFirst = storedPhone.recordDeliveries(
            fixes, before: limit, length: 1, into: &runDeliveries, otherStep: &actions)
        let next = storedPhone.cursor.fixIndex
        guard !endsAtFirst, length > 1, next < fixes.endIndex, fixes[next].timestamp < limit else {
            // One step: the client handles at least one delivery, so there is nothing to go back to.
            let handed = handRun(fixes, length: length, endsInOtherStep: endsAtFirst, actions: &actions)
            precondition(handed.stoppedShortAfter == nil, "a run of one delivery stopped short")
            return handed.time
        }
        // The phone after the first delivery: the point to go back to if the client stops
        // early. A plain local is copied once; an optional took three copies of the whole run.
        let afterFirst = storedPhone
        let endsInOtherStep = storedPhone.recordDeliveries(
            fixes, before: limit, length: length, into: &runDeliveries, otherStep: &actions)
        let handed = handRun(fixes, length: length, endsInOtherStep: endsInOtherStep, actions: &actions)
        guard let handled = handed.stoppedShortAfter else { return handed.time }
        // The client stopped before the phone did: step again from after the first fix.
        storedPhone = afterFirst
        actions.empty()
        storedPhone.cursor.fixIndex = start + 1
        storedPhone.recordDeliveriesAgain(fixes, upTo: start + handled, actions: &actions)
        flushRequests(at: handed.time)
        return handed.time
    }

    /// Hands the client the run in `runDeliveries` (`recordRun`), or, when the first step was
    /// not a plain delivery, that step as usual; then the requests, and the step that ended the
    /// run. Returns the instant of the last step the replay kept and, when the client stopped
    /// before the phone did, how many deliveries it handled: the phone has to go back, and the
    /// requests wait for it.
    @inlinable mutating func handRun(
        _ fixes: [Fix], length: Int, endsInOtherStep: Bool, actions: inout [DeviceAction]
    ) -> (time: SimInstant, stoppedShortAfter: Int?) {
        let fixIndex = storedPhone.cursor.fixIndex
        let otherStepTime = fixes[fixIndex - 1].timestamp
        guard !runDeliveries.isEmpty else {
            // The first step was not a plain delivery: the usual hand-over.
            handOver(actions, at: otherStepTime)
            startClientIfLaunched(at: otherStepTime)
            return (otherStepTime, nil)
        }
        let handled = storedClient.didUpdateLocationRun(LocationRun(runDeliveries[...]), into: &requests)
        precondition(
            (1...runDeliveries.count).contains(handled),
            "didUpdateLocationRun returned \(handled) for a run of \(runDeliveries.count)")
        for delivery in runDeliveries[..<handled] { storedDeliveryTimes.append(delivery.time) }
        storedDeliveryTally.countCalls(ofOne: handled)
        let wroteRequests = !requests.isEmpty
        runLength.note(
            handled: handled, of: runDeliveries.count, wroteRequests: wroteRequests,
            endedAtLimit: endsInOtherStep || runDeliveries.count < length)
        let last = runDeliveries[handled - 1].time
        guard handled == runDeliveries.count && !(wroteRequests && endsInOtherStep) else {
            return (last, handled)
        }
        // The phone stands where the client's view of it does.
        flushRequests(at: last)
        guard endsInOtherStep else { return (last, nil) }
        handOver(actions, at: otherStepTime)
        return (otherStepTime, nil)
    }

    /// The app starts its location code as soon as its process first runs, before anything
    /// else is handled.
    @inlinable mutating func startClientIfLaunched(at now: SimInstant) {
        guard !isClientStarted, storedPhone.device.lifecycle.phase.isRunning else { return }
        isClientStarted = true
        storedClient.start(LocationClientLaunch(storedPhone.device.authorization.state), at: now, into: &requests)
        flushRequests(at: now)
    }

    @inlinable mutating func handle(_ item: DeviceRun.Queued, at now: SimInstant) {
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
        switch storedPhone.device.lifecycle.phase {
        case .foreground, .background:
            storedClient.timerFired(timer, at: now, into: &requests)
            flushRequests(at: now)
        case .suspended:
            overdueClientTimers.append(timer)
        case .notRunning, .terminatedBySystem, .forceQuit:
            return
        }
    }

    /// Queues one of the client's timers in the phone's run.
    @inlinable mutating func queue(_ timer: Client.Timer, at due: SimInstant) {
        let token: Int
        if let free = freeTimerSlots.popLast() {
            token = free
            clientTimers[token] = timer
        } else {
            token = clientTimers.count
            clientTimers.append(timer)
        }
        storedPhone.queueAppWork(token, at: due)
    }

    @inlinable mutating func send(_ event: DeviceEvent, at now: SimInstant) {
        var actions = spareActionBuffers.popLast() ?? []
        let phaseBefore = storedPhone.device.lifecycle.phase
        storedPhone.send(event, at: now, into: &actions)
        // Only a script sends this event (the phone suspends an app on its own by a timer).
        if event == .system(.suspendedApp), phaseBefore.isRunning, storedPhone.device.lifecycle.phase == phaseBefore {
            storedRefusedSuspensions.append(RefusedSuspension(time: now, phase: phaseBefore))
        }
        handOver(actions, at: now)
        actions.empty()
        spareActionBuffers.append(actions)
    }

    /// `send` for a recorded fix, the replay's most frequent event, on the fix's own buffer.
    @inlinable mutating func recordFix(_ fix: Fix, at now: SimInstant) {
        var actions: [DeviceAction] = []
        swap(&actions, &fixActions)
        storedPhone.recordFix(fix, at: now, into: &actions)
        handOver(actions, at: now)
        actions.empty()
        swap(&actions, &fixActions)
    }

    /// The app's share of one device step (the phone's run has done its own): the actions
    /// handed to the client, then the client's requests.
    @inlinable mutating func handOver(_ actions: [DeviceAction], at now: SimInstant) {
        if actions.count == 1, case .deliverLocation(let fix) = actions[0] {
            // Nearly every step of a replay: one fix delivered and nothing else. What the loop
            // below does with it, without copying the action through the general switch.
            storedDeliveryTimes.append(now)
            locations.append(LocationDelivery(fix: fix, time: now))
        } else {
            for action in actions {
                if case .deliverLocation = action {} else { handOverLocations(at: now) }
                deliver(action, at: now)
            }
        }
        handOverLocations(at: now)
        if !overdueClientTimers.isEmpty { fireOverdueClientTimers(phase: storedPhone.device.lifecycle.phase, at: now) }
        flushRequests(at: now)
    }

    /// Fires the timers that came due during a suspension once the process runs again, or
    /// forgets them when the process ended.
    @inlinable mutating func fireOverdueClientTimers(phase: AppPhase, at now: SimInstant) {
        switch phase {
        case .foreground, .background:
            let due = overdueClientTimers
            overdueClientTimers.removeAll()
            for timer in due { storedClient.timerFired(timer, at: now, into: &requests) }
        case .suspended:
            return
        case .notRunning, .terminatedBySystem, .forceQuit:
            overdueClientTimers.removeAll()
        }
    }

    /// Hands one device action to the client, if it is for the client.
    @inlinable mutating func deliver(_ action: DeviceAction, at now: SimInstant) {
        switch action {
        case .deliverLocation(let fix):
            // Collected until the device's step ends or it does something else: the device
            // decides how many fixes one call carries (`locationsPerDelivery`).
            storedDeliveryTimes.append(now)
            locations.append(LocationDelivery(fix: fix, time: now))
        case .significantChange(let fix):
            storedDeliveryTally.significantChanges += 1
            storedClient.didReceiveSignificantChange(fix, at: now, into: &requests)
        case .deliverMotion(let sample):
            storedClient.didUpdateMotionActivity(sample, at: now, into: &requests)
        case .regionEvent(let identifier, let crossing):
            storedClient.didCrossRegion(identifier, crossing, at: now, into: &requests)
        case .regionMonitoringFailed(let identifier, let rule):
            storedClient.monitoringDidFail(forRegion: identifier, rule, at: now, into: &requests)
        case .visit(let visit):
            storedClient.didVisit(visit, at: now, into: &requests)
        case .authorizationChanged(let status, let accuracy):
            storedClient.didChangeAuthorization(status, accuracy, at: now, into: &requests)
        case .motionAuthorizationChanged(let status):
            storedClient.didChangeMotionAuthorization(status, at: now, into: &requests)
        case .temporaryFullAccuracyCompleted(let granted):
            storedClient.didCompleteTemporaryFullAccuracyRequest(granted: granted, at: now, into: &requests)
        case .locationUpdatesFailed(let rule):
            storedClient.didFailLocationUpdates(rule, at: now, into: &requests)
        case .locationUpdatesPaused:
            storedClient.didPauseLocationUpdates(at: now, into: &requests)
        case .appLaunched(let reason, let inBackground):
            // The first launch is the client's `start`, which follows this event.
            guard isClientStarted else { return }
            storedClient.didLaunch(reason, inBackground: inBackground, at: now, into: &requests)
        case .dropLocation(let rule):
            storedLocationDrops.dropped(rule, at: now, deliveries: storedDeliveryTimes.count)
        case .promptShown, .schedule, .promptSuppressed, .bluetoothAuthorizationChanged,
            .regionEventDropped,
            .significantChangeDropped, .visitDropped, .dropMotion, .appTerminated:
            // What the app never sees, what the phone's run took care of (timers, the person's
            // answers), or (Bluetooth) not a location callback.
            return
        }
    }

    /// `didUpdateLocations` with the fixes collected so far, if any.
    @inlinable mutating func handOverLocations(at now: SimInstant) {
        guard !locations.isEmpty else { return }
        storedDeliveryTally.countCall(of: locations.count)
        storedClient.didUpdateLocations(locations, at: now, into: &requests)
        locations.empty()
    }

    /// Sends the client's requests to the device; their deliveries may raise more requests.
    @inlinable mutating func flushRequests(at now: SimInstant) {
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
    @inlinable @inline(__always)
    mutating func empty() {
        while !isEmpty { removeLast() }
    }
}
