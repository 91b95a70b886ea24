import Fleet
import Scenarios
import Testing

/// `Tuning.Outcome.inertSweeps` on pools written for the test. Fast tier.
@Suite("Tuning: inert sweeps")
struct TuningInertTests {
    /// A study of distanceFilter=0,10 × stopRule=timeout,radar over `scenarios` and the pools
    /// `recorded(row)` gives each row (one trace each).
    private func outcome(scenarios: Int = 1, traces: Int = 1, recorded: (Int) -> Int) throws -> Tuning.Outcome {
        let sweeps = try ["distanceFilter=0,10", "stopRule=timeout,radar"].map { try Tuning.Sweep.parse($0).get() }
        let scenario = try #require(Scenario.preset(named: "ideal"))
        let study = Tuning.Study(scenarios: Array(repeating: (scenario, nil), count: scenarios), sweeps: sweeps)
        let pools = study.rows.indices.map { row in
            var pool = Tuning.Pool()
            pool.traces = traces
            pool.recordedFixes = recorded(row)
            return pool
        }
        return Tuning.Outcome(
            study: study, pools: pools, objectives: Tuning.Objective.defaults(hasTruth: false), constraints: [],
            hasTruth: false)
    }

    @Test("a sweep whose values leave every row alike is inert; one that moves a row is not")
    func inertAndMoving() throws {
        // Rows: (0, timeout), (0, radar), (10, timeout), (10, radar): only the filter moves them.
        #expect(try outcome { $0 < 2 ? 100 : 40 }.inertSweeps == [1])
        #expect(try outcome { $0 % 2 == 0 ? 100 : 40 }.inertSweeps == [0])
        #expect(try outcome { _ in 7 }.inertSweeps == [0, 1])
        // The filter moving the second scenario's rows alone (6 and 7) makes it live.
        #expect(try outcome(scenarios: 2) { $0 >= 6 ? 1 : 5 }.inertSweeps == [1])
        // A single differing row moves both settings that separate it from its neighbours.
        #expect(try outcome(scenarios: 2) { $0 == 6 ? 1 : 5 }.inertSweeps.isEmpty)
    }

    @Test("over no trace nothing is called inert: the rows are alike because nothing was measured")
    func noTrace() throws {
        #expect(try outcome(traces: 0) { _ in 0 }.inertSweeps.isEmpty)
    }
}
