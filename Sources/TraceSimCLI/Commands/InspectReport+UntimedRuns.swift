import Traces

extension InspectReport {
    /// `{"runs": R, "records": N, "timed": T}`: present on every trace so the key set is fixed.
    static func untimedRunsJSON(_ tally: UntimedRunTally) -> JSONText {
        .object([
            ("runs", .integer(tally.runs.count)), ("records", .integer(tally.records)),
            ("timed", .integer(tally.timed)),
        ])
    }

    /// The text row, only for a trace that has untimed runs, so other traces print as before.
    static func untimedRunsText(_ tally: UntimedRunTally, options: ImportOptions) -> String? {
        guard tally.runs.count > 0 else { return nil }
        let runs = tally.runs.count == 1 ? "1 run" : "\(tally.runs.count) runs"
        let label = tally.runs.firstLines.count == 1 ? "line" : "lines"
        let more = tally.runs.count > tally.runs.firstLines.count ? ", ..." : ""
        let first = tally.runs.firstLines.map(String.init).joined(separator: ", ")
        var text =
            "\(tally.records) records in \(runs) of one timestamp over more than 100 m (\(label) \(first)\(more))"
        guard let rate = options.assumedRate else { return text + "; not fixes: pass --assume-rate HZ to time them" }
        let hertz = rate == rate.rounded() ? String(Int(rate)) : String(rate)
        text += "; timed at \(hertz) Hz by --assume-rate"
        let untimed = tally.records - tally.timed
        return untimed > 0 ? text + ", except \(untimed) that would leave the clock's range" : text
    }
}
