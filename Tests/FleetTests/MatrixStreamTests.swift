import Engine
import Fleet
import Geometry
import Scenarios
import SimulationCore
import Synchronization
import TestSupport
import Testing
import Traces

/// `Matrix.stream`: inputs come out in order whatever the number of jobs, each input is loaded
/// once, and no more than a few inputs are held at a time however many there are.
@Suite("Matrix streaming")
struct MatrixStreamTests {
    static let traces = (0..<24).map { Matrix.NamedTrace(name: "t\($0)", trace: GeneratedInputs.trace(seed: UInt64($0))) }

    static func matrix(_ names: [String]) throws -> Matrix {
        Matrix(traces: [], scenarios: try names.map { Matrix.Entry(try #require(Scenario.preset(named: $0))) })
    }

    /// What a stream did: the inputs in the order emitted, their cells, how often each input
    /// was loaded, and the most inputs loaded but not yet emitted at once.
    struct Observed {
        var emitted: [Int] = []
        var cells: [[Int]] = []
        var loads: [Int: Int] = [:]
        var mostHeld = 0
    }

    static func observe(_ matrix: Matrix, jobs: Int, inputs: Int = traces.count) throws -> Observed {
        let observed = Mutex(Observed())
        let held = Atomic<Int>(0)
        try matrix.stream(
            inputs: inputs, jobs: jobs,
            load: { input in
                let now = held.add(1, ordering: .relaxed).newValue
                observed.withLock {
                    $0.loads[input, default: 0] += 1
                    $0.mostHeld = max($0.mostHeld, now)
                }
                return [traces[input]]
            },
            render: { cell, _ in cell.metrics.acceptedFixes }
        ) { input in
            held.subtract(1, ordering: .relaxed)
            observed.withLock {
                $0.emitted.append(input.input)
                $0.cells.append(input.outputs)
            }
        }
        return observed.withLock { $0 }
    }

    @Test("inputs come out in input order with the same runs on 1, 2 and 4 jobs; each is loaded once", arguments: [2, 4])
    func orderAndLoads(jobs: Int) throws {
        let matrix = try Self.matrix(["always-precise", "wheninuse-locked", "denied"])
        let one = try Self.observe(matrix, jobs: 1)
        let many = try Self.observe(matrix, jobs: jobs)
        #expect(one.emitted == Array(0..<Self.traces.count))
        #expect(many.emitted == one.emitted)
        #expect(many.cells == one.cells)
        #expect(one.cells.allSatisfy { $0.count == 3 })
        #expect(many.loads.values.allSatisfy { $0 == 1 } && many.loads.count == Self.traces.count)
        // One job holds one input at a time; several hold at most the window (2 per job) ahead
        // of the oldest not yet written, plus that one.
        #expect(one.mostHeld == 1)
        #expect(many.mostHeld <= 2 * jobs + 1, "held \(many.mostHeld)")
    }

    @Test("the streamed cells are the in-memory matrix's, trace by trace")
    func sameAsInMemory() throws {
        var matrix = try Self.matrix(["always-precise", "allow-once", "always-force-quit"])
        let streamed = try Self.observe(matrix, jobs: 2, inputs: 4)
        matrix.traces = Array(Self.traces.prefix(4))
        let whole = try matrix.run(jobs: 2)
        #expect(streamed.cells.flatMap { $0 } == whole.cells.map(\.metrics.acceptedFixes))
    }

    @Test("an input that fails to load still gets its turn, with no cells")
    func failedLoad() throws {
        let matrix = try Self.matrix(["always-precise"])
        let emitted = Mutex<[(Int, Int)]>([])
        try matrix.stream(
            inputs: 3, jobs: 2, load: { $0 == 1 ? [] : [Self.traces[$0]] },
            render: { cell, _ in cell.scenarioIndex }
        ) { input in emitted.withLock { $0.append((input.input, input.outputs.count)) } }
        #expect(emitted.withLock { $0.map(\.0) } == [0, 1, 2])
        #expect(emitted.withLock { $0.map(\.1) } == [1, 0, 1])
    }

    @Test(
        "an engine that fails stops the stream: inputs before it are emitted whole, on any number of jobs",
        arguments: [1, 2, 4])
    func engineFailure(jobs: Int) throws {
        var matrix = try Self.matrix(["always-precise"])
        let calls = Atomic<Int>(0)
        matrix.engine = .custom(named: "flaky") { context throws(EngineFailure) in
            // The third trace's runs fail; every replay of the first two succeeds.
            if context.traceName == "t2" { throw EngineFailure("t2 is refused") }
            calls.add(1, ordering: .relaxed)
            return try GeneratedInputs.builtInClient(context)
        }
        let emitted = Mutex<[(Int, Int)]>([])
        #expect(throws: RunFailure.self) {
            try matrix.stream(
                inputs: 6, jobs: jobs, load: { [Self.traces[$0]] }, render: { cell, _ in cell.scenarioIndex }
            ) { input in emitted.withLock { $0.append((input.input, input.outputs.count)) } }
        }
        #expect(emitted.withLock { $0.map(\.0) } == [0, 1])
        #expect(emitted.withLock { $0.map(\.1) } == [1, 1])
        // Every replay of the inputs before the failing one ran; one job replays nothing after it.
        #expect(calls.load(ordering: .relaxed) >= 4)
        if jobs == 1 { #expect(calls.load(ordering: .relaxed) == 4) }
    }
}
