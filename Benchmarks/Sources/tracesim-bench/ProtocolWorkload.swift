import BenchmarkKit
@_spi(Fuzzing) import EngineProtocol
import Scenarios
import Traces

/// The `protocol` gate workload: a replay of a generated 20,000-fix drive through the ideal
/// scenario with the built-in engine behind the engine protocol, served in-process (no
/// process, no pipe, so the count is repeatable): TraceSim's side writes every message and
/// checks every answer, the serving side parses the messages and writes the answers. The
/// served engine declares runs, so the count follows the protocol in runs once the replay
/// hands them over.
enum ProtocolWorkload {
    static func run() -> Int32 {
        let trace = Trace(
            fixes: TraceGenerator.drive(fixes: 20_000, seed: 7), provenance: TraceProvenance(format: .canonicalCSV))
        guard let scenario = Scenario.preset(named: "ideal") else { return 1 }
        return Workloads.measuredWorkload {
            let (toEngine, fromEngine) = EngineProtocolHarness.transcript(of: trace, scenario)
            // Every fix went over (about 200 bytes each), and the engine answered every message.
            return toEngine.count > 20_000 * 150 && fromEngine.count > 20_000 * 20
        }
    }
}
