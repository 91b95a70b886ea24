extension Int {
    /// `self + other`, held at `Int.max` (or `Int.min`) instead of trapping on overflow.
    ///
    /// Counts read back from saved runs are each bounded (at most 9e15), but a file may hold any
    /// number of runs, so their sum is not: a crafted file of a thousand runs would otherwise stop
    /// `summarize` with a trap. A total that reaches `Int.max` prints as that number: no real
    /// matrix comes near it.
    package func addingSaturating(_ other: Int) -> Int {
        let (sum, overflowed) = addingReportingOverflow(other)
        guard overflowed else { return sum }
        return other > 0 ? .max : .min
    }
}

extension Sequence<Int> {
    /// The sum of the counts, held at `Int.max` rather than trapping (see `addingSaturating`).
    package func saturatingSum() -> Int { reduce(0) { $0.addingSaturating($1) } }
}
