import Engine
import Scenarios
import SimulationCore

/// What an engine under test reported beside its record (callbacks that reached a delegate
/// without a handler, protocol warnings), in every format. The built-in engine reports none,
/// so its outputs carry no trace of this.
enum DiagnosticsReport {
    /// One line per diagnostic: how often, what, and when first (seconds from the trace's start).
    static func lines(_ run: ScenarioRun) -> [String] {
        run.diagnostics.map {
            "\($0.count)× \($0.message) (first at +\(Formatting.fixed($0.firstTime.seconds(since: run.traceStart), 1)) s)"
        }
    }

    /// The run's text block, empty without diagnostics.
    static func text(_ run: ScenarioRun) -> String {
        let lines = lines(run)
        return lines.isEmpty ? "" : "\nengine diagnostics:\n" + lines.map { "  " + $0 }.joined(separator: "\n")
    }

    /// `"diagnostics": [...]` for a run's JSON, or nothing without diagnostics.
    static func jsonMember(_ run: ScenarioRun) -> [(String, JSONText)] {
        guard !run.diagnostics.isEmpty else { return [] }
        return [
            (
                "diagnostics",
                .array(
                    run.diagnostics.map {
                        .object([
                            ("message", .string($0.message)), ("count", .integer($0.count)),
                            ("firstT", .number(Formatting.rounded($0.firstTime.seconds(since: run.traceStart), 3))),
                        ])
                    })
            )
        ]
    }

    /// A matrix's summary: each message once, with its count over every run and how many runs
    /// reported it, in the order first seen (runs in output order); empty without any.
    static func summaryLines(_ runs: [ScenarioRun]) -> [String] {
        summaryLines(
            runs.map { $0.diagnostics.map { MatrixTable.DiagnosticCount(message: $0.message, count: $0.count) } })
    }

    /// `summaryLines` over each run's messages and counts.
    static func summaryLines(_ runs: [[MatrixTable.DiagnosticCount]]) -> [String] {
        var totals: [(message: String, count: Int, runs: Int)] = []
        for run in runs {
            for diagnostic in run {
                if let index = totals.firstIndex(where: { $0.message == diagnostic.message }) {
                    totals[index].count += diagnostic.count
                    totals[index].runs += 1
                } else {
                    totals.append((diagnostic.message, diagnostic.count, 1))
                }
            }
        }
        return totals.map {
            "engine diagnostic: \($0.count)× \($0.message), in \($0.runs) run\($0.runs == 1 ? "" : "s")"
        }
    }
}
