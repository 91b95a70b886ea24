import Engine
import Fleet
import Scenarios

extension TuneReport {
    /// The study as one JSON object (keys in this order, documented in `Documentation/Tuning.md`):
    /// `schemaVersion`, `reference`, `traces`, `parameters`, `objectives` (`metric`,
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
            ("schemaVersion", .integer(1)), ("reference", .string(outcome.reference)),
            ("traces", .integer(outcome.traceCount)),
            ("parameters", .array(outcome.sweeps.map { .string($0.parameter.name) })),
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
        ]).rendered
    }

    /// The chosen row's settings as a scenario file `tracesim replay --scenario FILE` reads:
    /// `{"name", "summary", "engine"}` with every engine setting written, so the file does not
    /// depend on defaults that may change. It carries the engine only: the row's phone,
    /// permissions and timeline come from its scenario, which the summary names.
    public static func scenarioSnippet(_ outcome: Tuning.Outcome, row: Int) -> String {
        scenarioObject(outcome, row: row).rendered
    }

    static func scenarioObject(_ outcome: Tuning.Outcome, row index: Int) -> JSONText {
        let row = outcome.rows[index]
        let values = zip(outcome.sweeps, row.values).map { "\($0.parameter.name)=\($1)" }.joined(separator: ", ")
        return .object([
            ("name", .string("\(row.scenarioName)-tuned")),
            (
                "summary",
                .string(
                    "tracesim tune row \(index + 1): the engine of \(row.scenarioName)"
                        + (values.isEmpty ? "" : " with \(values)") + " (phone and permissions not included)")
            ),
            ("engine", engineObject(row.scenario.engine)),
        ])
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
