import Scenarios

extension Tuning {
    /// Where a row stands: the constraints it fails, or the rows that dominate it.
    public struct Standing: Sendable, Equatable {
        /// The constraints the row fails, in the order given; a failing row is off the front.
        public var failed: [Constraint] = []
        /// The numbers (from 1) of every row meeting the constraints that dominates this one:
        /// at least as good on every objective and better on one. Empty on the front.
        public var dominatedBy: [Int] = []

        /// On the front: meets every constraint and nothing dominates it.
        public var isOnFront: Bool { failed.isEmpty && dominatedBy.isEmpty }
    }

    /// The standing of every row, given each row's objective values (in objective order, `nil`
    /// for an absent value, which counts as worse than any value) and whether it meets each
    /// constraint, and the chosen row: on the front, best on the first objective, ties broken by
    /// the next objectives, then by row order. `nil` when no row meets the constraints.
    ///
    /// Rows with equal objective values do not dominate each other: both stay on the front.
    /// - Complexity: O(rows² × objectives).
    public static func front(
        values: [[Double?]], directions: [Direction], failed: [[Constraint]]
    ) -> (standings: [Standing], chosen: Int?) {
        let eligible = values.indices.filter { failed[$0].isEmpty }
        var standings = values.indices.map { Standing(failed: failed[$0]) }
        for row in eligible {
            standings[row].dominatedBy = eligible.filter { other in
                other != row && dominates(values[other], values[row], directions)
            }.map { $0 + 1 }
        }
        let onFront = eligible.filter { standings[$0].isOnFront }
        let chosen = onFront.min { lhs, rhs in
            for (index, direction) in directions.enumerated() {
                let order = compare(values[lhs][index], values[rhs][index], direction)
                if order != 0 { return order < 0 }
            }
            return lhs < rhs
        }
        return (standings, chosen)
    }

    /// Whether `a` dominates `b`.
    static func dominates(_ a: [Double?], _ b: [Double?], _ directions: [Direction]) -> Bool {
        var better = false
        for (index, direction) in directions.enumerated() {
            let order = compare(a[index], b[index], direction)
            if order > 0 { return false }
            if order < 0 { better = true }
        }
        return better
    }

    /// -1 when `a` is better than `b` in `direction`, 1 when worse, 0 when equal; absent is worst.
    static func compare(_ a: Double?, _ b: Double?, _ direction: Direction) -> Int {
        switch (a, b) {
        case (nil, nil): return 0
        case (nil, _): return 1
        case (_, nil): return -1
        case (let a?, let b?):
            if a == b { return 0 }
            return (a < b) == (direction == .min) ? -1 : 1
        }
    }
}
