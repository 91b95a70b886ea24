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
    /// The wizard's steps, when the permission flow was the wizard.
    public var wizardSteps: [PermissionsWizard.Step]?
    /// The device's When-In-Use cutoff after a lock (`DeviceParameters`), so a report draws the
    /// cutoff this run had.
    public var whenInUseLockCutoffSeconds = DeviceParameters().whenInUseLockCutoffSeconds

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
        let played = replay(trace, scenario, client: engine)
        return ScenarioRun(
            scenario: scenario.name, seed: scenario.seed, traceStart: played.traceStart, traceEnd: played.traceEnd,
            flowSeconds: played.flowSeconds, recorder: engine.recorder, gpsOn: played.replay.gpsOn,
            odometerMeters: engine.odometerMeters, deliveryTimes: played.replay.deliveryTimes,
            lifecycle: played.replay.lifecycleTimeline, promptLog: played.replay.device.promptLog,
            wizardSteps: played.wizardSteps, whenInUseLockCutoffSeconds: played.whenInUseLockCutoffSeconds)
    }

    /// Replays `trace` through `scenario` with any app code: the scenario's phone, its
    /// permission flow (the tracking starts when the flow ends), its person and its timeline,
    /// clamped to the tracking start, exactly as `run` does for the built-in engine. The
    /// engine settings of `scenario` are ignored: `client` is the engine.
    public static func replay<Client: LocationClient>(_ trace: Trace, _ scenario: Scenario, client: Client)
        -> ScenarioReplay<Client>
    {
        let start = trace.fixes.first?.timestamp ?? SimInstant(nanosecondsSinceEpoch: 0)
        let end = trace.fixes.last?.timestamp ?? start
        var configuration = scenario.device
        configuration.seed = scenario.seed
        configuration.traceHasMotionSamples = !trace.motionSamples.isEmpty
        var device = Device(configuration: configuration)
        var trackingStart = start
        var flowSeconds = 0.0
        var wizardSteps: [PermissionsWizard.Step]?
        if case .flow(let layer, let user) = scenario.authorization {
            var setup = DeviceSetup()
            setup.configuration = configuration
            let flow = layer.run(setup: setup, user: user, start: start)
            wizardSteps = flow.wizard?.transcript
            device = flow.session.device
            flowSeconds = flow.session.now.seconds(since: start)
            trackingStart = flow.session.now
        }
        var replay = Replay(device: device, client: client, user: scenario.user)
        let script = scenario.timeline.map {
            ScriptedDeviceEvent(time: max($0.when.instant(start: start, end: end), trackingStart), event: $0.event)
        }
        replay.run(trace, script: script, from: trackingStart)
        return ScenarioReplay(
            replay: replay, traceStart: start, traceEnd: end, flowSeconds: flowSeconds, wizardSteps: wizardSteps,
            whenInUseLockCutoffSeconds: configuration.parameters.whenInUseLockCutoffSeconds)
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
}
