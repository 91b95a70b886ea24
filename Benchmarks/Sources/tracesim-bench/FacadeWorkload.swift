import BenchmarkKit
import Engine
import Scenarios
import TraceSimCoreLocation
import Traces

/// The gated facade workload: the trivial delegate app of `FacadeSuite` through
/// `CoreLocationApp`, replayed over a generated drive on the ideal scenario, so the count is
/// the facade's cost per delivered fix (a manager, a `CLLocation`, the delegate call, the
/// host's task census) on top of one replay.
enum FacadeWorkload {
    static func run() -> Int32 {
        let trace = Trace(
            fixes: TraceGenerator.drive(fixes: 20_000, seed: 7), provenance: TraceProvenance(format: .canonicalCSV))
        guard let ideal = Scenario.preset(named: "ideal") else { return 1 }
        let facade = EngineUnderTest.custom(named: "facade") { _ in CoreLocationApp { CountingDelegate() } }
        return Workloads.measuredWorkload {
            guard let run = try? ScenarioRunner.run(trace, ideal, engine: facade) else { return false }
            return run.recorder.deliveredFixCount > 0
        }
    }
}
