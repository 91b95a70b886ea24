import Engine
import Fleet
import Scenarios

extension TuneReport {
    /// The study as one JSON object (keys in this order, documented in `Documentation/TraceSim.docc/Tuning.md`):
    /// `schemaVersion`, `reference`, `traces`, `parameters`, `inertParameters` (swept settings
    /// whose values gave identical measures on every row), `objectives` (`metric`,
    /// `direction`), `constraints` (as written), `rows` (`row`, `scenario`, `values` keyed by
    /// parameter, `metrics` keyed by metric name with `null` when absent, `meetsConstraints`,
    /// `failedConstraints`, `front`, `dominatedBy`) and `chosen` (`row` and `scenario`, the
    /// scenario file snippet, or `null`).
    public static func json(_ outcome: Tuning.Outcome) -> String {
        let rows = outcome.rows.enumerated().map { index, row -> JSONText in
            let standing = outcome.standings[index]
            return .object([
                ("row", .integer(index + 1)), ("scenario", .string(row.scenarioName)),
                ("values", .object(zip(outcome.sweeps, row.values).map { ($0.parameter.name, json($1)) })),
                (
                    "metrics",
                    .object(
                        Tuning.Metric.allCases.map { metric in
                            (
                                metric.rawValue,
                                outcome.value(metric, row: index).map { .number(Formatting.rounded($0, 6)) } ?? .null
                            )
                        })
                ),
                ("meetsConstraints", .bool(standing.failed.isEmpty)),
                ("failedConstraints", .array(standing.failed.map { .string($0.description) })),
                ("front", .bool(standing.isOnFront)),
                ("dominatedBy", .array(standing.dominatedBy.map(JSONText.integer))),
            ])
        }
        let chosen: JSONText =
            outcome.chosen.map { index in
                .object([("row", .integer(index + 1)), ("scenario", scenarioObject(outcome, row: index))])
            } ?? .null
        return JSONText.object([
            ("schemaVersion", .integer(2)), ("reference", .string(outcome.reference)),
            ("traces", .integer(outcome.traceCount)),
            ("parameters", .array(outcome.sweeps.map { .string($0.parameter.name) })),
            ("inertParameters", .array(outcome.inertSweeps.map { .string(outcome.sweeps[$0].parameter.name) })),
            (
                "objectives",
                .array(
                    outcome.objectives.map {
                        .object([
                            ("metric", .string($0.metric.rawValue)), ("direction", .string($0.direction.rawValue)),
                        ])
                    })
            ),
            ("constraints", .array(outcome.constraints.map { .string($0.description) })),
            ("rows", .array(rows)), ("chosen", chosen),
            (
                "warnings",
                .array(
                    rowsBeyondTrace(outcome).map { row, ratio in
                        .object([
                            ("code", .string(TraceWarning.Code.pathBeyondTrace.rawValue)),
                            ("row", .integer(row + 1)), ("value", .number(Formatting.rounded(ratio, 4))),
                        ])
                    })
            ),
        ]).rendered
    }

    /// The chosen row as a scenario file `tracesim replay --scenario FILE` reads: the row's
    /// scenario whole (its phone, permissions, authorization flow and person, timeline and
    /// seed) with the swept values on its engine, every setting written
    /// (`ScenarioFileWriter`), so re-running the file reproduces the row. Should the row's
    /// scenario hold a state no scenario file key can hold, the summary says what is missing.
    public static func scenarioSnippet(_ outcome: Tuning.Outcome, row: Int) -> String {
        scenarioObject(outcome, row: row).rendered
    }

    static func scenarioObject(_ outcome: Tuning.Outcome, row index: Int) -> JSONText {
        let row = outcome.rows[index]
        let values = zip(outcome.sweeps, row.values).map { "\($0.parameter.name)=\($1)" }.joined(separator: ", ")
        let summary =
            "tracesim tune row \(index + 1): \(row.scenarioName)" + (values.isEmpty ? "" : " with \(values)")
        let name = "\(row.scenarioName)-tuned"
        let written = ScenarioFileWriter.write(row.scenario, name: name, summary: summary)
        guard !written.lossy.isEmpty else { return written.object }
        return ScenarioFileWriter.write(
            row.scenario, name: name,
            summary: summary + " (not reproduced exactly: " + written.lossy.joined(separator: ", ") + ")"
        ).object
    }

    /// Every setting of `configuration`, nested by key path as a scenario file's `engine`.
    static func engineObject(_ configuration: EngineConfiguration) -> JSONText {
        var members: [(String, JSONText)] = []
        var groups: [String: [(String, JSONText)]] = [:]
        var order: [String] = []
        for parameter in Tuning.parameters {
            guard let value = parameter.value(in: configuration) else { continue }
            let path = parameter.keyPath
            if path.count == 1 {
                members.append((path[0], json(value)))
            } else {
                if groups[path[0]] == nil {
                    order.append(path[0])
                    members.append((path[0], .null))
                }
                groups[path[0], default: []].append((path[1], json(value)))
            }
        }
        return .object(
            members.map { key, value in order.contains(key) ? (key, .object(groups[key] ?? [])) : (key, value) })
    }

    static func json(_ value: Tuning.SettingValue) -> JSONText {
        switch value {
        case .number(let number): .number(number)
        case .bool(let flag): .bool(flag)
        case .token(let token): .string(token)
        }
    }
}
