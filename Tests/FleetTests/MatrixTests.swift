import Fleet
import Scenarios
import SimulationCore
import Synchronization
import TestSupport
import Testing
import Traces

/// The matrix plan: which replays it makes, and that its results never depend on how many run
/// at once.
@Suite("Matrix")
struct MatrixTests {
    static let traces = (0..<3).map { Matrix.NamedTrace(name: "t\($0)", trace: GeneratedInputs.trace(seed: $0)) }

    static func preset(_ name: String) throws -> Scenario { try #require(Scenario.preset(named: name)) }

    @Test(
        "scenarios of the same seed, geofences and engine settings share one ideal run; own geofences or engine get their own"
    )
    func idealRunsAreShared() throws {
        let names = ["always-precise", "restricted", "denied"]
        let shared = Matrix(traces: Self.traces, scenarios: try names.map { Matrix.Entry(try Self.preset($0)) })
        #expect(shared.replayCount() == 3 * (3 + 1))
        // wheninuse-locked starts updates without the background flag: an engine of its own.
        let engines = Matrix(
            traces: Self.traces, scenarios: try (names + ["wheninuse-locked"]).map { Matrix.Entry(try Self.preset($0)) })
        #expect(engines.replayCount() == 3 * (4 + 2))
        var reseeded = try Self.preset("denied")
        reseeded.seed = 5
        var entries = try names.map { Matrix.Entry(try Self.preset($0)) }
        entries.append(Matrix.Entry(reseeded))
        entries.append(Matrix.Entry(try Self.preset("allow-once"), fences: []))
        let mixed = Matrix(traces: Self.traces, scenarios: entries)
        // Seed 0 shared by three, seed 5 its own, the scenario with its own geofences its own.
        #expect(mixed.replayCount() == 3 * (5 + 3))
        // --seed puts every scenario on one seed again; own geofences still get their own.
        #expect(Matrix(traces: Self.traces, scenarios: entries, seed: 1).replayCount() == 3 * (5 + 2))
        // Shards hold whole traces: shard 3 of 9 holds the third trace alone, shard 4 none.
        #expect(shared.replayCount(shard: Shard(index: 3, count: 9)) == 3 + 1)
        #expect(shared.replayCount(shard: Shard(index: 4, count: 9)) == 0)
    }

    @Test("distinct ideal runs never share a row's name: a scenario's own seed or phone names its own")
    func distinctIdealRunsHaveDistinctNames() throws {
        var reseeded = try Self.preset("denied")
        reseeded.name = "denied-seed-5"
        reseeded.seed = 5
        var coarse = try Self.preset("always-precise")
        coarse.name = "acc500"
        coarse.device.parameters.assumedHorizontalAccuracyMeters = 500
        let entries = [try Self.preset("always-precise"), reseeded, coarse, try Self.preset("restricted")]
        let result = try Matrix(traces: [Self.traces[0]], scenarios: entries.map { Matrix.Entry($0) }).run()
        let names = result.cells.map(\.reference.name)
        #expect(names == ["ideal", "ideal for denied-seed-5", "ideal for acc500", "ideal"])
    }

    @Test("cells come in position order, the same on one core and on four, with progress for every replay")
    func orderDoesNotDependOnJobs() throws {
        let names = ["always-precise", "wheninuse-locked", "allow-once", "always-force-quit"]
        let matrix = Matrix(traces: Self.traces, scenarios: try names.map { Matrix.Entry(try Self.preset($0)) })
        let reports = Mutex<[(Int, Int)]>([])
        let one = try matrix.run(jobs: 1)
        let four = try matrix.run(jobs: 4) { done, total in reports.withLock { $0.append((done, total)) } }
        #expect(one.cells.map(\.position) == Array(0..<12))
        #expect(four.cells.map(\.position) == Array(0..<12))
        #expect(
            one.cells.map(\.traceIndex) == four.cells.map(\.traceIndex) && one.cells.map(\.scenarioIndex) == four.cells.map(\.scenarioIndex)
        )
        #expect(one.cells.map(\.run.deliveryTimes) == four.cells.map(\.run.deliveryTimes))
        #expect(one.cells.map(\.metrics.acceptedFixes) == four.cells.map(\.metrics.acceptedFixes))
        let seen = reports.withLock { $0 }
        #expect(seen.map(\.0).sorted() == Array(1...matrix.replayCount()))
        #expect(seen.allSatisfy { $0.1 == matrix.replayCount() })
        #expect(one.metricsByScenario.map(\.scenario) == names)
        #expect(one.metricsByScenario.allSatisfy { $0.metrics.count == 3 })
    }
}
