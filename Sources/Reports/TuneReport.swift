import Fleet
import Scenarios

/// What `tracesim tune` prints: a row per (scenario, swept values) with its objectives, its
/// constraints and its place on the Pareto front, and the chosen row as a scenario file.
public enum TuneReport {
    /// A right-aligned table (row number, scenario, swept values, objectives, other constrained
    /// metrics, constraint status, `*` on the front, dominated-by), a footer saying what the
    /// front minimises and maximises and which row is chosen, and the chosen setting as a
    /// scenario JSON snippet.
    public static func text(_ outcome: Tuning.Outcome) -> String {
        let shown = shownMetrics(outcome)
        let header =
            ["row", "scenario"] + outcome.sweeps.map { heading($0.parameter.name, $0.parameter.unit) }
            + shown.map { metric in
                let objective = outcome.objectives.first { $0.metric == metric }
                return metric.rawValue + (objective.map { $0.direction == .min ? " ↓" : " ↑" } ?? "")
            } + ["constraints", "front", "dominated by"]
        var rows: [[String]] = [header]
        for (index, row) in outcome.rows.enumerated() {
            let standing = outcome.standings[index]
            rows.append(
                ["\(index + 1)", row.scenarioName] + row.values.map(\.description)
                    + shown.map { format(outcome.value($0, row: index), $0) }
                    + [
                        standing.failed.isEmpty
                            ? (outcome.constraints.isEmpty ? "" : "met")
                            : "fails " + standing.failed.map(\.description).joined(separator: ", "),
                        standing.isOnFront ? "*" : "", dominators(standing.dominatedBy),
                    ])
        }
        var alignments = Array(repeating: TextTable.Alignment.right, count: header.count)
        alignments[1] = .left
        alignments[header.count - 3] = .left
        alignments[header.count - 1] = .left
        var table = TextTable(rows, alignments: alignments)
        table.rulesHeader = true
        return table.rendered + "\n" + footer(outcome).joined(separator: "\n")
    }

    /// The lines under the table.
    static func footer(_ outcome: Tuning.Outcome) -> [String] {
        let front = outcome.standings.filter(\.isOnFront).count
        let meeting = outcome.standings.filter(\.failed.isEmpty).count
        var lines = [
            "\(outcome.rows.count) row\(outcome.rows.count == 1 ? "" : "s") over \(outcome.traceCount) "
                + "trace\(outcome.traceCount == 1 ? "" : "s"); "
                + "\(meeting) meet every constraint, \(front) on the front.",
            "Front (*): rows meeting every constraint that no other such row beats on one objective without "
                + "losing on another, " + outcome.objectives.map(describe).joined(separator: ", ") + ".",
            "Reference: \(outcome.reference).",
        ]
        lines += inertLines(outcome) + pathWarningLines(outcome)
        if let chosen = outcome.chosen {
            let row = outcome.rows[chosen]
            let values = zip(outcome.sweeps, row.values).map { "\($0.parameter.name)=\($1)" }
            lines.append(
                "Chosen: row \(chosen + 1) (\(([row.scenarioName] + values).joined(separator: ", "))), on the front "
                    + "and best on \(outcome.objectives[0].metric.rawValue), ties broken by the next objectives.")
            lines.append("As a scenario file (tracesim replay --scenario FILE.json):")
            lines.append(scenarioSnippet(outcome, row: chosen))
        } else {
            lines.append("Chosen: none: no row meets every constraint.")
        }
        return lines
    }

    /// One line per inert sweep: its values gave identical measures on every row.
    static func inertLines(_ outcome: Tuning.Outcome) -> [String] {
        outcome.inertSweeps.map { index in
            let sweep = outcome.sweeps[index]
            return "Inert: \(sweep.parameter.name) (\(sweep.values.map(\.description).joined(separator: ", "))) gave "
                + "identical measures on every row: it moves nothing on these traces and scenarios."
        }
    }

    /// The rows whose pooled kept path runs beyond the trace's by more than
    /// `TraceWarning.pathCeiling`, with that ratio: fixes off the trace (reduced-accuracy ones)
    /// counted as kept. An objective maximising `tracePathRatio` would reward exactly these
    /// rows, so they are said loudly (issue 30 §1).
    static func rowsBeyondTrace(_ outcome: Tuning.Outcome) -> [(row: Int, ratio: Double)] {
        outcome.rows.indices.compactMap { index in
            guard let ratio = outcome.value(.tracePathRatio, row: index), ratio > TraceWarning.pathCeiling else {
                return nil
            }
            return (index, ratio)
        }
    }

    /// One `WARNING:` line per row of `rowsBeyondTrace`.
    static func pathWarningLines(_ outcome: Tuning.Outcome) -> [String] {
        rowsBeyondTrace(outcome).map { row, ratio in
            "WARNING: row \(row + 1) (\(outcome.rows[row].scenarioName)): kept path is \(Formatting.percent(ratio)) "
                + "of the trace's path (over \(Formatting.percent(TraceWarning.pathCeiling))): fixes off the trace "
                + "were counted as kept; bound it with --require \"tracePathRatio<=\(TraceWarning.pathCeiling)\"."
        }
    }

    /// `maximising recordedFixes`.
    static func describe(_ objective: Tuning.Objective) -> String {
        (objective.direction == .min ? "minimising " : "maximising ") + objective.metric.rawValue
    }

    /// The objectives' metrics, then the constrained metrics that are not objectives.
    static func shownMetrics(_ outcome: Tuning.Outcome) -> [Tuning.Metric] {
        var metrics = outcome.objectives.map(\.metric)
        for constraint in outcome.constraints where !metrics.contains(constraint.metric) {
            metrics.append(constraint.metric)
        }
        var unique: [Tuning.Metric] = []
        for metric in metrics where !unique.contains(metric) { unique.append(metric) }
        return unique
    }

    /// The first three dominating rows and how many more.
    static func dominators(_ rows: [Int]) -> String {
        let first = rows.prefix(3).map(String.init).joined(separator: ",")
        return rows.count > 3 ? first + " +\(rows.count - 3)" : first
    }

    static func heading(_ name: String, _ unit: String) -> String { unit.isEmpty ? name : "\(name) (\(unit))" }

    /// A metric's value as tables print it: counts whole, ratios to 3 places, seconds and
    /// metres to 1; `-` when absent.
    static func format(_ value: Double?, _ metric: Tuning.Metric) -> String {
        guard let value else { return "-" }
        switch metric.definition.unit {
        case .count: return Formatting.fixed(value, 0)
        case .ratio: return Formatting.fixed(value, 3)
        case .seconds, .meters: return Formatting.fixed(value, 1)
        }
    }

    /// One header line, then a line per row: the row number, scenario, swept values, every
    /// metric (empty when absent), whether it meets the constraints, the failed ones, whether it
    /// is on the front, the dominating rows (separated by spaces) and whether it is chosen.
    public static func csv(_ outcome: Tuning.Outcome) -> String {
        let header =
            ["row", "scenario"] + outcome.sweeps.map(\.parameter.name) + Tuning.Metric.allCases.map(\.rawValue) + [
                "meetsConstraints", "failedConstraints", "front", "dominatedBy", "chosen",
            ]
        var lines = [header.map(field).joined(separator: ",")]
        for (index, row) in outcome.rows.enumerated() {
            let standing = outcome.standings[index]
            let metrics = Tuning.Metric.allCases.map { metric in
                outcome.value(metric, row: index).map { JSONText.number(Formatting.rounded($0, 6)).rendered } ?? ""
            }
            let cells =
                ["\(index + 1)", row.scenarioName] + row.values.map(\.description) + metrics + [
                    standing.failed.isEmpty ? "true" : "false",
                    standing.failed.map(\.description).joined(separator: " "), standing.isOnFront ? "true" : "false",
                    standing.dominatedBy.map(String.init).joined(separator: " "),
                    outcome.chosen == index ? "true" : "false",
                ]
            lines.append(cells.map(field).joined(separator: ","))
        }
        return lines.joined(separator: "\n")
    }

    /// A CSV field, quoted when it holds a comma, quote or line break.
    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
