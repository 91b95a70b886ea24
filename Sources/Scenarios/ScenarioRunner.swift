import Device
import Engine
import Geometry
import Permissions
import SimulationCore
import Traces

/// What one replay of one trace through one scenario produced.
public struct ScenarioRun: Sendable {
    /// The scenario's name.
    public var scenario: String
    /// The seed used.
    public var seed: UInt64
    /// The trace's first fix.
    public var traceStart: SimInstant
    /// The trace's last fix.
    public var traceEnd: SimInstant
    /// Seconds the permission flow took before tracking began (0 without a flow).
    public var flowSeconds: Double
    /// The engine's record.
    public var recorder: Recorder
    /// When the phone ran location updates for the app (the battery proxy).
    public var gpsOn: GPSOnTime
    /// Distance over accepted fixes, metres.
    public var odometerMeters: Double
    /// When each fix reached the app.
    public var deliveryTimes: [SimInstant]
    /// The app's phase and screen lock as they changed.
    public var lifecycle: [LifecycleChange]
    /// Every prompt shown, suppressed or answered, flow and replay together.
    public var promptLog: [PromptLogEntry]
    /// Status and accuracy changes, suspensions, wakes, launches and terminations, flow and
    /// replay together; with `promptLog`, the run's authorization timeline.
    public var authorization: [AuthorizationChange] = []
    /// The wizard's steps, when the permission flow was the wizard.
    public var wizardSteps: [PermissionsWizard.Step]?
    /// The device's When-In-Use cutoff after a lock (`DeviceParameters`), so a report draws the
    /// cutoff this run had.
    public var whenInUseLockCutoffSeconds = DeviceParameters().whenInUseLockCutoffSeconds
    /// What the engine under test reported beside its record (callbacks without a handler,
    /// protocol warnings); the built-in engine reports none. TraceSim's own word on the run is
    /// in `notes`.
    public var diagnostics: [ClientDiagnostic] = []
    /// What the engine under test reported beyond the diagnostics a run keeps.
    public var droppedDiagnostics = DroppedDiagnostics()
    /// What TraceSim noticed about the run that its figures do not say (authorization that
    /// never settled), in the order noticed; never the engine's words, which are `diagnostics`.
    public var notes: [RunNote] = []
    /// Why the engine under test could not go on; `ScenarioRunner.run` throws it.
    var failure: EngineFailure?

    /// Seconds spent in each app phase between the first and last fix, phases in first-seen order.
    public var secondsByPhase: [PhaseDuration] {
        var result: [PhaseDuration] = []
        let ends = lifecycle.dropFirst().map(\.time) + [traceEnd]
        for (entry, end) in zip(lifecycle, ends) {
            let seconds = max(0, min(end, traceEnd).seconds(since: max(entry.time, traceStart)))
            if let index = result.firstIndex(where: { $0.phase == entry.phase }) {
                result[index].seconds += seconds
            } else {
                result.append(PhaseDuration(phase: entry.phase, seconds: seconds))
            }
        }
        return result
    }
}

/// Runs scenarios. One GEOS context per run, so runs can go to different threads.
public enum ScenarioRunner {
    /// Replays `trace` through `scenario` with the built-in engine over `fences`.
    /// - Throws: `GeometryError` when a fence is invalid.
    public static func run(_ trace: Trace, _ scenario: Scenario, fences: [Geofence] = []) throws(GeometryError)
        -> ScenarioRun
    {
        let engine = try TrackingEngine(
            configuration: scenario.engine, fences: fences, context: GEOSContext(), expectedFixCount: trace.fixes.count)
        return measure(trace, scenario, client: engine)
    }

    /// Replays `trace` through `scenario` with `engine` over `fences`; `traceName` is what a
    /// custom engine is told the trace is called.
    /// - Throws: `RunFailure.geometry` when a fence is invalid, `.engine` when the engine
    ///   could not be made or could not go on.
    public static func run(
        _ trace: Trace, _ scenario: Scenario, fences: [Geofence] = [], engine: EngineUnderTest, traceName: String = ""
    ) throws(RunFailure) -> ScenarioRun {
        switch engine.kind {
        case .builtIn:
            do {
                return try run(trace, scenario, fences: fences)
            } catch {
                throw .geometry(error)
            }
        case .custom(let make):
            let context = EngineContext(
                scenario: scenario, fences: fences, traceName: traceName, expectedFixCount: trace.fixes.count)
            let client: any RecordingClient
            do {
                client = try make(context)
            } catch {
                throw .engine(error)
            }
            let run = measure(trace, scenario, client: client)
            if let failure = run.failure { throw .engine(failure) }
            return run
        }
    }

    /// Replays with `client` and reads what it recorded.
    private static func measure<Client: RecordingClient>(_ trace: Trace, _ scenario: Scenario, client: Client)
        -> ScenarioRun
    {
        let played = replay(trace, scenario, client: client)
        let client = played.replay.client
        var run = ScenarioRun(
            scenario: scenario.name, seed: scenario.seed, traceStart: played.traceStart, traceEnd: played.traceEnd,
            flowSeconds: played.flowSeconds, recorder: client.recorder, gpsOn: played.replay.gpsOn,
            odometerMeters: client.odometerMeters, deliveryTimes: played.replay.deliveryTimes,
            lifecycle: played.lifecycle, promptLog: played.replay.device.promptLog,
            authorization: played.authorizationTimeline, wizardSteps: played.wizardSteps,
            whenInUseLockCutoffSeconds: played.whenInUseLockCutoffSeconds)
        run.diagnostics = client.diagnostics
        run.droppedDiagnostics = client.droppedDiagnostics
        if let unsettled = UnsettledAuthorization.note(
            authorization: run.authorization, promptLog: run.promptLog, start: played.traceStart)
        {
            run.notes.append(unsettled)
        }
        run.failure = client.failure
        return run
    }

    /// Replays `trace` through `scenario` with any app code: the scenario's phone, its
    /// permission flow, its person and its timeline, exactly as `run` does for the built-in
    /// engine. The engine settings of `scenario` are ignored: `client` is the engine.
    ///
    /// With a flow, the person's timeline and Settings changes happen at their own times:
    /// those before the flow settles happen during it (the flow's session runs them), and the
    /// rest are injected into the replay (`FlowSplit`). Tracking starts when the flow settles.
    public static func replay<Client: LocationClient>(_ trace: Trace, _ scenario: Scenario, client: Client)
        -> ScenarioReplay<Client>
    {
        let start = trace.fixes.first?.timestamp ?? SimInstant(nanosecondsSinceEpoch: 0)
        let end = trace.fixes.last?.timestamp ?? start
        var configuration = scenario.device
        configuration.seed = scenario.seed
        configuration.traceHasMotionSamples = !trace.motionSamples.isEmpty
        let timeline = scenario.timeline.map {
            ScriptedDeviceEvent(time: $0.when.instant(start: start, end: end), event: $0.event)
        }
        var device = Device(configuration: configuration)
        var trackingStart = start
        var script = timeline
        var wizardSteps: [PermissionsWizard.Step]?
        var flowAuthorization: [AuthorizationChange] = []
        var flowLifecycle: [LifecycleChange] = []
        if case .flow(let layer, let user) = scenario.authorization {
            var setup = DeviceSetup()
            setup.configuration = configuration
            let lifecycle = timeline.map {
                PermissionSession.ScriptedEvent(atSeconds: $0.time.seconds(since: start), event: $0.event)
            }
            let flow = layer.run(setup: setup, user: user, lifecycle: lifecycle, start: start)
            wizardSteps = flow.wizard?.transcript
            let split = FlowSplit(flow, configuration: configuration)
            device = split.device
            trackingStart = split.settled
            script = split.later
            flowAuthorization = split.authorization
            flowLifecycle = split.lifecycle
        }
        // The timeline opens with what the app was allowed before anything changed it.
        let initial = Device(configuration: configuration).authorization.state
        flowAuthorization.insert(
            contentsOf: [
                AuthorizationChange(
                    time: start,
                    kind: .location(initial.status, initial.accuracy, provisional: initial.isProvisionalAlways)),
                AuthorizationChange(time: start, kind: .motion(initial.motionStatus)),
            ], at: 0)
        var replay = Replay(device: device, client: client, user: scenario.user)
        replay.run(trace, script: script, from: trackingStart)
        // The replay's timeline opens with the state the flow left, already the flow's last row.
        var lifecycle = flowLifecycle
        for change in replay.lifecycleTimeline {
            lifecycle.record(change.phase, isScreenLocked: change.isScreenLocked, at: change.time)
        }
        return ScenarioReplay(
            replay: replay, traceStart: start, traceEnd: end, flowSeconds: trackingStart.seconds(since: start),
            wizardSteps: wizardSteps, whenInUseLockCutoffSeconds: configuration.parameters.whenInUseLockCutoffSeconds,
            authorizationTimeline: flowAuthorization + replay.authorizationTimeline, lifecycle: lifecycle)
    }
}

/// A permission flow's session cut where its prompts settle: the phone as it was then, and
/// what the person and the system do later, for the replay to run at its own time.
///
/// The session runs everything queued before it returns (`PermissionLayer.run` drains it),
/// including a Settings change an hour in. Tracking cannot wait for that: it starts when the
/// layer's call has returned and every answer to a prompt it raised (and any app code it
/// scheduled) has run, before the first later Settings change. The phone is rebuilt by
/// replaying the session's events up to that point (the device is deterministic, so it ends
/// in the same state), the device timers still pending then are carried into the replay, and
/// the person's later moves (Settings, lifecycle, answers) happen in the replay at their times.
struct FlowSplit {
    /// The phone when the flow settled.
    var device: Device
    /// When the flow settled: the tracking start.
    var settled: SimInstant
    /// What the flow changed of the app's authorization and process, at its times.
    var authorization: [AuthorizationChange] = []
    /// The app's phase and screen lock during the flow, from its start (not running).
    var lifecycle: [LifecycleChange] = []
    /// What happens later: the person's and the system's events, and the pending device timers.
    var later: [ScriptedDeviceEvent]

    init(_ flow: PermissionLayer.Run, configuration: Device.Configuration) {
        let events = flow.session.events
        let returned = flow.session.start.advanced(bySeconds: flow.secondsTaken)
        // Events up to the layer's return are the flow; after it, answers and app code count
        // until the person first changes Settings on their own.
        var count = events.firstIndex { $0.time > returned } ?? events.count
        var index = count
        while index < events.count {
            switch events[index].event {
            case .user(.changedSettings): index = events.count
            case .user(.answeredPrompt), .app:
                index += 1
                count = index
            case .user, .system, .sensor: index += 1
            }
        }
        let settled = max(returned, count > 0 ? events[count - 1].time : returned)
        self.settled = settled
        var device = Device(configuration: configuration)
        lifecycle.append(
            LifecycleChange(
                time: flow.session.start, phase: device.lifecycle.phase, isScreenLocked: device.lifecycle.isScreenLocked
            ))
        var actions: [DeviceAction] = []
        // Device timers scheduled during the flow that had not fired by the settle point.
        var pending: [(timer: DeviceTimer, due: SimInstant)] = []
        for (time, event) in events[..<count] {
            if case .system(.timerFired(let timer)) = event,
                let fired = pending.firstIndex(where: { $0.timer == timer && $0.due == time })
            {
                pending.remove(at: fired)
            }
            actions.removeAll(keepingCapacity: true)
            let before = AuthorizationChange.Snapshot(device.lifecycle.phase, device.authorization.state)
            device.handle(event, at: time, into: &actions)
            AuthorizationChange.record(
                actions, since: before, phase: device.lifecycle.phase, state: device.authorization.state, at: time,
                into: &authorization)
            for case .schedule(let timer, let due) in actions { pending.append((timer, due)) }
            lifecycle.record(device.lifecycle.phase, isScreenLocked: device.lifecycle.isScreenLocked, at: time)
        }
        let timers = pending.filter { $0.due >= settled }.map {
            ScriptedDeviceEvent(time: $0.due, event: .system(.timerFired($0.timer)))
        }
        self.device = device
        // The session ran its own timers and the app's code; the replay's phone and client make
        // theirs again.
        later =
            timers
            + events[count...].compactMap { time, event in
                switch event {
                case .app, .system(.timerFired): nil
                case .user, .system, .sensor: ScriptedDeviceEvent(time: time, event: event)
                }
            }
    }
}

/// A scenario replayed through any `LocationClient` (`ScenarioRunner.replay`): the replay, with
/// the client and the device as they ended, and what the scenario added around it.
public struct ScenarioReplay<Client: LocationClient> {
    /// The replay after the trace: `replay.client`, `replay.device`, deliveries, GPS-on time.
    public var replay: Replay<Client>
    /// The trace's first fix.
    public var traceStart: SimInstant
    /// The trace's last fix.
    public var traceEnd: SimInstant
    /// Seconds the permission flow took before tracking began (0 without a flow).
    public var flowSeconds: Double
    /// The wizard's steps, when the permission flow was the wizard.
    public var wizardSteps: [PermissionsWizard.Step]?
    /// The phone's When-In-Use cutoff after a lock.
    public var whenInUseLockCutoffSeconds: Double
    /// The permission flow's and the replay's authorization timeline together, in time order.
    public var authorizationTimeline: [AuthorizationChange] = []
    /// The app's phase and screen lock as they changed, from the trace's first fix: the
    /// flow's part (when there is one) and the replay's.
    public var lifecycle: [LifecycleChange] = []
}
