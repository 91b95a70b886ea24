import Engine
import Geometry
import SimulationCore
import Synchronization
import Traces

/// The main job: every trace through every scenario, each run compared with the ideal run of
/// the same trace, seed and geofences: what each permission level costs.
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
        /// `trace × scenarios.count + scenario`: the order every output follows.
        public var position: Int
        /// Index in `Matrix.traces`.
        public var traceIndex: Int
        /// Index in `Matrix.scenarios`.
        public var scenarioIndex: Int
        /// The scenario's run.
        public var run: ScenarioRun
        /// The ideal run of the same trace, seed and geofences.
        public var ideal: ScenarioRun
        /// `run` measured against `ideal`.
        public var metrics: Metrics
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

    /// The positions `shard` holds (all of them without one), increasing.
    public func positions(in shard: Shard?) -> [Int] {
        guard let shard else { return Array(0..<runCount) }
        // Positions K-1, K-1+N, K-1+2N...: every shard gets a spread of traces and scenarios.
        return Array(stride(from: shard.index - 1, to: runCount, by: shard.count))
    }

    /// How many replays `run(shard:)` makes: every run the shard holds and its ideal run, an
    /// ideal run shared by the scenarios of the same seed and geofences counted once.
    public func replayCount(shard: Shard? = nil) -> Int {
        let plan = Plan(self)
        return plan.runs.isEmpty ? 0 : plan.replays(for: positions(in: shard), scenarioCount: scenarios.count).count
    }

    /// Replays the runs `shard` holds (all without one), each with its ideal run, at most `jobs`
    /// at a time (`nil`: one per core). `progress` is called after each replay with the replays
    /// done and the total, from whichever thread ran it. The cells come back in position order
    /// whatever order the replays finished in. A shard's part (`MatrixReport.json`) can be
    /// merged only when `identity` is set: it is what `merge` compares between parts.
    /// - Throws: `RunFailure` when a geofence is invalid or the engine under test failed.
    public func run(
        shard: Shard? = nil, jobs: Int? = nil, progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil
    ) throws(RunFailure) -> MatrixResult {
        let plan = Plan(self)
        guard !plan.runs.isEmpty else { return MatrixResult(matrix: self, shard: shard, cells: []) }
        let positions = positions(in: shard)
        let replays = plan.replays(for: positions, scenarioCount: scenarios.count)
        let done = Atomic<Int>(0)
        let traces = traces
        let engine = engine
        // A failed run fails the matrix, so the replays not yet started are skipped: an engine
        // that cannot start would otherwise be tried (and timed out) once per run. Of the
        // failures that did happen, the first in replay order is thrown.
        let firstFailure = Mutex<(job: Int, failure: RunFailure)?>(nil)
        let outcomes = ParallelLoop.map(iterations: replays.count, width: jobs) { job -> ScenarioRun? in
            guard firstFailure.withLock({ $0 == nil }) else { return nil }
            let (trace, run) = replays[job].quotientAndRemainder(dividingBy: plan.runs.count)
            do throws(RunFailure) {
                let result = try ScenarioRunner.run(
                    traces[trace].trace, plan.runs[run].scenario, fences: plan.runs[run].fences, engine: engine,
                    traceName: traces[trace].name)
                progress?(done.add(1, ordering: .relaxed).newValue, replays.count)
                return result
            } catch {
                firstFailure.withLock { first in
                    if first.map({ job < $0.job }) ?? true { first = (job, error) }
                }
                return nil
            }
        }
        if let first = firstFailure.withLock({ $0 }) { throw first.failure }
        let finished = Dictionary(uniqueKeysWithValues: zip(replays, outcomes))
        var cells: [Cell] = []
        cells.reserveCapacity(positions.count)
        for position in positions {
            let (trace, scenario) = position.quotientAndRemainder(dividingBy: scenarios.count)
            guard let scenarioRun = finished[trace * plan.runs.count + plan.scenarioRun[scenario]] ?? nil,
                let idealRun = finished[trace * plan.runs.count + plan.idealRun[scenario]] ?? nil
            else { continue }
            cells.append(
                Cell(
                    position: position, traceIndex: trace, scenarioIndex: scenario, run: scenarioRun, ideal: idealRun,
                    metrics: Metrics(scenarioRun, ideal: idealRun)))
        }
        return MatrixResult(matrix: self, shard: shard, cells: cells)
    }

    /// The replays needed: every scenario once, and an ideal run per seed and geofences.
    fileprivate struct Plan {
        var runs: [(scenario: Scenario, fences: [Geofence])] = []
        /// For each scenario, its run and its ideal run in `runs`.
        var scenarioRun: [Int] = []
        var idealRun: [Int] = []

        init(_ matrix: Matrix) {
            guard let idealPreset = Scenario.preset(named: "ideal") else { return }
            // Every scenario is compared with an ideal run of the same seed, geofences and engine
            // settings, so the ratios measure the permission level alone (a custom engine's
            // ideal run is that engine's); scenarios sharing all three share that run. The
            // countermeasures against suspension are left out of the ideal run: they are what
            // a scenario pays for in GPS time, so the reference must not pay it too.
            var idealKeys: [String: Int] = [:]
            for (index, entry) in matrix.scenarios.enumerated() {
                var scenario = entry.scenario
                if let seed = matrix.seed { scenario.seed = seed }
                let fences = entry.fences ?? matrix.fences
                let idealEngine = Self.idealEngine(for: scenario.engine)
                let key =
                    "\(scenario.seed)/" + (entry.fences == nil ? "shared" : String(index)) + "/"
                    + String(describing: idealEngine)
                if let existing = idealKeys[key] {
                    idealRun.append(existing)
                } else {
                    var ideal = idealPreset
                    ideal.seed = scenario.seed
                    ideal.engine = idealEngine
                    runs.append((ideal, fences))
                    idealKeys[key] = runs.count - 1
                    idealRun.append(runs.count - 1)
                }
                runs.append((scenario, fences))
                scenarioRun.append(runs.count - 1)
            }
        }

        /// The engine of a scenario's ideal run: the scenario's own, without `preventSuspend` and
        /// the heartbeat.
        static func idealEngine(for engine: EngineConfiguration) -> EngineConfiguration {
            var ideal = engine
            ideal.preventSuspend = EngineConfiguration().preventSuspend
            ideal.heartbeatIntervalSeconds = EngineConfiguration().heartbeatIntervalSeconds
            return ideal
        }

        /// `trace × runs.count + run` for every replay the positions need, increasing.
        func replays(for positions: [Int], scenarioCount: Int) -> [Int] {
            var needed = Set<Int>()
            for position in positions {
                let (trace, scenario) = position.quotientAndRemainder(dividingBy: scenarioCount)
                needed.insert(trace * runs.count + scenarioRun[scenario])
                needed.insert(trace * runs.count + idealRun[scenario])
            }
            return needed.sorted()
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

    /// The reference rows: each ideal run measured against itself, in trace order, so a table
    /// can show what 100 % is. Scenarios whose ideal runs measure the same (a different engine
    /// setting that changes nothing in the foreground) share one row named `ideal`; when they
    /// differ, each row names the first scenario it is the reference of. None when the matrix
    /// runs the `ideal` preset itself and it measures the same.
    public var idealMetrics: [ScenarioMetrics] {
        let plan = Matrix.Plan(matrix)
        var rows: [(first: Int, metrics: [Metrics])] = []
        var seenRuns = Set<Int>()
        for index in matrix.scenarios.indices where seenRuns.insert(plan.idealRun[index]).inserted {
            let metrics = cells.filter { $0.scenarioIndex == index }.map { Metrics($0.ideal, ideal: $0.ideal) }
            guard !metrics.isEmpty, !rows.contains(where: { $0.metrics == metrics }) else { continue }
            rows.append((index, metrics))
        }
        // `--scenarios ideal,...` already has the row.
        if rows.count == 1, let named = matrix.scenarios.firstIndex(where: { $0.scenario.name == "ideal" }),
            cells.filter({ $0.scenarioIndex == named }).map(\.metrics) == rows[0].metrics
        {
            return []
        }
        return rows.map { row in
            ScenarioMetrics(
                scenario: rows.count == 1 || usesDefaultEngine(row.first)
                    ? "ideal" : "ideal for \(matrix.scenarios[row.first].scenario.name)",
                metrics: row.metrics)
        }
    }

    /// Whether the scenario at `index` is compared with the built-in engine's default ideal run.
    private func usesDefaultEngine(_ index: Int) -> Bool {
        String(describing: Matrix.Plan.idealEngine(for: matrix.scenarios[index].scenario.engine))
            == String(describing: EngineConfiguration())
    }

    /// Each trace with a row per scenario holding that trace's run alone (`matrix --per-trace`),
    /// and its reference rows first.
    public var metricsByTrace: [(trace: String, ideal: [ScenarioMetrics], scenarios: [ScenarioMetrics])] {
        let ideal = idealMetrics
        let tracesRun = Array(Set(cells.map(\.traceIndex))).sorted()
        return tracesRun.enumerated().map { offset, traceIndex in
            let here = cells.filter { $0.traceIndex == traceIndex }
            return (
                matrix.traces[traceIndex].name,
                ideal.compactMap { row in
                    row.metrics.indices.contains(offset)
                        ? ScenarioMetrics(scenario: row.scenario, metrics: [row.metrics[offset]]) : nil
                },
                here.map {
                    ScenarioMetrics(scenario: matrix.scenarios[$0.scenarioIndex].scenario.name, metrics: [$0.metrics])
                }
            )
        }
    }
}
