import Traces

extension InspectReport {
    /// The report with `"untimedRuns": {"runs", "records", "timed", "firstLines"}` appended,
    /// only for a trace that has untimed runs, so every other trace prints the same bytes.
    static func adding(_ tally: UntimedRunTally, to report: JSONText) -> JSONText {
        guard tally.runs.count > 0, case .object(let keys) = report else { return report }
        let runs: JSONText = .object([
            ("runs", .integer(tally.runs.count)), ("records", .integer(tally.records)),
            ("timed", .integer(tally.timed)), ("firstLines", .array(tally.runs.firstLines.map { .integer($0) })),
        ])
        return .object(keys + [("untimedRuns", runs)])
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
