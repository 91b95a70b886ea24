import Scenarios

extension Tuning.Outcome {
    /// The sweeps (indices into `sweeps`) whose values moved nothing: on every group of rows
    /// that differ only in that sweep's value (same scenario, same other values), every value
    /// gave the same pooled measures, bit for bit. Such a setting is dead on these traces and
    /// scenarios (never read, or never reached): tuning it picks among identical rows. A sweep
    /// of one value is never called inert: it was not varied, nor is any sweep over no trace:
    /// empty rows are alike because nothing was measured.
    public var inertSweeps: [Int] {
        guard !rows.isEmpty, traceCount > 0 else { return [] }
        let combinations = sweeps.reduce(1) { $0 * $1.values.count }
        guard combinations > 0 else { return [] }
        return sweeps.indices.filter { sweep in
            guard sweeps[sweep].values.count > 1 else { return false }
            // Rows are scenario-major with the last sweep varying fastest, so the row with this
            // sweep at its first value is `stride` rows per value step back.
            let stride = sweeps[(sweep + 1)...].reduce(1) { $0 * $1.values.count }
            let count = sweeps[sweep].values.count
            return rows.indices.allSatisfy { row in
                let position = (row % combinations) / stride % count
                return pools[row] == pools[row - position * stride]
            }
        }
    }
}
