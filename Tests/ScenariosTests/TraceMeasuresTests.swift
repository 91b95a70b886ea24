import Engine
@testable import Scenarios
import SimulationCore
import TestSupport
import Testing
import Traces

/// Issue 32: what every run of a trace is measured against is measured once per trace, and a run
/// measured that way is the run measured on its own. Fast tier: one trace, a few replays.
@Suite("Trace measures shared by a trace's runs")
struct TraceMeasuresTests {
    /// A Takeout export with 212 unobserved spans, so the grace moves every left-out window.
    private static let june = "gpsbabel/2013_JUNE.json"

    @Test("Runs given shared measures equal runs that measure the trace themselves, whatever the grace")
    func sharedMeasuresChangeNoRun() throws {
        let trace = try TraceImporter.load(path: Repository.trace(Self.june))
        let measures = TraceMeasures(trace)
        var quickStop = try #require(Scenario.preset(named: "always-precise"))
        quickStop.name = "quick-stop"
        quickStop.engine.motion.stopTimeoutSeconds = 60
        let scenarios = [try #require(Scenario.preset(named: "ideal")), quickStop, try #require(Scenario.preset(named: "ideal"))]
        var graces: Set<Double> = []
        for scenario in scenarios {
            let shared = try ScenarioRunner.run(measures, scenario)
            let alone = try ScenarioRunner.run(trace, scenario)
            #expect(shared.againstTrace == alone.againstTrace)
            #expect(shared.againstTrace.coveredSeconds == alone.againstTrace.coveredSeconds)
            #expect(shared.againstTrace.unobserved.leftOut.map(\.start) == alone.againstTrace.unobserved.leftOut.map(\.start))
            graces.insert(shared.againstTrace.unobserved.graceSeconds)
        }
        // Two graces, so the cache answered for a grace it had not measured before and for one it had.
        #expect(graces == [300, 60])
        #expect(measures.pathMeters == TraceReference(trace, kept: Recorder()).pathMeters)
    }

    @Test("Spans re-graced from the measures equal spans measured with that grace, at the boundaries")
    func regracedSpansEqualMeasuredOnes() throws {
        let trace = try TraceImporter.load(path: Repository.trace(Self.june))
        let measures = TraceMeasures(trace)
        let spans = UnobservedTime(trace, graceSeconds: 0).spans
        let shortest = try #require(spans.map(\.seconds).min())
        // 0 leaves out whole spans; the shortest span's length leaves that span out of nothing.
        for grace in [0, 60, 300, shortest, shortest + 1, 900, -5] {
            let measured = UnobservedTime(trace, graceSeconds: grace)
            let regraced = measures.unobserved(graceSeconds: grace)
            #expect(regraced == measured)
            #expect(regraced.leftOut.map(\.start) == measured.leftOut.map(\.start))
            #expect(regraced.leftOut.map(\.end) == measured.leftOut.map(\.end))
            #expect(
                measures.coveredSeconds(graceSeconds: grace) == TraceReference(trace, kept: Recorder(), unobserved: measured).coveredSeconds
            )
        }
        #expect(measures.unobserved(graceSeconds: 0).leftOut.count == spans.count)
        #expect(measures.unobserved(graceSeconds: shortest).leftOut.count == spans.count - 1)
    }
}
