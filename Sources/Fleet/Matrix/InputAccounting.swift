import SimulationCore

/// Which of a part's inputs its runs account for, kept as the runs are read, so that the part's
/// closing record can be checked against them, or, when there is none, the first input the
/// part does not account for can be named.
///
/// Runs come in input order (`PartRunOrder` checks it), so only the inputs passed over without
/// a run are kept: what a whole part lists as skipped or failed.
package struct InputAccounting {
    private let paths: [String]
    private let shard: Shard?
    /// The input of the last run, and its trace.
    private var last: (input: Int, trace: String)?
    /// The inputs with runs, and the traces they gave.
    private var read = 0
    private var traces = 0
    /// The inputs this part holds that were passed over without a run, in order.
    private var passedOver: [Int] = []

    /// The accounting of `shard` (the whole run without one) of a run of `paths`.
    package init(paths: [String], shard: Shard?) {
        self.paths = paths
        self.shard = shard
    }

    /// Counts a run of `trace`, from `input`.
    package mutating func record(input: Int, trace: String) {
        guard let last else {
            passedOver += held(from: firstHeld, to: input)
            (read, traces) = (1, 1)
            self.last = (input, trace)
            return
        }
        if input != last.input {
            passedOver += held(from: next(after: last.input), to: input)
            read += 1
            traces += 1
        } else if trace != last.trace {
            traces += 1
        }
        self.last = (input, trace)
    }

    /// The first input the runs read so far do not account for, without a closing record: the
    /// first passed over without a run, else the first after the last with runs; `nil` when every
    /// input has runs.
    package var firstUnaccounted: Int? {
        if let first = passedOver.first { return first }
        let after = last.map { next(after: $0.input) } ?? firstHeld
        return after < paths.count ? after : nil
    }

    /// Why `record` does not account for exactly the inputs the runs did, or `nil` when it does.
    package func mismatch(with record: Matrix.ClosingRecord) -> String? {
        let step = shard?.count ?? 1
        let heldCount = firstHeld < paths.count ? (paths.count - firstHeld + step - 1) / step : 0
        if record.inputs != heldCount {
            return
                "accounts for \(record.inputs) input\(record.inputs == 1 ? "" : "s"), but the part holds \(heldCount)"
        }
        if record.read != read {
            return
                "says \(record.read) input\(record.read == 1 ? " was" : "s were") read, but the runs come from \(read)"
        }
        if record.traces != traces {
            return "says the inputs gave \(record.traces) trace\(record.traces == 1 ? "" : "s"), but the runs are of "
                + "\(traces)"
        }
        for entry in record.skipped + record.failed {
            guard entry.input < paths.count, shard?.holds(entry.input) ?? true else {
                return "lists input \(entry.input + 1), which is not one of the part's"
            }
            guard entry.path == paths[entry.input] else {
                return
                    "lists input \(entry.input + 1) as '\(VisibleText.quoted(entry.path))', but the identity names it "
                    + "'\(VisibleText.quoted(paths[entry.input]))'"
            }
        }
        let listed = (record.skipped + record.failed).map(\.input).sorted()
        let withoutRuns = passedOver + held(from: last.map { next(after: $0.input) } ?? firstHeld, to: paths.count)
        guard listed != withoutRuns else { return nil }
        // The first input on one side only, or listed twice.
        for (here, there) in zip(listed, withoutRuns) where here != there {
            let input = min(here, there)
            return here < there
                ? "lists input \(input + 1) '\(VisibleText.quoted(paths[input]))' as skipped or failed, but it has runs, or is listed twice"
                : "does not account for input \(input + 1) '\(VisibleText.quoted(paths[input]))', which has no runs"
        }
        let input = listed.count > withoutRuns.count ? listed[withoutRuns.count] : withoutRuns[listed.count]
        return listed.count > withoutRuns.count
            ? "lists input \(input + 1) '\(VisibleText.quoted(paths[input]))' as skipped or failed, but it has runs, or is listed twice"
            : "does not account for input \(input + 1) '\(VisibleText.quoted(paths[input]))', which has no runs"
    }

    private var firstHeld: Int { shard.map { $0.index - 1 } ?? 0 }

    private func next(after input: Int) -> Int { input + (shard?.count ?? 1) }

    /// The inputs this part holds in `start..<end`, where `start` is one of them.
    private func held(from start: Int, to end: Int) -> [Int] {
        guard start < end else { return [] }
        return Array(stride(from: start, to: end, by: shard?.count ?? 1))
    }
}
