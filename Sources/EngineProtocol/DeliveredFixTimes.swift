import SimulationCore

/// The timestamps of the fixes delivered to an engine in one run, for checking that what it
/// accepted is one of them.
///
/// Fixes reach the engine in time order, queued ones included, so nearly every timestamp goes
/// at the end of a sorted array (8 bytes each); a fix delivered again out of order (a
/// significant change of an earlier fix) goes to a small set beside it.
struct DeliveredFixTimes {
    private var ordered: [Int64] = []
    private var others: Set<Int64> = []

    /// Notes a delivered fix's timestamp.
    /// - Complexity: O(1) amortized.
    mutating func insert(_ time: SimInstant) {
        let nanoseconds = time.nanosecondsSinceEpoch
        guard let last = ordered.last else {
            ordered.append(nanoseconds)
            return
        }
        if nanoseconds > last {
            ordered.append(nanoseconds)
        } else if nanoseconds < last {
            others.insert(nanoseconds)
        }
    }

    /// Whether a fix with this timestamp was delivered.
    /// - Complexity: O(1) for the fix delivered last (the usual case), O(log n) otherwise.
    func contains(_ time: SimInstant) -> Bool {
        let nanoseconds = time.nanosecondsSinceEpoch
        if ordered.last == nanoseconds { return true }
        var low = 0
        var high = ordered.count
        while low < high {
            let middle = (low + high) / 2
            if ordered[middle] < nanoseconds { low = middle + 1 } else { high = middle }
        }
        if low < ordered.count, ordered[low] == nanoseconds { return true }
        return others.contains(nanoseconds)
    }
}
