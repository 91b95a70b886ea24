import Device
import Permissions
import SimulationCore
import Traces

/// What a scenario sets up before its replay (`ScenarioRunner.replay`): the phone as the
/// permission flow left it (or fresh, with the person's Settings changes queued), the script
/// still to run and the trace's span. Not generic: only the replay itself depends on the client,
/// so the generic entry point that an embedder's module compiles for its client stays small.
@usableFromInline struct ScenarioReplayStart {
    /// The phone the replay goes on with.
    @usableFromInline var phone: DeviceRun
    /// The timeline's events still to script (none after a flow, which queued them already).
    @usableFromInline var script: [ScriptedDeviceEvent]
    /// The wizard's steps, when the permission flow was the wizard.
    var wizardSteps: [PermissionsWizard.Step]?
    /// The phone's configuration for this trace and seed.
    var configuration: Device.Configuration
    /// The trace's first and last fix.
    var traceStart: SimInstant
    var traceEnd: SimInstant
    /// When tracking starts: the trace's first fix, or when the flow settled.
    @usableFromInline var trackingStart: SimInstant

    /// The phone, its flow and its script for replaying `trace` through `scenario`.
    @usableFromInline init(_ trace: Trace, _ scenario: Scenario) {
        let start = trace.fixes.first?.timestamp ?? SimInstant(nanosecondsSinceEpoch: 0)
        let end = trace.fixes.last?.timestamp ?? start
        var configuration = scenario.device
        configuration.seed = scenario.seed
        configuration.traceHasMotionSamples = !trace.motionSamples.isEmpty
        let timeline = scenario.timeline.map {
            ScriptedDeviceEvent(time: $0.when.instant(start: start, end: end), event: $0.event)
        }
        var phone: DeviceRun
        var script = timeline
        var wizardSteps: [PermissionsWizard.Step]?
        if case .flow(let layer) = scenario.authorization {
            var setup = DeviceSetup()
            setup.configuration = configuration
            // The session keeps seconds from its start, as a person's file gives them.
            let lifecycle = timeline.map {
                PermissionSession.ScriptedEvent(atSeconds: $0.time.seconds(since: start), event: $0.event)
            }
            let flow = layer.run(
                setup: setup, user: scenario.user, lifecycle: lifecycle, start: start, ending: .settled)
            wizardSteps = flow.wizard?.transcript
            phone = flow.session.phone
            phone.stopLogging()
            script = []
        } else {
            phone = DeviceRun(device: Device(configuration: configuration), user: scenario.user)
            phone.open(at: start)
            phone.scriptSettingsChanges(from: start)
        }
        self.phone = phone
        self.script = script
        self.wizardSteps = wizardSteps
        self.configuration = configuration
        traceStart = start
        traceEnd = end
        trackingStart = phone.now
    }
}

extension ScenarioReplay {
    /// The scenario's replay after `replay` ran from `start`. Out of line: it runs once per
    /// replay, so its generic call costs nothing that matters.
    @usableFromInline init(_ replay: Replay<Client>, after start: ScenarioReplayStart) {
        self.init(
            replay: replay, traceStart: start.traceStart, traceEnd: start.traceEnd,
            flowSeconds: start.trackingStart.seconds(since: start.traceStart), wizardSteps: start.wizardSteps,
            deviceConfiguration: start.configuration, authorizationTimeline: replay.authorizationTimeline,
            lifecycle: replay.lifecycleTimeline)
    }
}
