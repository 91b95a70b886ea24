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

    /// `line 12, column 18: latitude minutes 60.0 is outside 0..<60`.
    static func problemText(_ error: TraceFormatError) -> String {
        var location = error.line.map { "line \($0)" } ?? "file"
        if let column = error.column { location += ", column \(column)" }
        return "\(location): \(error.problem.message)"
    }
}
