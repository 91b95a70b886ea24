import Device
import Engine
import Fleet
import Scenarios
import SimulationCore

/// How runs are printed: the stable JSON object per run and the degradation table.
public enum RunReport {
    /// The `schemaVersion` of run JSON and matrix JSON: bumped when a key changes meaning or
    /// disappears. 2: `departureDelaySeconds` and `arrivalDelaySeconds` count a departure only
    /// at the first fix recorded while moving (an app that receives no location never
    /// departs); added the pooled table's sums (`idealAcceptedFixes`, `coveredSeconds`,
    /// `idealCoveredSeconds`, `idealDistanceMeters`, `idealGpsOnSeconds`) and the run's
    /// `authorization` timeline. 3 (`Matrix.schemaVersion`, which parts are read against): JSON
    /// Lines end with a closing record, and a part's JSON with an `end`. 4: every run is
    /// measured against the replayed trace too (`tracePathRatio`, `traceTimeCoverage` and their
    /// sums), the position errors are filled against the trace without a truth and the run
    /// says which (`positionErrorReference`), and a run may carry `warnings`. 5: every
    /// time-based metric leaves out the trace's unobserved time (`UnobservedTime`), and the
    /// metrics carry `gpsHoursPerObservedHour`, `observedSeconds`, `unobservedSeconds` and
    /// `travelledUnobservedSeconds`.
    public static let schemaVersion = Matrix.schemaVersion

    /// One run as the documented JSON object (`replay --format json`, one element of a matrix's
    /// `runs`), times in seconds from the trace's first fix. `trace` is the name the object gives.
    public static func json(trace: String, run: ScenarioRun, metrics: Metrics) -> String {
        jsonValue(trace: trace, run: run, metrics: metrics).rendered
    }

    /// `json` as a value, for documents that hold runs (the matrix JSON).
    package static func jsonValue(
        trace: String, run: ScenarioRun, metrics unrounded: Metrics, reference: ReferenceMetrics? = nil
    ) -> JSONText {
        let start = run.traceStart
        func seconds(_ instant: SimInstant) -> JSONText { .number(rounded(instant.seconds(since: start), 3)) }
        let metrics = roundedAsWritten(unrounded)
        let metricsObject: JSONText = .object(MetricDefinition.run.map { ($0.name, $0.json(in: metrics)) })
        // A matrix run also says what its ideal run measured, so saved runs alone can print
        // the tables' ideal rows (`tracesim summarize`).
        let referenceMember: [(String, JSONText)] =
            reference.map { reference in
                let reference = roundedAsWritten(reference)
                return [
                    (
                        "reference",
                        .object([
                            ("name", .string(reference.name)), ("maxGapSeconds", .number(reference.maxGapSeconds)),
                            ("rejectedFixes", .integer(reference.rejectedFixes)),
                            ("departed", .bool(reference.departed)),
                        ])
                    )
                ]
            } ?? []
        return .object(
            [
                ("trace", .string(trace)),
                ("scenario", .string(run.scenario)),
                ("seed", .integer(Int(truncatingIfNeeded: run.seed))),
                ("flowSeconds", .number(rounded(run.flowSeconds, 3))),
                ("metrics", metricsObject),
            ]
                + traceReferenceMembers(scenario: run.scenario, ideal: reference?.name ?? "ideal", metrics: metrics)
                + referenceMember + [
                    (
                        "lifecycle",
                        .array(
                            run.lifecycle.map {
                                .object([
                                    ("t", seconds($0.time)), ("state", .string($0.phase.rawValue)),
                                    ("screenLocked", .bool($0.isScreenLocked)),
                                ])
                            })
                    ),
                    (
                        "lifecycleSeconds",
                        .object(run.secondsByPhase.map { ($0.phase.rawValue, .number(rounded($0.seconds, 3))) })
                    ),
                    ("deliveredTimes", .array(run.deliveryTimes.map(seconds))),
                    ("promptLog", PermissionsReport.promptLog(run.promptLog, since: start)),
                    ("authorization", .array(run.authorization.map { authorization($0, seconds: seconds) })),
                ] + DeliveryReport.jsonMember(run) + RunNotesReport.jsonMember(run)
                + AuthorizationMarkReport.jsonMember(run)
                + DiagnosticsReport.jsonMember(run))
    }

    /// What the run's position errors were measured against (`"truth"`, `"trace"` or `null`),
    /// and its warnings against the trace, when it has any (`TraceWarning`).
    private static func traceReferenceMembers(scenario: String, ideal: String, metrics: Metrics)
        -> [(String, JSONText)]
    {
        [("positionErrorReference", metrics.positionErrorReference.map { .string($0.rawValue) } ?? .null)]
            + TraceWarningReport.jsonMember(TraceWarning.warnings(run: metrics, scenario: scenario, ideal: ideal))
    }

    /// `metrics` with every value rounded as the run JSON writes it (each metric to its
    /// `MetricDefinition.writtenDigits`), so what a table computes
    /// from a run in memory and from its saved JSON is the same.
    package static func roundedAsWritten(_ metrics: Metrics) -> Metrics {
        var metrics = metrics
        for metric in MetricDefinition.run { metric.roundAsWritten(&metrics) }
        return metrics
    }

    /// `reference` rounded as the run JSON writes it.
    package static func roundedAsWritten(_ reference: ReferenceMetrics) -> ReferenceMetrics {
        var reference = reference
        reference.maxGapSeconds = rounded(reference.maxGapSeconds, 3)
        return reference
    }

    /// One row of the authorization timeline: `{"t", "event", ...}` with what the event carries.
    static func authorization(_ change: AuthorizationChange, seconds: (SimInstant) -> JSONText) -> JSONText {
        var members: [(String, JSONText)] = [("t", seconds(change.time)), ("event", .string(change.name))]
        switch change.kind {
        case .location(let status, let accuracy, let provisional):
            members += [("status", .string(status.name)), ("accuracy", .string(accuracy.name))]
            if provisional { members.append(("provisional", .bool(true))) }
        case .motion(let status): members.append(("status", .string(PermissionsReport.motionName(status))))
        case .woken(let reason): if let reason { members.append(("reason", .string(reason.rawValue))) }
        case .suspended, .allowOnceLapsed: break
        case .launched(let reason, let inBackground):
            members += [("reason", .string(reason.rawValue)), ("inBackground", .bool(inBackground))]
        case .terminated(let rule): members.append(("rule", .string(rule.rawValue)))
        }
        return .object(members)
    }

    /// One run for a terminal (`replay --format text`): a line naming the trace, scenario and
    /// seed, the run's row of the degradation table, the position error against the truth (when
    /// one was given) or the trace, how the app was handed its locations (`deliveries:`), the warnings against the trace, TraceSim's notes on the run,
    /// and what the engine under test reported, when it did.
    public static func text(trace: String, run: ScenarioRun, metrics: Metrics) -> String {
        var text =
            "\(trace) · \(run.scenario) · seed \(run.seed)\n"
            + table([ScenarioMetrics(scenario: run.scenario, metrics: [metrics])])
        if let median = metrics.positionErrorMedianMeters, let p95 = metrics.positionErrorP95Meters {
            text +=
                "\nposition error against the \((metrics.positionErrorReference ?? .trace).rawValue): "
                + "median \(Formatting.fixed(median, 2)) m, p95 \(Formatting.fixed(p95, 2)) m"
        }
        text += "\n" + DeliveryReport.line(run)
        return text + TraceWarningReport.text(TraceWarning.warnings(run: metrics, scenario: run.scenario))
            + RunNotesReport.text(run) + DiagnosticsReport.text(run)
    }

    /// The degradation table: a row per scenario, pooled over traces as `MetricsSummary` says
    /// (ratios are sums over sums, GPS time too: the battery cost; the gap is the median over
    /// traces of each trace's longest gap).
    public static func table(_ rows: [ScenarioMetrics]) -> String {
        let lines = tableCells(rows)
        var table = TextTable(lines, alignments: [.left] + Array(repeating: .right, count: lines[0].count - 1))
        table.rulesHeader = true
        return table.rendered
    }

    /// The degradation table as a Markdown table, for a pull request or a design review.
    public static func markdownTable(_ rows: [ScenarioMetrics]) -> String {
        let lines = tableCells(rows)
        let alignment = "|" + lines[0].indices.map { $0 == 0 ? "---" : "---:" }.joined(separator: "|") + "|"
        let rendered = lines.map { cells in
            "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |"
        }
        return ([rendered[0], alignment] + rendered.dropFirst()).joined(separator: "\n")
    }

    /// A run as a line of the CSV names it.
    public struct Row: Sendable {
        /// The trace's name.
        public var trace: String
        /// The scenario's name.
        public var scenario: String
        /// The seed the run used.
        public var seed: UInt64
        /// The run against its ideal run.
        public var metrics: Metrics

        /// A row.
        public init(trace: String, scenario: String, seed: UInt64, metrics: Metrics) {
            self.trace = trace
            self.scenario = scenario
            self.seed = seed
            self.metrics = metrics
        }
    }

    /// One CSV row per trace and scenario with every measure (`MetricDefinition.measures`);
    /// empty cells are `null`s.
    public static func csv(_ rows: [Row]) -> String {
        let measures = MetricDefinition.measures
        var lines = [(["trace", "scenario", "seed"] + measures.map(\.name)).joined(separator: ",")]
        for row in rows {
            let values = measures.map { metric in
                metric.value(in: row.metrics).map { JSONText.number(rounded($0, 6)).rendered } ?? ""
            }
            lines.append(([quoted(row.trace), quoted(row.scenario), String(row.seed)] + values).joined(separator: ","))
        }
        return lines.joined(separator: "\n")
    }

    /// RFC 4180 quoting when a field needs it.
    static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private static func tableCells(_ rows: [ScenarioMetrics]) -> [[String]] {
        let header =
            [
                "scenario", "collected", "coverage", "distance", "median", "longest gap", "departure", "GPS vs ideal",
                "median", "GPS h/h", "rejected",
            ] + traceColumnHeaders
        var lines: [[String]] = [header]
        for row in rows {
            let summary = MetricsSummary(row.metrics)
            let departure = summary.departureDelaySeconds.map(Formatting.signedDelay) ?? "-"
            lines.append(
                [
                    row.scenario, ratio(summary.collected), percent(summary.coverage ?? 0), ratio(summary.distance),
                    ratio(summary.medianDistance), Formatting.duration(summary.medianLongestGapSeconds), departure,
                    ratio(summary.gpsVsIdeal),
                    ratio(summary.medianGpsVsIdeal),
                    summary.gpsHoursPerObservedHour.map { Formatting.fixed($0, 2) } ?? "-",
                    String(summary.rejected),
                ] + traceColumns(summary))
        }
        return lines
    }

    /// The "vs the trace" columns after the "vs ideal" ones: the same for every engine.
    private static let traceColumnHeaders = ["trace path", "median", "trace time"]

    private static func traceColumns(_ summary: MetricsSummary) -> [String] {
        [ratio(summary.tracePath), ratio(summary.medianTracePath), ratio(summary.traceTime)]
    }

    private static func ratio(_ share: Double?) -> String { share.map(percent) ?? "-" }

    private static func percent(_ share: Double) -> String { Formatting.percent(share) }

    private static func rounded(_ value: Double, _ digits: Int) -> Double { Formatting.rounded(value, digits) }
}
