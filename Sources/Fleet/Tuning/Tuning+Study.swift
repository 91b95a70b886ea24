import Engine
import Geometry
import Scenarios
import SimulationCore
import Traces

extension Tuning {
    /// One row's settings: a scenario with the swept values applied to its engine.
    public struct RowSetting: Sendable {
        /// The scenario as run: its engine carries the swept values.
        public var scenario: Scenario
        /// The scenario's name as given, before tuning.
        public var scenarioName: String
        /// The geofences the row runs over.
        public var fences: [Geofence]
        /// The swept values, one per sweep.
        public var values: [SettingValue]
    }

    /// A trace to measure every row on, with the truth it is measured against, if any.
    public struct TraceInput: Sendable {
        public var trace: Trace
        public var truth: Trace?

        /// A trace and its truth.
        public init(_ trace: Trace, truth: Trace? = nil) {
            self.trace = trace
            self.truth = truth
        }
    }

    /// Rows (every scenario crossed with every combination of swept values) and the fixed
    /// reference they are all measured against: the `ideal` preset with the default engine
    /// settings, as `matrix` uses for its ideal run, so a swept setting never moves a ratio's
    /// denominator.
    public struct Study: Sendable {
        public var sweeps: [Sweep]
        public var rows: [RowSetting]
        /// The reference scenario: `ideal` with its default engine.
        public var reference: Scenario
        /// The geofences of the reference run.
        public var fences: [Geofence]
        /// The app code every run (the reference included) replays.
        public var engine: EngineUnderTest

        /// Rows of `scenarios` (each with the geofences it brings, or `fences`) crossed with
        /// every combination of `sweeps`, scenario by scenario, the last sweep varying fastest.
        public init(
            scenarios: [(scenario: Scenario, fences: [Geofence]?)], sweeps: [Sweep], fences: [Geofence] = [],
            engine: EngineUnderTest = .builtIn
        ) {
            var combinations: [[SettingValue]] = [[]]
            for sweep in sweeps { combinations = combinations.flatMap { prefix in sweep.values.map { prefix + [$0] } } }
            self.sweeps = sweeps
            rows = scenarios.flatMap { chosen in
                combinations.map { values in
                    var scenario = chosen.scenario
                    for (sweep, value) in zip(sweeps, values) { sweep.parameter.apply(value, to: &scenario) }
                    return RowSetting(
                        scenario: scenario, scenarioName: chosen.scenario.name, fences: chosen.fences ?? fences,
                        values: values)
                }
            }
            // The preset exists (`Scenario.presets`); its engine is reset so the reference stays the
            // default engine whatever a preset may carry.
            var ideal = Scenario.preset(named: "ideal") ?? Scenario.presets[0]
            ideal.engine = EngineConfiguration()
            reference = ideal
            self.fences = fences
            self.engine = engine
        }

        /// How many replays one trace takes: its reference run and one per row.
        public var replaysPerTrace: Int { rows.count + 1 }

        /// Measures every row on each of `traces` against the reference run of that trace (or
        /// its truth), at most `jobs` replays at a time (`nil`: one per core), and returns each
        /// row's pool over these traces. Pools are added in trace order whatever the number of
        /// jobs, so the figures do not depend on it. `progress` is told after each replay.
        /// - Throws: the failure of the first failing replay, in trace then row order.
        public func measure(
            _ traces: [TraceInput], jobs: Int? = nil, progress: (@Sendable () -> Void)? = nil
        ) throws(RunFailure) -> [Pool] {
            let measures = traces.map { TraceMeasures($0.trace) }
            let references = ParallelLoop.map(iterations: traces.count, width: jobs) { index in
                defer { progress?() }
                return Result { () throws(RunFailure) in
                    try ScenarioRunner.run(measures[index], reference, fences: fences, engine: engine)
                }
            }
            var runs: [ScenarioRun] = []
            for outcome in references { runs.append(try outcome.get()) }
            let referenceRuns = runs
            let referenceRoutes = referenceRuns.map { run in
                routeLength(run.recorder.acceptedPositions, indices: nil)
            }
            let truthLengths = traces.map { $0.truth.map { pathLength($0.fixes, every: 1) } }
            let measured = ParallelLoop.map(iterations: traces.count * rows.count, width: jobs) { item in
                defer { progress?() }
                let (index, row) = item.quotientAndRemainder(dividingBy: rows.count)
                return Result { () throws(RunFailure) in
                    let input = traces[index]
                    let setting = rows[row]
                    let run = try ScenarioRunner.run(
                        measures[index], setting.scenario, fences: setting.fences, engine: engine)
                    let metrics = Metrics(run, ideal: referenceRuns[index])
                    // Observed seconds: time coverage, like every time-based measure, leaves out
                    // the trace's unobserved time (`UnobservedTime`).
                    return Pool(
                        metrics, traceSeconds: metrics.observedSeconds,
                        truthLengthMeters: truthLengths[index],
                        errors: input.truth.map { errors(run.recorder, against: $0) },
                        route: (
                            routeLength(run.recorder.acceptedPositions, indices: run.recorder.recordedIndices),
                            referenceRoutes[index]
                        ))
                }
            }
            var pools = Array(repeating: Pool(), count: rows.count)
            for (item, outcome) in measured.enumerated() { pools[item % max(rows.count, 1)].add(try outcome.get()) }
            return pools
        }
    }

    /// The length of the path through `positions` (only those at `indices` when given).
    static func routeLength(_ positions: [Coordinate], indices: [UInt32]?) -> Double {
        var length = 0.0
        var previous: Coordinate?
        func visit(_ position: Coordinate) {
            if let previous { length += Geodesy.distanceMeters(previous, position) }
            previous = position
        }
        if let indices {
            for index in indices { visit(positions[Int(index)]) }
        } else {
            for position in positions { visit(position) }
        }
        return length
    }
}
