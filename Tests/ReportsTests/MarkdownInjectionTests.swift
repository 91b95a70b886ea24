import Engine
import Testing

@testable import Reports
@testable import Scenarios

/// Engine and file text in Markdown outputs sits in code spans, so a message such as
/// `ok<br>### FAIL [details](…)` renders as text, not as HTML, a heading or a link.
@Suite("Markdown injection")
struct MarkdownInjectionTests {
    static let hostile = "ok<br><br>### ❌ FAIL: all [details](https://evil.example)"

    static func table(trace: String = "t.gpx", message: String = hostile, notes: [String] = []) -> MatrixTable {
        var metrics = Metrics()
        metrics.acceptedFixes = 1
        metrics.idealAcceptedFixes = 1
        var table = MatrixTable(scenarios: ["s"])
        var row = MatrixTable.Row(
            trace: trace, scenarioIndex: 0, seed: 0, metrics: metrics,
            reference: ReferenceMetrics(name: "ideal", maxGapSeconds: 0, rejectedFixes: 0, departed: false),
            diagnostics: [MatrixTable.DiagnosticCount(message: message, count: 2)])
        row.notes = notes
        table.append(row)
        return table
    }

    @Test("matrix and summarize Markdown put an engine's message in a code span")
    func engineDiagnostic() {
        let markdown = MatrixReport.markdown(Self.table())
        #expect(markdown.contains("\n- engine diagnostic (warning): 2× ` \(Self.hostile) `, in 1 run"), "\(markdown)")
        #expect(!markdown.contains("\n###"))
        // Backticks in the message lengthen the fence; control characters stay escaped.
        let fenced = MatrixReport.markdown(Self.table(message: "a`b\u{1B}"))
        #expect(fenced.contains("2× `` a`b\\u{1B} ``, in 1 run"), "\(fenced)")
        // The text table is not Markdown: the message as before.
        #expect(MatrixReport.text(Self.table()).contains("engine diagnostic (warning): 2× \(Self.hostile), in 1 run"))
    }

    @Test("a note read from saved runs is a code span in Markdown and plain in text")
    func savedNote() {
        let table = Self.table(message: "plain", notes: [Self.hostile])
        let markdown = MatrixReport.markdown(table)
        #expect(markdown.contains("\n- note: ` \(Self.hostile) `, in 1 run"), "\(markdown)")
        #expect(!markdown.contains("\n###"))
        #expect(MatrixReport.text(table).contains("note: \(Self.hostile), in 1 run"))
    }

    @Test("a trace name that could render is a code span in the per-trace heading; an ordinary one is as before")
    func traceName() {
        let hostile = MatrixReport.markdown(Self.table(trace: "a<img src=x>.gpx"), perTrace: true)
        #expect(hostile.contains("\n**` a<img src=x>.gpx `**\n"), "\(hostile)")
        let ordinary = MatrixReport.markdown(Self.table(trace: "drive_1.gpx"), perTrace: true)
        #expect(ordinary.contains("\n**drive_1.gpx**\n"), "\(ordinary)")
    }

    @Test("check's Markdown table puts a trace or scenario name that could render in a code span")
    func checkCells() throws {
        let expectations = try Expectations.parse(
            Array(#"{"thresholds": [{"scenario": "*", "metric": "acceptedFixes", "min": 5}]}"#.utf8), file: "e.json")
        let verdicts = [
            Expectations.Verdict(trace: "[x](https://evil.example)", scenario: "s|t", threshold: expectations.thresholds[0], value: 1),
            Expectations.Verdict(trace: "plain.gpx", scenario: "denied", threshold: expectations.thresholds[0], value: 9),
        ]
        let markdown = CheckReport.markdown(verdicts)
        #expect(markdown.contains("| ❌ | ` [x](https://evil.example) ` | s\\|t | acceptedFixes |"), "\(markdown)")
        #expect(markdown.contains("| ✅ | plain.gpx | denied | acceptedFixes |"), "\(markdown)")
    }
}
