import Device
import Engine
import Fleet
import Permissions
@testable import Scenarios
import SimulationCore
import Testing
import Traces

/// Issue 16 §4: when tracking starts under a permission flow, what a departure is, how the
/// table pools traces, and which ideal run a custom scenario is compared with.
@Suite("Tracking start, departures, pooled summaries and the ideal run")
struct TrackingStartAndPoolingTests {
    /// The bundled u-blox drive, loaded once for the target (`PresetTests`).
    static var drive: Trace { PresetTests.trace }

    /// A fresh install where the person answers the location prompt with `answer` after 2 s
    /// and makes `settings` changes, through the facade's flow.
    static func flowScenario(
        _ answer: PromptAnswer, settings: [SimulatedUser.ScheduledChange], timeline: [Scenario.TimelineEvent] = []
    ) throws -> Scenario {
        var device = Device.Configuration()
        device.authorization.motionStatus = .authorized
        let user = try SimulatedUser(
            responses: [.location: [.answer(answer, afterSeconds: 2)], .upgrade: [.answer(.changeToAlways, afterSeconds: 2)]],
            settingsChanges: settings)
        return Scenario(
            name: "flow", summary: "", device: device, authorization: .flow(.bggeo), timeline: timeline, user: user)
    }

    static func seconds(_ instant: SimInstant) -> Double { instant.seconds(since: drive.fixes[0].timestamp) }

    @Test("an Allow-Once person who turns on Always at 600 s collects from the start; Always applies at 600 s")
    func settingsChangeDoesNotPostponeTracking() throws {
        let scenario = try Self.flowScenario(
            .allowOnce(precise: true), settings: [.init(atSeconds: 600, change: .setAlways)],
            timeline: [.init(.seconds(60), .user(.lockedScreen))])
        let run = try ScenarioRunner.run(Self.drive, scenario)
        // Tracking starts when the prompt is answered (2 s), not at the Settings change.
        #expect(run.flowSeconds == 2)
        #expect(try Self.seconds(#require(run.deliveryTimes.first)) < 10)
        // Allow Once holds until the lock's cutoff; Always from 600 s brings fixes back.
        let always = try #require(
            run.authorization.first {
                if case .location(.authorizedAlways, _, _) = $0.kind { return true }
                return false
            })
        #expect(Self.seconds(always.time) == 600)
        #expect(run.deliveryTimes.contains { Self.seconds($0) < 600 })
        #expect(run.deliveryTimes.contains { Self.seconds($0) > 600 })
    }

    @Test("the tracking start is when the flow's prompts settle: the last answer, not a later Settings change")
    func trackingStartsWhenPromptsSettle() throws {
        let late = try ScenarioRunner.run(
            Self.drive,
            try Self.flowScenario(.allowWhileUsing(precise: true), settings: [.init(atSeconds: 3_600, change: .setBluetooth(true))]))
        let none = try ScenarioRunner.run(Self.drive, try Self.flowScenario(.allowWhileUsing(precise: true), settings: []))
        #expect(late.flowSeconds == none.flowSeconds)
        #expect(late.recorder.acceptedFixCount == none.recorder.acceptedFixCount)
        #expect(late.recorder.acceptedFixCount > 0)
    }

    @Test("a timeline event before the tracking start happens during the flow, at its own time, not moved")
    func timelineDuringTheFlow() throws {
        // Locked at 1 s, while the prompt waits: the lock is in the flow, at 1 s.
        let scenario = try Self.flowScenario(
            .allowWhileUsing(precise: true), settings: [], timeline: [.init(.seconds(1), .user(.lockedScreen))])
        let run = try ScenarioRunner.run(Self.drive, scenario)
        #expect(run.flowSeconds >= 1)
        // The lifecycle shows the lock at 1 s, once: it was not re-sent at the tracking start.
        let locks = zip(run.lifecycle, run.lifecycle.dropFirst()).filter { !$0.0.isScreenLocked && $0.1.isScreenLocked }
        #expect(locks.count == 1)
        #expect(locks.first.map { Self.seconds($0.1.time) } == 1)
        #expect(run.lifecycle.first?.phase == .notRunning && run.lifecycle.first.map { Self.seconds($0.time) } == 0)
    }

    @Test("denied, restricted and services-off never depart: no fix, no departure, no departure delay")
    func noLocationNoDeparture() throws {
        let ideal = try ScenarioRunner.run(Self.drive, try #require(Scenario.preset(named: "ideal")))
        #expect(Metrics.departure(in: ideal.recorder) != nil)
        for name in ["denied", "restricted", "services-off"] {
            let run = try ScenarioRunner.run(Self.drive, try #require(Scenario.preset(named: name)))
            #expect(Metrics.departure(in: run.recorder) == nil, "\(name)")
            #expect(Metrics(run, ideal: ideal).departureDelaySeconds == nil, "\(name)")
        }
    }

    /// Metrics of a hand-made run: `accepted` of `idealAccepted`, `meters` of `idealMeters`,
    /// `covered` of `idealCovered` seconds, `gps` of `idealGps` seconds, the longest gap and the
    /// departure delay.
    static func metrics(
        accepted: Int, of idealAccepted: Int, meters: Double, of idealMeters: Double, covered: Double,
        of idealCovered: Double, gps: Double, of idealGps: Double, gap: Double, departure: Double?
    ) -> Metrics {
        var metrics = Metrics(Self.emptyRun, ideal: Self.emptyRun)
        metrics.acceptedFixes = accepted
        metrics.idealAcceptedFixes = idealAccepted
        metrics.distanceMeters = meters
        metrics.idealDistanceMeters = idealMeters
        metrics.coveredSeconds = covered
        metrics.idealCoveredSeconds = idealCovered
        metrics.gpsOnSeconds = gps
        metrics.idealGpsOnSeconds = idealGps
        metrics.maxGapSeconds = gap
        metrics.departureDelaySeconds = departure
        return metrics
    }

    static let emptyRun = ScenarioRun(
        scenario: "x", seed: 0, traceStart: SimInstant(nanosecondsSinceEpoch: 0),
        traceEnd: SimInstant(nanosecondsSinceEpoch: 0), flowSeconds: 0, recorder: Recorder(), gpsOn: GPSOnTime(),
        odometerMeters: 0, deliveryTimes: [], lifecycle: [], promptLog: [], wizardSteps: nil)

    @Test("two traces of different lengths pool to sums over sums, not a mean of ratios")
    func pooledRatios() {
        // A 60 s trace fully collected and a long drive of which 1 % is collected.
        let short = Self.metrics(
            accepted: 60, of: 60, meters: 100, of: 100, covered: 60, of: 60, gps: 60, of: 60, gap: 5, departure: 10)
        let long = Self.metrics(
            accepted: 18, of: 1_800, meters: 90, of: 9_000, covered: 120, of: 1_800, gps: 70, of: 1_800, gap: 1_500,
            departure: nil)
        let summary = MetricsSummary([short, long])
        #expect(summary.collected == 78.0 / 1_860)
        #expect(summary.distance == 190.0 / 9_100)
        #expect(summary.coverage == 180.0 / 1_860)
        #expect(summary.gpsVsIdeal == 130.0 / 1_860)
        // The mean of ratios would say (100 % + 1 %) / 2 = 50.5 %.
        #expect(abs((summary.collected ?? 1) - 0.0419) < 0.0001)
        #expect(summary.medianLongestGapSeconds == 752.5)
        // Only the short trace departed in both runs.
        #expect(summary.departureDelaySeconds == 10)
        #expect(summary.departedTraces == 1)
        // Nothing to lose: no ideal fix, no ratio.
        let empty = MetricsSummary([
            Self.metrics(accepted: 0, of: 0, meters: 0, of: 0, covered: 0, of: 0, gps: 0, of: 0, gap: 1, departure: nil)
        ])
        #expect(empty.collected == nil && empty.distance == nil && empty.coverage == nil && empty.gpsVsIdeal == nil)
    }

    @Test("a custom scenario's ideal run uses its engine settings: collected never exceeds 100 %")
    func idealUsesTheScenarioEngine() throws {
        // A strict gate: against the default ideal it would read as a permission loss (and a
        // lenient one as more than 100 %), though the phone delivered everything.
        var engine = EngineConfiguration()
        engine.gate.maximumAccuracyMeters = 8
        var scenario = try #require(Scenario.preset(named: "ideal"))
        scenario.name = "strict-gate"
        scenario.engine = engine
        scenario.seed = 3
        let result = try Matrix(
            traces: [Matrix.NamedTrace(name: "drive", trace: Self.drive)], scenarios: [Matrix.Entry(scenario)]
        ).run()
        let cell = try #require(result.cells.first)
        let defaultIdeal = try ScenarioRunner.run(Self.drive, try #require(Scenario.preset(named: "ideal")))
        #expect(cell.run.recorder.acceptedFixCount < defaultIdeal.recorder.acceptedFixCount)
        #expect(cell.run.recorder.acceptedFixCount > 0)
        #expect(cell.ideal.recorder.acceptedFixCount == cell.run.recorder.acceptedFixCount)
        #expect(cell.ideal.seed == 3)
        #expect(cell.metrics.collectionRatio == 1)
    }

    @Test("preventSuspend is priced against an ideal run without it: more GPS time than the reference, same reference")
    func countermeasuresArePriced() throws {
        let presets = ["always-precise", "always-prevent-suspend"].compactMap(Scenario.preset(named:))
        let result = try Matrix(
            traces: [Matrix.NamedTrace(name: "drive", trace: Self.drive)], scenarios: presets.map { Matrix.Entry($0) }
        ).run()
        let precise = try #require(result.cells.first { $0.scenarioIndex == 0 })
        let guarded = try #require(result.cells.first { $0.scenarioIndex == 1 })
        #expect(guarded.metrics.idealGpsOnSeconds == precise.metrics.idealGpsOnSeconds)
        #expect(guarded.metrics.gpsOnSeconds > guarded.metrics.idealGpsOnSeconds)
        #expect(Set(result.cells.map(\.reference.name)) == ["ideal"])
    }

    @Test("the authorization timeline: the starting status, the flow's grant, the end of provisional Always, the lapse")
    func authorizationTimeline() throws {
        let provisional = try ScenarioRunner.run(Self.drive, try #require(Scenario.preset(named: "provisional-always")))
        let locations = provisional.authorization.compactMap { change -> (Double, AuthorizationStatus, Bool)? in
            guard case .location(let status, _, let isProvisional) = change.kind else { return nil }
            return (Self.seconds(change.time), status, isProvisional)
        }
        #expect(locations.first?.1 == .notDetermined && locations.first?.0 == 0)
        #expect(locations.contains { $0.1 == .authorizedAlways && $0.2 })
        // Answering the deferred upgrade ends provisional Always without a new status.
        let upgraded = try #require(locations.last)
        #expect(upgraded.1 == .authorizedAlways && !upgraded.2)
        let answered = try #require(
            provisional.promptLog.first {
                if case .answered(.changeToAlways) = $0.outcome { return true }
                return false
            })
        #expect(upgraded.0 == Self.seconds(answered.time))
        // Allow Once, locked at 60 s: the lapse, then the status back to notDetermined.
        let once = try ScenarioRunner.run(Self.drive, try #require(Scenario.preset(named: "allow-once")))
        let lapse = try #require(once.authorization.firstIndex { $0.kind == .allowOnceLapsed })
        #expect(Self.seconds(once.authorization[lapse].time) > 60)
        let next = once.authorization[lapse + 1]
        #expect(next.time == once.authorization[lapse].time)
        #expect(next.kind == .location(.notDetermined, .fullAccuracy, provisional: false))
    }

    @Test("the authorization timeline holds suspensions, wakes, terminations and background relaunches")
    func processEntries() throws {
        let suspended = Scenario(
            name: "suspended", summary: "",
            timeline: [.init(.seconds(30), .user(.lockedScreen)), .init(.seconds(40), .system(.suspendedApp))])
        let run = try ScenarioRunner.run(Self.drive, suspended)
        // Locked at 30 s, the app holding nothing is suspended after the grace, by 40 s at the latest.
        let suspension = try #require(run.authorization.first { $0.kind == .suspended })
        #expect(Self.seconds(suspension.time) > 30 && Self.seconds(suspension.time) <= 40)
        // Always: leaving (a significant change or the stationary region's exit) wakes the
        // suspended app, and the timeline says which event did.
        let wake = try #require(
            run.authorization.first {
                if case .woken = $0.kind { return true }
                return false
            })
        #expect(wake.time > suspension.time)
        guard case .woken(let reason) = wake.kind else { return }
        #expect(reason == .significantChange || reason == .regionEvent, "\(String(describing: reason))")
        let forceQuit = try ScenarioRunner.run(Self.drive, try #require(Scenario.preset(named: "always-force-quit")))
        let terminated = try #require(forceQuit.authorization.firstIndex { $0.kind == .terminated(.forceQuitStopsEverything) })
        // On ios18 a region exit or a significant change relaunches it in the background.
        #expect(
            forceQuit.authorization[(terminated + 1)...].contains {
                if case .launched(_, inBackground: true) = $0.kind { return true }
                return false
            })
    }

    @Test(
        "a settled flow leaves the phone the drained flow ends with, and nothing queued, for every layer",
        arguments: PermissionLayer.allCases)
    func settledPhone(layer: PermissionLayer) throws {
        var setup = DeviceSetup()
        setup.configuration.authorization.motionStatus = .notDetermined
        let start = Self.drive.fixes[0].timestamp
        let drained = layer.run(setup: setup, user: .agreeable, start: start)
        let settled = layer.run(setup: setup, user: .agreeable, start: start, ending: .settled)
        #expect(settled.session.device.authorization.state == drained.session.device.authorization.state)
        #expect(settled.session.device.lifecycle == drained.session.device.lifecycle)
        #expect(settled.session.device.promptLog == drained.session.device.promptLog)
        #expect(settled.session.now == drained.session.now)
        #expect(settled.session.phone.isQueueEmpty)
    }

    @Test("a settled flow stops before the person's own Settings change and leaves it queued for the replay")
    func settledFlowLeavesSettingsQueued() throws {
        let user = try SimulatedUser(
            responses: [.location: [.answer(.allowWhileUsing(precise: true), afterSeconds: 2)]],
            settingsChanges: [.init(atSeconds: 600, change: .setAlways)])
        let start = Self.drive.fixes[0].timestamp
        let settled = PermissionLayer.airship.run(setup: DeviceSetup(), user: user, start: start, ending: .settled)
        #expect(settled.session.now.seconds(since: start) < 600)
        #expect(settled.session.phone.nextQueued == .scripted(.user(.changedSettings(.setAlways))))
        #expect(settled.session.device.authorization.state.status == .authorizedWhenInUse)
        let drained = PermissionLayer.airship.run(setup: DeviceSetup(), user: user, start: start)
        #expect(drained.session.device.authorization.state.status == .authorizedAlways)
    }
}
