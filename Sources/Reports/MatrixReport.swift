import Fleet
import Scenarios
import SimulationCore

/// What a matrix prints: the degradation table (text, Markdown), a CSV row per run, the
/// heatmap page, and the JSON of every run, which for a shard is the part `Matrix.merge` reads.
public enum MatrixReport {
    /// A line naming the traces, scenarios and seeds, then the degradation table: the ideal
    /// row and a row per scenario with metrics pooled over traces, and the formulas under it.
    /// With `perTrace`, a table per trace follows. Empty for a matrix of no trace.
    public static func text(_ result: MatrixResult, perTrace: Bool = false) -> String {
        text(MatrixTable(result), perTrace: perTrace)
    }

    /// `text` from a table filled as runs streamed past, or from saved runs.
    public static func text(_ table: MatrixTable, perTrace: Bool = false) -> String {
        guard !table.traces.isEmpty else { return "" }
        let (traces, scenarios) = (table.traces.count, table.scenarios.count)
        let seeds = Set(table.rows.map(\.seed))
        let seedLabel = seeds.count == 1 ? "seed \(seeds.first ?? 0)" : "seeds per scenario"
        var text =
            "\(traces) trace\(traces == 1 ? "" : "s") × \(scenarios) scenario\(scenarios == 1 ? "" : "s"), "
            + "\(seedLabel); ratios pooled over traces against the ideal run\n"
            + RunReport.table(table.idealMetrics + table.metricsByScenario)
            + TraceWarningReport.text(table.traceWarnings)
        if perTrace {
            for trace in table.metricsByTrace {
                text += "\n\n" + trace.trace + "\n" + RunReport.table(trace.rows)
            }
        }
        return text + "\n\n" + footer(table).joined(separator: "\n")
    }

    /// The degradation table in Markdown, for a pull request or a design review: the ideal row,
    /// a row per scenario, the formulas under it, and with `perTrace` a table per trace.
    public static func markdown(_ result: MatrixResult, perTrace: Bool = false) -> String {
        markdown(MatrixTable(result), perTrace: perTrace)
    }

    /// `markdown` from a table filled as runs streamed past, or from saved runs.
    public static func markdown(_ table: MatrixTable, perTrace: Bool = false) -> String {
        var text = RunReport.markdownTable(table.idealMetrics + table.metricsByScenario) + markdownWarnings(table)
        if perTrace {
            for trace in table.metricsByTrace {
                text +=
                    "\n\n**\(MarkdownText.name(trace.trace))**\n\n"
                    + RunReport.markdownTable(trace.rows)
            }
        }
        // The engine's messages and the notes in code spans, so none renders as Markdown.
        let lines = footer(table) { MarkdownText.codeSpan(VisibleText.escapingControls($0)) }
        return text + "\n\n" + lines.map { "- " + $0 }.joined(separator: "\n")
    }

    /// A self-contained page with the degradation table as a heatmap, the formulas under it,
    /// and with `perTrace` a heatmap per trace.
    public static func html(_ result: MatrixResult, perTrace: Bool = false) -> String {
        html(MatrixTable(result), perTrace: perTrace)
    }

    /// `html` from a table filled as runs streamed past, or from saved runs.
    public static func html(_ table: MatrixTable, perTrace: Bool = false) -> String {
        HTMLReport.matrix(
            rows: table.idealMetrics + table.metricsByScenario, traceCount: table.traces.count,
            perTrace: perTrace ? table.metricsByTrace : [],
            footer: footer(table), warnings: table.traceWarnings)
    }

    /// The warnings against the trace as bold Markdown lines after a blank line; the subject
    /// (a scenario's name) in a code span, so none renders as Markdown.
    static func markdownWarnings(_ table: MatrixTable) -> String {
        let warnings = TraceWarningReport.sorted(table.traceWarnings).map { warning in
            var shown = warning
            shown.subject = MarkdownText.codeSpan(VisibleText.escapingControls(warning.subject))
            return "**\(TraceWarningReport.mark(warning)):** " + TraceWarningReport.message(shown)
        }
        return warnings.isEmpty ? "" : "\n\n" + warnings.joined(separator: "\n\n")
    }

    /// Under every table: what the ideal runs add up to (the denominators), one line per
    /// column saying how it is pooled, TraceSim's notes on the runs, and what the engine under
    /// test reported, when it did.
    /// - Parameter message: an engine's message or a note as the format shows it.
    static func footer(
        _ table: MatrixTable, message: (String) -> String = VisibleText.escapingControls
    ) -> [String] {
        var lines: [String] = []
        for row in table.idealMetrics {
            let metrics = row.metrics
            let accepted = metrics.map(\.acceptedFixes).saturatingSum()
            let meters = metrics.reduce(0) { $0 + $1.distanceMeters }
            let covered = metrics.reduce(0) { $0 + $1.coveredSeconds }
            let gps = metrics.reduce(0) { $0 + $1.gpsOnSeconds }
            let unobserved = metrics.reduce(0) { $0 + $1.unobservedSeconds }
            let travelled = metrics.reduce(0) { $0 + $1.travelledUnobservedSeconds }
            lines.append(
                "\(row.scenario) over \(metrics.count) trace\(metrics.count == 1 ? "" : "s"): \(accepted) accepted fixes, "
                    + "\(Formatting.fixed(meters / 1000, 2)) km, \(Formatting.duration(covered)) covered, "
                    + "\(Formatting.duration(gps)) GPS on; \(Formatting.duration(unobserved)) unobserved left out, "
                    + "\(Formatting.duration(travelled)) in spans the phone travelled")
        }
        return lines + MetricsSummary.formulas + RunNotesReport.summaryLines(table.rows.map(\.notes), message: message)
            + DiagnosticsReport.summaryLines(
                table.rows.map { ($0.diagnostics, $0.droppedDiagnostics) }, message: message)
    }

    /// A row per trace and scenario with every numeric metric.
    public static func csv(_ result: MatrixResult) -> String { csv(MatrixTable(result)) }

    /// `csv` from a table filled as runs streamed past, or from saved runs.
    public static func csv(_ table: MatrixTable) -> String {
        RunReport.csv(
            table.rows.map {
                RunReport.Row(
                    trace: $0.trace, scenario: table.scenarios[$0.scenarioIndex], seed: $0.seed, metrics: $0.metrics)
            })
    }

    /// `{"schemaVersion", "seed", "runs": [...]}` with one object per run, traces in order and
    /// scenarios in order. A shard's part also holds the run's identity (when the matrix has one)
    /// and the shard's place, and ends with its `end`, for `Matrix.merge`: every trace of the
    /// shard is an input it read.
    public static func json(_ result: MatrixResult) -> String {
        let matrix = result.matrix
        let runs = result.cells.map { jsonRun($0, trace: matrix.traces[$0.traceIndex].name) }
        let identity = result.shard == nil ? nil : matrix.identity
        let held = matrix.traces.indices.filter { result.shard?.holds($0) ?? true }.count
        let tail =
            identity == nil
            ? jsonTail : jsonPartTail(Matrix.ClosingRecord(inputs: held, read: held, traces: held))
        return jsonHead(identity: identity, seed: matrix.seed, shard: result.shard) + runs.joined(separator: ",")
            + tail
    }

    /// One run of a matrix as its JSON object: an element of the JSON's `runs`, a line of the
    /// JSON Lines.
    public static func jsonRun(_ cell: Matrix.Cell, trace: String) -> String {
        RunReport.jsonValue(trace: trace, run: cell.run, metrics: cell.metrics, reference: cell.reference).rendered
    }

    /// The matrix JSON up to its first run: `{"schemaVersion", ["identity",] "seed", ["shard",]
    /// "runs":[`. A part holds the identity and its shard; the whole run's JSON neither.
    public static func jsonHead(identity: RunIdentity?, seed: UInt64?, shard: Shard?) -> String {
        var members: [(String, JSONText)] = [("schemaVersion", .integer(RunReport.schemaVersion))]
        if let identity { members.append(("identity", json(identity))) }
        members.append(("seed", self.seed(seed)))
        if let shard { members.append(("shard", json(shard))) }
        let object = JSONText.object(members).rendered
        return object.dropLast() + ",\"runs\":["
    }

    /// What closes the matrix JSON after its last run.
    public static let jsonTail = "]}"

    /// What closes a part's matrix JSON after its last run: its `end`, every input it holds
    /// accounted for (`Matrix.ClosingRecord`).
    public static func jsonPartTail(_ record: Matrix.ClosingRecord) -> String {
        "],\"end\":" + json(record, kind: nil).rendered + "}"
    }

    /// The last line of `matrix --format jsonl`, without the line break: the closing record,
    /// `{"kind": "tracesim-runs-end", "inputs", "read", "traces", "skipped", "failed"}`, which
    /// says the run finished and accounts for every input it held. `skipped` and `failed` list
    /// `{"input" (from 1), "path", "reason"}` in input order.
    public static func jsonLinesClosing(_ record: Matrix.ClosingRecord) -> String {
        json(record, kind: Matrix.ClosingRecord.kind).rendered
    }

    private static func json(_ record: Matrix.ClosingRecord, kind: String?) -> JSONText {
        func entries(_ list: [Matrix.ClosingRecord.Entry]) -> JSONText {
            .array(
                list.map {
                    .object([
                        ("input", .integer($0.input + 1)), ("path", .string($0.path)), ("reason", .string($0.reason)),
                    ])
                })
        }
        let members: [(String, JSONText)] = [
            ("inputs", .integer(record.inputs)), ("read", .integer(record.read)), ("traces", .integer(record.traces)),
            ("skipped", entries(record.skipped)), ("failed", entries(record.failed)),
        ]
        return .object((kind.map { [("kind", JSONText.string($0))] } ?? []) + members)
    }

    /// The first line of `matrix --format jsonl`: what the lines after it are (`kind`), their
    /// schema, the run's identity, its seed and, for a part, its shard. Without the line break.
    public static func jsonLinesHeader(identity: RunIdentity, seed: UInt64?, shard: Shard?) -> String {
        var members: [(String, JSONText)] = [
            ("kind", .string(jsonLinesKind)), ("schemaVersion", .integer(RunReport.schemaVersion)),
            ("identity", json(identity)), ("seed", self.seed(seed)),
        ]
        if let shard { members.append(("shard", json(shard))) }
        return JSONText.object(members).rendered
    }

    /// The header line's `kind`: what tells a reader these lines are TraceSim runs.
    public static let jsonLinesKind = "tracesim-runs"

    private static func json(_ shard: Shard) -> JSONText {
        .object([("index", .integer(shard.index)), ("count", .integer(shard.count))])
    }

    /// Exactly the JSON the unsharded run prints, from its merged parts (without a final newline).
    /// - Complexity: O(the parts' length): the runs' bytes are joined once and read as UTF-8 once.
    public static func json(_ merged: Matrix.Merged) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(merged.runs.reduce(64) { $0 + $1.count + 1 })
        output += Array("{\"schemaVersion\":\(merged.schemaVersion),\"seed\":".utf8)
        output += Array(seed(merged.seed).rendered.utf8)
        output += Array(",\"runs\":[".utf8)
        for (index, run) in merged.runs.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            output += run
        }
        output += Array("]}".utf8)
        return String(decoding: output, as: UTF8.self)
    }

    /// The matrix JSON's `"seed"`: a part's is checked against its identity the same way
    /// (`Matrix.seedText`).
    private static func seed(_ seed: UInt64?) -> JSONText {
        seed.map { .integer(Int(truncatingIfNeeded: $0)) } ?? .null
    }

    /// A run's identity as a part writes it; `tracks`, `assumeRate`, `strict` and `noise` only
    /// when given, so parts of a default run read as they always have.
    static func json(_ identity: RunIdentity) -> JSONText {
        let head = headJSON(identity)
        guard case .object(var members) = head else { return head }
        if let tracks = identity.tracks { members.append(("tracks", .string(tracks))) }
        if let assumeRate = identity.assumeRate { members.append(("assumeRate", .number(assumeRate))) }
        if identity.strict { members.append(("strict", .bool(true))) }
        if !identity.noise.isEmpty { members.append(("noise", .array(identity.noise.map { .string($0) }))) }
        return .object(members)
    }

    private static func headJSON(_ identity: RunIdentity) -> JSONText {
        .object([
            ("tracesim", .string(identity.version)),
            ("traces", .array(identity.traces.map(json))),
            (
                "scenarios",
                .array(
                    identity.scenarios.map { entry in
                        var members: [(String, JSONText)] = [("name", .string(entry.name))]
                        if let file = entry.file { members.append(("file", json(file))) }
                        if let fences = entry.fences { members.append(("fences", json(fences))) }
                        return .object(members)
                    })
            ),
            ("seed", identity.seed.map { .string(String($0)) } ?? .null),
            ("fences", identity.fences.map(json) ?? .null),
            ("date", identity.date.map(JSONText.string) ?? .null),
            ("inputFormat", identity.inputFormat.map(JSONText.string) ?? .null),
        ])
    }

    private static func json(_ input: RunIdentity.Input) -> JSONText {
        var members: [(String, JSONText)] = [("path", .string(input.path))]
        if let bytes = input.bytes { members.append(("bytes", .integer(bytes))) }
        if let hash = input.hash { members.append(("hash", .string(hash.text))) }
        return .object(members)
    }
}
