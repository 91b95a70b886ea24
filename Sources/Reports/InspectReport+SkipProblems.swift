import Traces

/// What `inspect` says about records skipped for an impossible field: the first one's place
/// and problem, which the counts and line numbers alone would not tell.
extension InspectReport {
    /// What the first record skipped for an impossible field had wrong, by reason; only
    /// present when there is one, so traces without such records keep their exact output.
    static func problems(_ diagnostics: ImportDiagnostics) -> [(String, JSONText)] {
        let problems = diagnostics.sortedSkips.compactMap { skip in
            diagnostics.firstProblems[skip.reason].map { (skip.reason.rawValue, JSONText.string(problemText($0))) }
        }
        return problems.isEmpty ? [] : [("firstProblems", .object(problems))]
    }

    /// Where skipped records are and what the first had wrong: ` (line 12, column 18: latitude
    /// minutes 60.0 is outside 0..<60)` for one record, ` (lines 12, 40); the first at column
    /// 18: …` for several.
    static func skippedPlaceText(_ tally: LineTally, _ first: TraceFormatError) -> String {
        let what = first.column.map { "column \($0): \(first.problem.message)" } ?? first.problem.message
        if tally.count == 1, let line = tally.firstLines.first { return " (line \(line), \(what))" }
        return linesText(tally) + "; the first at \(what)"
    }

    /// `line 12, column 18: latitude minutes 60.0 is outside 0..<60`.
    static func problemText(_ error: TraceFormatError) -> String {
        var location = error.line.map { "line \($0)" } ?? "file"
        if let column = error.column { location += ", column \(column)" }
        return "\(location): \(error.problem.message)"
    }
}
