import Engine
import Scenarios
import SimulationCore

/// What an engine under test reported beside its record (callbacks that reached a delegate
/// without a handler, protocol warnings), in every format. The built-in engine reports none,
/// so its outputs carry no trace of this; TraceSim's own notes on a run are `RunNotesReport`'s.
///
/// The text is the engine's: every format prints it through `VisibleText.escapingControls`, so a
/// message is one line and its control characters are visible escapes (JSON escapes them
/// itself). A run keeps at most `ClientDiagnostics.maximumMessages` distinct messages; what it
/// dropped is said after them.
enum DiagnosticsReport {
    /// What one run reported: the messages it kept with their counts, and what it dropped.
    typealias RunDiagnostics = (kept: [MatrixTable.DiagnosticCount], dropped: DroppedDiagnostics)

    /// One line per diagnostic, errors first, then warnings, then information (the order first
    /// seen within each): its severity, how often, what, and when first (seconds from the
    /// trace's start). Optional callbacks without a handler are one information line, not one
    /// each (`unhandledCallbacksLine`). Then what was not kept, if anything.
    static func lines(_ run: ScenarioRun) -> [String] {
        let sorted = run.diagnostics.sortedBySeverity
        var lines: [String] = []
        var unhandled: [ClientDiagnostic] = []
        for diagnostic in sorted {
            if diagnostic.severity == .information, diagnostic.unhandledCallback != nil {
                unhandled.append(diagnostic)
                continue
            }
            lines.append(
                "\(diagnostic.severity.rawValue): \(diagnostic.count)× \(VisibleText.escapingControls(diagnostic.message)) "
                    + "(first at +\(Formatting.fixed(diagnostic.firstTime.seconds(since: run.traceStart), 1)) s)")
        }
        if let line = unhandledCallbacksLine(unhandled.map { ($0.message, $0.count) }) {
            lines.append("information: " + line)
        }
        guard let dropped = droppedLine(run.droppedDiagnostics) else { return lines }
        return lines + [dropped]
    }

    /// "N optional callbacks without a handler in TYPE: CALLBACK ×COUNT, …" over unhandled-callback
    /// messages and their counts, most frequent first (ties in the order given); `nil` for none.
    /// One line however many callbacks the app leaves to their defaults: in a trial, 294
    /// authorization callbacks buried the one line that explained the run.
    /// `runs`, when given, is how many runs reported each message (a matrix's summary), and
    /// `text` writes a name the engine chose (escaped; a code span in Markdown).
    static func unhandledCallbacksLine(
        _ messages: [(message: String, count: Int)], runs: [Int]? = nil,
        text: (String) -> String = VisibleText.escapingControls
    ) -> String? {
        var callbacks: [(name: String, count: Int, runs: Int)] = []
        var delegates: [String] = []
        for (offset, entry) in messages.enumerated() {
            guard let parts = ClientDiagnostic.unhandledCallback(in: entry.message) else { continue }
            if !delegates.contains(parts.delegate) { delegates.append(parts.delegate) }
            if let index = callbacks.firstIndex(where: { $0.name == parts.callback }) {
                callbacks[index].count = callbacks[index].count.addingSaturating(entry.count)
                callbacks[index].runs = max(callbacks[index].runs, runs?[offset] ?? 1)
            } else {
                callbacks.append((parts.callback, entry.count, runs?[offset] ?? 1))
            }
        }
        guard !callbacks.isEmpty else { return nil }
        let ordered = callbacks.enumerated().sorted {
            ($0.element.count, -$0.offset) > ($1.element.count, -$1.offset)
        }.map(\.element)
        let listed = ordered.map { callback in
            "\(text(callback.name)) ×\(callback.count)"
                + (runs == nil ? "" : " in \(callback.runs) run\(callback.runs == 1 ? "" : "s")")
        }
        return "\(callbacks.count) optional callback\(callbacks.count == 1 ? "" : "s") without a handler in "
            + delegates.map(text).joined(separator: ", ") + ": " + listed.joined(separator: ", ")
    }

    /// What a run did not keep, or `nil` when it kept everything.
    static func droppedLine(_ dropped: DroppedDiagnostics) -> String? {
        guard !dropped.isEmpty else { return nil }
        return "… and \(distinct(dropped)) more (\(dropped.occurrences) "
            + "time\(dropped.occurrences == 1 ? "" : "s")), not kept: a run keeps its first "
            + "\(ClientDiagnostics.maximumMessages) distinct messages"
    }

    private static func distinct(_ dropped: DroppedDiagnostics) -> String {
        (dropped.isLowerBound ? "at least " : "")
            + "\(dropped.messages) distinct message\(dropped.messages == 1 && !dropped.isLowerBound ? "" : "s")"
    }

    /// The run's text block, empty without diagnostics.
    static func text(_ run: ScenarioRun) -> String {
        let lines = lines(run)
        return lines.isEmpty ? "" : "\nengine diagnostics:\n" + lines.map { "  " + $0 }.joined(separator: "\n")
    }

    /// `"diagnostics": [...]` for a run's JSON, errors first, each with its `"severity"`
    /// (`"error"`, `"warning"` or `"information"`) and every message on its own (a program reading
    /// the JSON collapses as it likes), then `"droppedDiagnostics"` when the run dropped
    /// some; nothing without diagnostics.
    static func jsonMember(_ run: ScenarioRun) -> [(String, JSONText)] {
        var members: [(String, JSONText)] = []
        if !run.diagnostics.isEmpty {
            members.append(
                (
                    "diagnostics",
                    .array(
                        run.diagnostics.sortedBySeverity.map {
                            .object([
                                ("severity", .string($0.severity.rawValue)),
                                ("message", .string($0.message)), ("count", .integer($0.count)),
                                ("firstT", .number(Formatting.rounded($0.firstTime.seconds(since: run.traceStart), 3))),
                            ])
                        })
                ))
        }
        let dropped = run.droppedDiagnostics
        if !dropped.isEmpty {
            var counts: [(String, JSONText)] = [
                ("messages", .integer(dropped.messages)), ("occurrences", .integer(dropped.occurrences)),
            ]
            if dropped.isLowerBound { counts.append(("isLowerBound", .bool(true))) }
            members.append(("droppedDiagnostics", .object(counts)))
        }
        return members
    }

    /// A matrix's summary: each message once, with its severity, its count over every run and
    /// how many runs reported it, errors first and in the order first seen within a severity
    /// (runs in output order), optional callbacks without a handler on one line; empty without any.
    static func summaryLines(_ runs: [ScenarioRun]) -> [String] {
        summaryLines(
            runs.map {
                (
                    $0.diagnostics.map { MatrixTable.DiagnosticCount(message: $0.message, count: $0.count) },
                    $0.droppedDiagnostics
                )
            })
    }

    /// `summaryLines` over each run's messages, counts and dropped counts. At most
    /// `ClientDiagnostics.maximumMessages` messages are listed; the others, and what the runs
    /// dropped, are counted on a line each. `message` writes an engine's message as the format
    /// shows it: escaped, and in a code span in Markdown.
    static func summaryLines(
        _ runs: [RunDiagnostics], message: (String) -> String = VisibleText.escapingControls
    ) -> [String] {
        var totals: [(message: String, count: Int, runs: Int)] = []
        var indexByMessage: [String: Int] = [:]
        for run in runs {
            for diagnostic in run.kept {
                if let index = indexByMessage[diagnostic.message] {
                    totals[index].count = totals[index].count.addingSaturating(diagnostic.count)
                    totals[index].runs += 1
                } else {
                    indexByMessage[diagnostic.message] = totals.count
                    totals.append((diagnostic.message, diagnostic.count, 1))
                }
            }
        }
        let sorted = totals.enumerated().sorted {
            (ClientDiagnostic.severity(of: $0.element.message), $0.offset)
                < (ClientDiagnostic.severity(of: $1.element.message), $1.offset)
        }.map(\.element)
        let listed = sorted.prefix(ClientDiagnostics.maximumMessages)
        let collapsed = listed.filter {
            ClientDiagnostic.severity(of: $0.message) == .information
                && ClientDiagnostic.unhandledCallback(in: $0.message) != nil
        }
        let collapsedMessages = Set(collapsed.map(\.message))
        var lines = listed.filter { !collapsedMessages.contains($0.message) }.map {
            "engine diagnostic (\(ClientDiagnostic.severity(of: $0.message).rawValue)): \($0.count)× "
                + "\(message($0.message)), in \($0.runs) run\($0.runs == 1 ? "" : "s")"
        }
        if let line = unhandledCallbacksLine(
            collapsed.map { ($0.message, $0.count) }, runs: collapsed.map(\.runs), text: message)
        {
            lines.append("engine diagnostic (information): " + line)
        }
        let unlisted = sorted.dropFirst(listed.count)
        if !unlisted.isEmpty {
            let count = unlisted.map(\.count).saturatingSum()
            lines.append(
                "engine diagnostics: \(unlisted.count) more distinct messages (\(count) times) not listed here; "
                    + "each run's own output lists its messages")
        }
        let dropping = runs.filter { !$0.dropped.isEmpty }
        if !dropping.isEmpty {
            var total = DroppedDiagnostics()
            for run in dropping {
                total.messages = total.messages.addingSaturating(run.dropped.messages)
                total.occurrences = total.occurrences.addingSaturating(run.dropped.occurrences)
                total.isLowerBound = total.isLowerBound || run.dropped.isLowerBound
            }
            lines.append(
                "engine diagnostics not kept: \(distinct(total)) (\(total.occurrences) times) in "
                    + "\(dropping.count) run\(dropping.count == 1 ? "" : "s"), beyond each run's first "
                    + "\(ClientDiagnostics.maximumMessages)")
        }
        return lines
    }
}
