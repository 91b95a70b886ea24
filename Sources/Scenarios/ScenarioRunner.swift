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
    /// The phone this run had (its Info.plist, starting permissions, parameters and seed), so a
    /// report reads any device parameter from the run itself (the cutoff it draws after a lock).
    public var device = Device.Configuration()
    /// What the engine under test reported beside its record (callbacks without a handler,
    /// protocol warnings); the built-in engine reports none. TraceSim's own word on the run is
    /// in `notes`.
    public var diagnostics: [ClientDiagnostic] = []
    /// What the engine under test reported beyond the diagnostics a run keeps.
    public var droppedDiagnostics = DroppedDiagnostics()
    /// Where the phone kept recorded fixes from the app, and by which rule.
    public var locationDrops: [LocationDrops.Span] = []
    /// Whether the built-in engine was measured (its gate rejects fixes); `false` for a team's
    /// own engine, whose fixes are simply kept or not.
    public var isBuiltInEngine = true
    /// How the app was handed its locations (calls, their sizes, what it did not keep) and
    /// which fields the device filled in.
    public var deliveries = DeliveryTally()
    /// What TraceSim noticed about the run that its figures do not say (authorization that
    /// never settled, authorization that drifted), in the order noticed; never the engine's
    /// words, which are `diagnostics`.
    public var notes: [RunNote] = []
    /// The location status the run ended with, when it is not the one its scenario promises.
    public var authorizationDrift: AuthorizationDrift?
    /// The run's kept fixes measured against the replayed trace (`TraceReference`): the
    /// reference every engine shares, beside its own ideal run.
    public var againstTrace = TraceReference()
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
        try run(TraceMeasures(trace), scenario, fences: fences)
    }

    /// Replays the trace of `measures` through `scenario` with the built-in engine over
    /// `fences`. Replaying one trace through several scenarios, pass each the same measures:
    /// what is the same for every run of the trace is measured once.
    /// - Throws: `GeometryError` when a fence is invalid.
    public static func run(_ measures: TraceMeasures, _ scenario: Scenario, fences: [Geofence] = [])
        throws(GeometryError) -> ScenarioRun
    {
        let engine = try TrackingEngine(
            configuration: scenario.engine, fences: fences, context: GEOSContext(),
            expectedFixCount: measures.trace.fixes.count)
        return measure(measures, scenario, client: engine)
    }

    /// Replays `trace` through `scenario` with `engine` over `fences`; `traceName` is what a
    /// custom engine is told the trace is called.
    /// - Throws: `RunFailure.geometry` when a fence is invalid, `.engine` when the engine
    ///   could not be made or could not go on.
    public static func run(
        _ trace: Trace, _ scenario: Scenario, fences: [Geofence] = [], engine: EngineUnderTest, traceName: String = ""
    ) throws(RunFailure) -> ScenarioRun {
        try run(TraceMeasures(trace), scenario, fences: fences, engine: engine, traceName: traceName)
    }

    /// Replays the trace of `measures` through `scenario` with `engine` over `fences`, as
    /// `run(_:_:fences:engine:traceName:)` does with a trace; pass the same measures to every
    /// scenario of one trace.
    /// - Throws: `RunFailure.geometry` when a fence is invalid, `.engine` when the engine
    ///   could not be made or could not go on.
    public static func run(
        _ measures: TraceMeasures, _ scenario: Scenario, fences: [Geofence] = [], engine: EngineUnderTest,
        traceName: String = ""
    ) throws(RunFailure) -> ScenarioRun {
        let trace = measures.trace
        switch engine.kind {
        case .builtIn:
            if let setting = scenario.engineSettings.first {
                throw .engine(
                    EngineFailure(
                        "scenario \(scenario.name): engineSettings names '\(setting.name)', but the built-in engine "
                            + "declares no settings of its own (its settings are the scenario's engine object)"))
            }
            do {
                return try run(measures, scenario, fences: fences)
            } catch {
                throw .geometry(error)
            }
        case .custom(let make):
            var context = EngineContext(
                scenario: scenario, fences: fences, traceName: traceName, expectedFixCount: trace.fixes.count)
            if case .given(let settings) = engine.settingsSource {
                context.settings = try EngineSettingCheck.values(
                    scenario, declared: settings, engine: "engine \(engine.name)")
            }
            let client: any RecordingClient
            do {
                client = try make(context)
            } catch {
                throw .engine(error)
            }
            let run = measure(measures, scenario, client: client)
            if let failure = run.failure { throw .engine(failure) }
            return run
        }
    }

    /// Replays with `client` and reads what it recorded.
    private static func measure<Client: RecordingClient>(
        _ measures: TraceMeasures, _ scenario: Scenario, client: Client
    ) -> ScenarioRun {
        let trace = measures.trace
        let played = replay(trace, scenario, client: client)
        let client = played.replay.client
        var run = ScenarioRun(
            scenario: scenario.name, seed: scenario.seed, traceStart: played.traceStart, traceEnd: played.traceEnd,
            flowSeconds: played.flowSeconds, recorder: client.recorder, gpsOn: played.replay.gpsOn,
            odometerMeters: client.odometerMeters, deliveryTimes: played.replay.deliveryTimes,
            lifecycle: played.lifecycle, promptLog: played.replay.device.promptLog,
            authorization: played.authorizationTimeline, wizardSteps: played.wizardSteps,
            device: played.deviceConfiguration)
        run.diagnostics = client.diagnostics
        run.deliveries = played.replay.deliveryTally
        run.deliveries.noteKept(client.recorder.acceptedFixCount)
        run.droppedDiagnostics = client.droppedDiagnostics
        run.locationDrops = played.replay.locationDrops.spans
        run.isBuiltInEngine = client is TrackingEngine
        run.againstTrace = TraceReference(
            measures, kept: run.recorder, graceSeconds: UnobservedTime.graceSeconds(of: scenario))
        if let unsettled = UnsettledAuthorization.note(
            authorization: run.authorization, promptLog: run.promptLog, start: played.traceStart)
        {
            run.notes.append(unsettled)
        }
        run.authorizationDrift = AuthorizationDrift.of(
            expected: scenario.expectedAuthorization, timeline: run.authorization)
        if let drift = run.authorizationDrift { run.notes.append(drift.note(scenario: scenario.name)) }
        run.notes += played.replay.refusedSuspensions.map(\.note)
        run.failure = client.failure
        return run
    }

    /// Replays `trace` through `scenario` with any app code: the scenario's phone, its
    /// permission flow, its person and its timeline, exactly as `run` does for the built-in
    /// engine. The engine settings of `scenario` are ignored: `client` is the engine.
    ///
    /// One phone runs from the trace's first fix to its last, held by one person
    /// (`Scenario.user`). With a flow, the flow runs on it first with the person's timeline and
    /// Settings changes queued at their own times; tracking starts when the flow settles
    /// (`PermissionSession.settle()`), and the replay goes on with the same phone, queue and
    /// person, so whatever the flow did not reach yet happens during the replay and a prompt
    /// the app raises while tracking gets the person's next answer. Without a flow the person's
    /// Settings changes are queued from the trace's first fix.
    @inlinable public static func replay<Client: LocationClient>(
        _ trace: Trace, _ scenario: Scenario, client: Client
    ) -> ScenarioReplay<Client> {
        // Inlinable, so the caller's module compiles the replay for its client (`ScenarioReplayStart`).
        let start = ScenarioReplayStart(trace, scenario)
        var replay = Replay(phone: start.phone, client: client)
        replay.run(trace, script: start.script, from: start.trackingStart)
        return ScenarioReplay(replay, after: start)
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
    /// The phone the scenario replayed on, as configured for this trace and seed.
    public var deviceConfiguration: Device.Configuration
    /// The permission flow's and the replay's authorization timeline together, in time order.
    public var authorizationTimeline: [AuthorizationChange] = []
    /// The app's phase and screen lock as they changed, from the trace's first fix: the
    /// flow's part (when there is one) and the replay's.
    public var lifecycle: [LifecycleChange] = []
}
