import Engine
import Scenarios
import SimulationCore

/// What TraceSim noticed about a run (`ScenarioRun.notes`), in every format, beside the engine's
/// diagnostics and never among them: a note is TraceSim's word, not the engine's, and does not
/// count against the engine's cap. Outputs of runs without notes carry no trace of this.
///
/// Notes read from saved runs (`tracesim summarize`) are outside text, so every format prints
/// them through `VisibleText.escapingControls`, one line each, as it does the diagnostics.
enum RunNotesReport {
    /// One line per note: `note: ` then the note and when it applies from (seconds from the
    /// trace's start).
    static func lines(_ run: ScenarioRun) -> [String] {
        run.notes.map {
            "note: \(VisibleText.escapingControls($0.message)) "
                + "(from +\(Formatting.fixed($0.time.seconds(since: run.traceStart), 1)) s)"
        }
    }

    /// The run's text lines after a blank line, empty without notes.
    static func text(_ run: ScenarioRun) -> String {
        let lines = lines(run)
        return lines.isEmpty ? "" : "\n\n" + lines.joined(separator: "\n")
    }

    /// `"notes": [{"message", "t"}]` for a run's JSON; nothing without notes, so the runs of
    /// earlier outputs keep their bytes.
    static func jsonMember(_ run: ScenarioRun) -> [(String, JSONText)] {
        guard !run.notes.isEmpty else { return [] }
        return [
            (
                "notes",
                .array(
                    run.notes.map {
                        .object([
                            ("message", .string($0.message)),
                            ("t", .number(Formatting.rounded($0.time.seconds(since: run.traceStart), 3))),
                        ])
                    })
            )
        ]
    }

    /// A matrix's summary of its runs' notes (each run's messages, runs in output order): each
    /// message once with how many runs it was noted in, in the order first seen. At most
    /// `maximumListedMessages` are listed; the rest are counted on one line. `message` writes a
    /// note as the format shows it (a Markdown code span, since saved runs are outside text).
    static func summaryLines(
        _ runs: [[String]], message: (String) -> String = VisibleText.escapingControls
    ) -> [String] {
        var totals: [(message: String, runs: Int)] = []
        var indexByMessage: [String: Int] = [:]
        for run in runs {
            for message in run {
                if let index = indexByMessage[message] {
                    totals[index].runs += 1
                } else {
                    indexByMessage[message] = totals.count
                    totals.append((message, 1))
                }
            }
        }
        let listed = totals.prefix(maximumListedMessages)
        var lines = listed.map {
            "note: \(message($0.message)), in \($0.runs) run\($0.runs == 1 ? "" : "s")"
        }
        if totals.count > listed.count {
            lines.append(
                "notes: \(totals.count - listed.count) more distinct notes not listed here; "
                    + "each run's own output lists its notes")
        }
        return lines
    }

    /// The most distinct notes a summary lists: TraceSim has a handful; saved runs from elsewhere
    /// could hold any number.
    static let maximumListedMessages = ClientDiagnostics.maximumMessages

    /// The run's notes for a page: a list after a heading, empty without notes.
    static func html(_ run: ScenarioRun) -> String {
        let lines = lines(run)
        guard !lines.isEmpty else { return "" }
        return "\n<h2>Notes</h2><ul class=\"formulas\">"
            + lines.map { "<li>\(HTMLReport.escape($0))</li>" }.joined() + "</ul>"
    }
}
