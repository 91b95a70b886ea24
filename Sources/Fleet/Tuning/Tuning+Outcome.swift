import Scenarios

extension Tuning {
    /// A finished study: every row's pooled measures, where it stands, and the chosen row.
    public struct Outcome: Sendable {
        public var sweeps: [Sweep]
        public var rows: [RowSetting]
        /// Each row's measures over every trace, errors sorted.
        public var pools: [Pool]
        public var objectives: [Objective]
        public var constraints: [Constraint]
        public var standings: [Standing]
        /// The index (from 0) of the chosen row; `nil` when no row meets the constraints.
        public var chosen: Int?
        /// What the rows were measured against, in words.
        public var reference: String
        /// How many traces were pooled.
        public var traceCount: Int

        /// Ranks `rows` by `objectives` among those meeting `constraints`.
        public init(
            study: Study, pools: [Pool], objectives: [Objective], constraints: [Constraint], hasTruth: Bool
        ) {
            sweeps = study.sweeps
            rows = study.rows
            self.pools = pools.map { pool in
                var finished = pool
                finished.finish()
                return finished
            }
            self.objectives = objectives
            self.constraints = constraints
            let values = self.pools.map { pool in objectives.map { pool.value(of: $0.metric) } }
            let failed = self.pools.map { pool in constraints.filter { !$0.isMet(by: pool.value(of: $0.metric)) } }
            (standings, chosen) = Tuning.front(values: values, directions: objectives.map(\.direction), failed: failed)
            reference =
                hasTruth
                ? "the truth trace: position errors against it, distanceRatio = odometer ÷ its path sampled at 1 s; "
                    + "the other ratios against the ideal preset with default engine settings"
                : "the ideal preset (Always + Precise) with default engine settings, run on each trace"
            traceCount = pools.first?.traces ?? 0
        }

        /// The value of objective or constraint `metric` for row `row`.
        public func value(_ metric: Metric, row: Int) -> Double? { pools[row].value(of: metric) }
    }
}
