import Device
import Fleet
import Scenarios
import SimulationCore

/// What `matrix --bands` prints: the degradation table with a range beside every figure that a
/// disputed band moves (text, Markdown, CSV, HTML, JSON), and with `--sensitivity` the band that
/// moves each row most.
public enum BandedMatrixReport {
    /// The JSON's `kind`: a pooled, banded table, not runs (so neither `merge` nor `summarize`
    /// reads it; `--bands` is a whole-matrix option).
    public static let jsonKind = "tracesim-bands"
    /// The JSON's schema version.
    public static let schemaVersion = 1

    /// The line under every format's table saying what a range is.
    static let rangeLine =
        "range (low–high) = the lowest and highest the figure reads at the default, at each band's pessimistic and "
        + "optimistic end one band at a time, and at the all-pessimistic and all-optimistic corners; a figure "
        + "without one reads the same in all of them"

    /// The lines naming the bands and what each end sets.
    static func bandLines(_ plan: BandedMatrix) -> [String] {
        plan.bands.map { band in
            let ends = DisputedBand.End.allCases.map { end in
                let settings = band.bound(end).settings.map { "\($0.parameter) \($0.value.text)" }
                return "\(end.rawValue) \(settings.joined(separator: ", "))"
            }
            let defaults = band.values(in: DeviceParameters()).map { "\($0.parameter) \($0.value.text)" }
            return "band \(band.name): \(ends[0]); default \(defaults.joined(separator: ", ")); \(ends[1])"
        }
    }

    private static func cells(_ table: BandedTable) -> [[String]] {
        let ideal = table.plain.idealMetrics.map { row in
            let summary = MetricsSummary(row.metrics)
            return [row.scenario]
                + BandedColumn.all.map { column in
                    let value = column.value(summary)
                    return column.cell(BandedTable.Figure(value: value, low: value, high: value))
                }
        }
        let rows = table.rows.map { row in [row.scenario] + zip(BandedColumn.all, row.figures).map { $0.cell($1) } }
        return [["scenario"] + BandedColumn.all.map(\.header)] + ideal + rows
    }

    /// The table for a terminal, the plain table's warnings, the sensitivity with `sensitivity`,
    /// then the plain footer, the range line and the bands.
    public static func text(_ table: BandedTable, sensitivity: Bool = false) -> String {
        let plain = table.plain
        guard !plain.traces.isEmpty else { return "" }
        let (traces, scenarios) = (plain.traces.count, plain.scenarios.count)
        let seeds = Set(plain.rows.map(\.seed))
        let seedLabel = seeds.count == 1 ? "seed \(seeds.first ?? 0)" : "seeds per scenario"
        let lines = cells(table)
        var rendered = TextTable(lines, alignments: [.left] + Array(repeating: .right, count: lines[0].count - 1))
        rendered.rulesHeader = true
        var text =
            "\(traces) trace\(traces == 1 ? "" : "s") × \(scenarios) scenario\(scenarios == 1 ? "" : "s"), "
            + "\(seedLabel); ratios pooled over traces against the ideal run; ranges over "
            + "\(table.plan.bands.count) disputed bands\n" + rendered.rendered
            + TraceWarningReport.text(plain.traceWarnings)
        if sensitivity { text += "\n\n" + sensitivityText(table) }
        let footer = MatrixReport.footer(plain) + [rangeLine] + bandLines(table.plan)
        return text + "\n\n" + footer.joined(separator: "\n")
    }

    /// The smallest move the sensitivity names: what rounds to 0.0 points moves nothing.
    static let minimumPoints = 0.05

    /// Which band moves each row's collected figure most, and by how many points, for a terminal.
    public static func sensitivityText(_ table: BandedTable) -> String {
        var lines = [["scenario", "moved most by", "points", "pessimistic", "optimistic"]]
        for row in table.rows {
            guard let top = table.sensitivity(row).first, top.points >= minimumPoints else {
                lines.append([row.scenario, "-", "0.0", "-", "-"])
                continue
            }
            lines.append([
                row.scenario, top.band, Formatting.fixed(top.points, 1), top.pessimistic.map(Formatting.percent) ?? "-",
                top.optimistic.map(Formatting.percent) ?? "-",
            ])
        }
        var rendered = TextTable(lines, alignments: [.left, .left, .right, .right, .right])
        rendered.rulesHeader = true
        return "SENSITIVITY: the band that moves collected most (percentage points between its ends and the default)\n"
            + rendered.rendered
    }

    /// The table in Markdown, the warnings, the sensitivity with `sensitivity`, and the footer
    /// as a list.
    public static func markdown(_ table: BandedTable, sensitivity: Bool = false) -> String {
        func row(_ cells: [String]) -> String {
            "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |"
        }
        let lines = cells(table)
        let alignment = "|" + lines[0].indices.map { $0 == 0 ? "---" : "---:" }.joined(separator: "|") + "|"
        var text = ([row(lines[0]), alignment] + lines.dropFirst().map(row)).joined(separator: "\n")
        text += MatrixReport.markdownWarnings(table.plain)
        if sensitivity {
            text += "\n\n| scenario | moved most by | points | pessimistic | optimistic |\n|---|---|---:|---:|---:|\n"
            text += table.rows.map { entry in
                guard let top = table.sensitivity(entry).first, top.points >= minimumPoints else {
                    return row([entry.scenario, "-", "0.0", "-", "-"])
                }
                return row([
                    entry.scenario, "`\(top.band)`", Formatting.fixed(top.points, 1),
                    top.pessimistic.map(Formatting.percent) ?? "-", top.optimistic.map(Formatting.percent) ?? "-",
                ])
            }.joined(separator: "\n")
        }
        let footer =
            MatrixReport.footer(table.plain) { MarkdownText.codeSpan(VisibleText.escapingControls($0)) }
            + [rangeLine] + bandLines(table.plan)
        return text + "\n\n" + footer.map { "- " + $0 }.joined(separator: "\n")
    }

    /// A row per scenario: each figure's value, corners and range as numbers (ratios as shares).
    public static func csv(_ table: BandedTable) -> String {
        let header =
            ["scenario"]
            + BandedColumn.all.flatMap { column in
                [column.key] + ["pessimistic", "optimistic", "low", "high"].map { "\(column.key).\($0)" }
            }
        var lines = [header.joined(separator: ",")]
        for row in table.rows {
            let values = zip(BandedColumn.all, row.figures).flatMap { column, figure in
                [figure.value, figure.pessimistic, figure.optimistic, figure.low, figure.high].map { value in
                    value.map { JSONText.number(Formatting.rounded($0, column.digits)).rendered } ?? ""
                }
            }
            lines.append(([RunReport.quoted(row.scenario)] + values).joined(separator: ","))
        }
        return lines.joined(separator: "\n")
    }

    /// A self-contained page with the banded table and its footer.
    public static func html(_ table: BandedTable) -> String {
        let lines = cells(table)
        let head = lines[0].map { "<th>\(HTMLReport.escape($0))</th>" }.joined()
        let body = lines.dropFirst().map { cells in
            "<tr>" + cells.map { "<td>\(htmlCell($0))</td>" }.joined() + "</tr>"
        }.joined(separator: "\n")
        let footer = (MatrixReport.footer(table.plain) + [rangeLine] + bandLines(table.plan)).map {
            "<li>\(HTMLReport.escape($0))</li>"
        }.joined()
        return HTMLReport.page(
            title: "TraceSim degradation table with bands",
            body: """
                <style>.banded td{white-space:nowrap;vertical-align:top}.banded .range{display:block;color:#777;font-size:12px}
                .scroll{overflow-x:auto}</style>
                <h1>Degradation table with bands</h1>
                <p class="sub">\(table.plain.traces.count) trace\(table.plain.traces.count == 1 ? "" : "s") · each figure with the range the disputed bands give it</p>
                <div class="scroll"><table class="banded"><thead><tr>\(head)</tr></thead><tbody>
                \(body)
                </tbody></table></div>
                <ul class="formulas">\(footer)</ul>
                """)
    }

    /// A cell of the page: the value, and its range, when it has one, on a line of its own
    /// below it, so a wide table stays readable without wrapping inside a figure.
    private static func htmlCell(_ cell: String) -> String {
        let text = VisibleText.escapingControls(cell)
        guard text.hasSuffix(")"), let open = text.range(of: " (") else { return HTMLReport.escape(text) }
        let value = text[..<open.lowerBound]
        let range = text[open.upperBound..<text.index(before: text.endIndex)]
        return HTMLReport.escape(String(value)) + "<span class=\"range\">\(HTMLReport.escape(String(range)))</span>"
    }

    /// `{"kind", "schemaVersion", "seed", "bands", "rows"}`: each row's figures as `{"value",
    /// "pessimistic", "optimistic", "low", "high"}` (the corners, and the range over every
    /// variant), and with `sensitivity` each band's move of collected, largest first.
    public static func json(_ table: BandedTable, seed: UInt64?, sensitivity: Bool = false) -> String {
        func number(_ value: Double?, _ digits: Int) -> JSONText {
            value.map { .number(Formatting.rounded($0, digits)) } ?? .null
        }
        let bands = table.plan.bands.map { band in
            JSONText.object(
                [("name", .string(band.name)), ("summary", .string(band.summary))]
                    + DisputedBand.End.allCases.map { end in (end.rawValue, RulesReport.json(band.bound(end))) }
                    + [("default", RulesReport.json(band.values(in: DeviceParameters())))])
        }
        let rows = table.rows.map { row in
            var members: [(String, JSONText)] = [
                ("scenario", .string(row.scenario)),
                (
                    "figures",
                    .object(
                        zip(BandedColumn.all, row.figures).map { column, figure in
                            (
                                column.key,
                                .object([
                                    ("value", number(figure.value, column.digits)),
                                    ("pessimistic", number(figure.pessimistic, column.digits)),
                                    ("optimistic", number(figure.optimistic, column.digits)),
                                    ("low", number(figure.low, column.digits)),
                                    ("high", number(figure.high, column.digits)),
                                ])
                            )
                        })
                ),
            ]
            if sensitivity {
                members.append(
                    (
                        "sensitivity",
                        .array(
                            table.sensitivity(row).map { move in
                                .object([
                                    ("band", .string(move.band)), ("points", number(move.points, 1)),
                                    ("pessimistic", number(move.pessimistic, 4)),
                                    ("optimistic", number(move.optimistic, 4)),
                                ])
                            })
                    ))
            }
            return JSONText.object(members)
        }
        return JSONText.object([
            ("kind", .string(jsonKind)), ("schemaVersion", .integer(schemaVersion)),
            ("seed", seed.map { .integer(Int(truncatingIfNeeded: $0)) } ?? .null),
            ("traces", .array(table.plain.traces.map { .string($0) })), ("bands", .array(bands)),
            ("rows", .array(rows)),
        ]).rendered
    }
}
