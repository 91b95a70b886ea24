import Engine
import Geometry
import Scenarios
import SimulationCore
import Synchronization
import Traces

/// The main job: every trace through every scenario, each run compared with its ideal run as a
/// `Comparison` pairs them: what each permission level costs.
///
/// A matrix is a plan; `run` replays it (all of it, or one shard) on as many cores as allowed
/// and returns the runs in a fixed order, so the output never depends on the machine. A
/// sharded run's parts are joined by `Matrix.merge`.
public struct Matrix: Sendable {
    /// A scenario of the matrix, with the geofences it brings (`nil`: the matrix's own) and
    /// what a sharded run's identity records of it.
    public struct Entry: Sendable {
        /// The scenario as given; the matrix's `seed`, when set, replaces its own.
        public var scenario: Scenario
        /// Geofences for this scenario's runs (a scenario file's own), or `nil` for the matrix's.
        public var fences: [Geofence]?
        /// What identifies the scenario in a part (a preset's name, or a file and its hash).
        public var identity: RunIdentity.ScenarioEntry

        /// A scenario with its own geofences, if it brings any.
        public init(_ scenario: Scenario, fences: [Geofence]? = nil, identity: RunIdentity.ScenarioEntry? = nil) {
            self.scenario = scenario
            self.fences = fences
            self.identity = identity ?? RunIdentity.ScenarioEntry(name: scenario.name)
        }
    }

    /// A trace to replay and the name every output gives it.
    public struct NamedTrace: Sendable {
        /// The name runs carry (`"trace"` in JSON): a path, or `FILE#N` for one track of a file.
        public var name: String
        /// The fixes replayed.
        public var trace: Trace

        /// A trace under `name`.
        public init(name: String, trace: Trace) {
            self.name = name
            self.trace = trace
        }
    }

    /// One scenario on one trace, with the ideal run it is compared with.
    public struct Cell: Sendable {
        /// `trace × scenarios.count + scenario`: the order every output follows. In `stream`'s
        /// `InputRuns`, counted within the input.
        public var position: Int
        /// Index in `Matrix.traces` (`run`), or in the input's `traceNames` (`stream`).
        public var traceIndex: Int
        /// Index in `Matrix.scenarios`.
        public var scenarioIndex: Int
        /// The scenario's run.
        public var run: ScenarioRun
        /// The ideal run of the same trace and geofences that `Comparison` pairs `run` with.
        public var ideal: ScenarioRun
        /// `run` measured against `ideal`.
        public var metrics: Metrics
        /// What `ideal` measured against itself, and the name of its row in the tables.
        public var reference: ReferenceMetrics
    }

    /// The traces, in the order every output lists them.
    public var traces: [NamedTrace]
    /// The scenarios, in the order every output lists them.
    public var scenarios: [Entry]
    /// Seeds every run's phone; `nil` keeps each scenario's own seed (presets use 0).
    public var seed: UInt64?
    /// Geofences for every scenario that brings none of its own.
    public var fences: [Geofence]
    /// What identifies the whole run, for a sharded run's parts; `nil` when not sharded.
    public var identity: RunIdentity?
    /// The app code every run replays (ideal runs included): the built-in engine unless set.
    public var engine: EngineUnderTest = .builtIn

    /// A plan of `traces` × `scenarios`.
    public init(
        traces: [NamedTrace], scenarios: [Entry], seed: UInt64? = nil, fences: [Geofence] = [],
        identity: RunIdentity? = nil
    ) {
        self.traces = traces
        self.scenarios = scenarios
        self.seed = seed
        self.fences = fences
        self.identity = identity
    }

    /// Runs in the whole matrix: traces × scenarios.
    public var runCount: Int { traces.count * scenarios.count }

    /// The positions `shard` holds (all of them without one), increasing: every scenario of
    /// the traces it holds.
    public func positions(in shard: Shard?) -> [Int] {
        traces.indices.filter { shard?.holds($0) ?? true }.flatMap { trace in
            (trace * scenarios.count)..<((trace + 1) * scenarios.count)
        }
    }

    /// How many replays each trace takes: every scenario once, and an ideal run per
    /// `Comparison.Reference` and geofences.
    public var replaysPerTrace: Int { Plan(self).runs.count }

    /// How many replays `run(shard:)` makes: every run the shard holds and its ideal run, an
    /// ideal run shared by the scenarios of the same reference and geofences counted once.
    public func replayCount(shard: Shard? = nil) -> Int {
        replaysPerTrace * traces.indices.filter { shard?.holds($0) ?? true }.count
    }

    /// Replays the traces `shard` holds (all without one), each through every scenario and its
    /// ideal run, at most `jobs` replays at a time (`nil`: one per core). `progress` is called
    /// after each replay with the replays done and the total, from whichever thread ran it. The
    /// cells come back in position order whatever order the replays finished in. A shard's part
    /// (`MatrixReport.json`) can be merged only when `identity` is set: it is what `merge`
    /// compares between parts.
    ///
    /// Every run is kept, with every fix it recorded; `stream` hands each trace's runs over as
    /// soon as they are done instead, for matrices larger than memory.
    /// - Throws: `RunFailure` when a geofence is invalid or the engine under test failed.
    public func run(
        shard: Shard? = nil, jobs: Int? = nil, progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil
    ) throws(RunFailure) -> MatrixResult {
        let held = traces.indices.filter { shard?.holds($0) ?? true }
        let traces = traces
        var cells: [Cell] = []
        cells.reserveCapacity(held.count * scenarios.count)
        try stream(
            inputs: held.count, jobs: jobs, load: { [traces[held[$0]]] }, progress: progress,
            render: { cell, _ in cell }
        ) { input in
            for var cell in input.outputs {
                cell.traceIndex = held[input.input]
                cell.position = cell.traceIndex * scenarios.count + cell.scenarioIndex
                cells.append(cell)
            }
        }
        return MatrixResult(matrix: self, shard: shard, cells: cells)
    }

    /// The replays needed: every scenario once, and an ideal run per reference and geofences.
    struct Plan {
        var runs: [(scenario: Scenario, fences: [Geofence])] = []
        /// For each scenario, its run and its ideal run in `runs`.
        var scenarioRun: [Int] = []
        var idealRun: [Int] = []
        /// For each scenario, the name of its ideal run's row in the tables: `ideal`, or
        /// `ideal for NAME` after the first scenario it serves when that scenario's engine
        /// settings are not the default ones or another ideal run already has the name.
        var referenceNames: [String] = []

        /// An ideal run of the plan: the reference it replays, over the matrix's geofences
        /// (`ownFences` nil) or over the geofences that one scenario brings (its index).
        private struct Ideal: Equatable {
            var reference: Comparison.Reference
            var ownFences: Int?
        }

        init(_ matrix: Matrix) {
            // Each scenario is compared with the ideal run of its `Comparison.Reference` over
            // the same geofences; scenarios with equal references over the matrix's geofences
            // share that run.
            var ideals: [(ideal: Ideal, run: Int, name: String)] = []
            for (index, entry) in matrix.scenarios.enumerated() {
                var scenario = entry.scenario
                if let seed = matrix.seed { scenario.seed = seed }
                let fences = entry.fences ?? matrix.fences
                let reference = Comparison.Reference(of: scenario)
                let ideal = Ideal(reference: reference, ownFences: entry.fences == nil ? nil : index)
                if let shared = ideals.first(where: { $0.ideal == ideal }) {
                    idealRun.append(shared.run)
                    referenceNames.append(shared.name)
                } else {
                    runs.append((reference.scenario, fences))
                    var name = reference.rowName(firstComparedWith: scenario.name)
                    // Two distinct ideal runs never share a row's name: a scenario's own seed,
                    // fences or assumed accuracy make its ideal run its own, default engine or not.
                    if ideals.contains(where: { $0.name == name }) { name = "ideal for \(scenario.name)" }
                    ideals.append((ideal, runs.count - 1, name))
                    idealRun.append(runs.count - 1)
                    referenceNames.append(name)
                }
                runs.append((scenario, fences))
                scenarioRun.append(runs.count - 1)
            }
        }
    }
}

/// What `Matrix.run` returns: the runs of the matrix (or of one shard) in position order.
public struct MatrixResult: Sendable {
    /// The plan that ran.
    public var matrix: Matrix
    /// The shard that ran, or `nil` for the whole matrix.
    public var shard: Shard?
    /// Every run of the shard (of the matrix without one), in position order.
    public var cells: [Matrix.Cell]

    /// Each scenario with the metrics of its runs, in trace order: what the degradation table
    /// and the heatmap pool.
    public var metricsByScenario: [ScenarioMetrics] {
        matrix.scenarios.indices.map { index in
            ScenarioMetrics(
                scenario: matrix.scenarios[index].scenario.name,
                metrics: cells.filter { $0.scenarioIndex == index }.map(\.metrics))
        }
    }
}
