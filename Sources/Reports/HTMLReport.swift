import Geometry
import Scenarios
import Traces

/// Self-contained HTML with inline SVG: a run's track map and timeline bands, and the matrix
/// heatmap. No scripts, no external resources, so the file can be attached anywhere.
public enum HTMLReport {
    /// The page for one run compared with `ideal`, the ideal run of the same trace: summary
    /// cards, the track map with `fences`, the timeline bands and, when the scenario ran the
    /// permission wizard, its storyboard. `path` names the trace on the page.
    public static func run(
        _ run: ScenarioRun, ideal: ScenarioRun, metrics: Metrics, trace: Trace, named path: String,
        fences: [Geofence]
    )
        -> String
    {
        page(
            title: "\(run.scenario) · \(path)",
            body: """
                <h1>\(escape(run.scenario))</h1>
                <p class="sub">\(escape(path)) · seed \(run.seed) · compared with the ideal run of the same trace</p>
                \(warningsBanner(TraceWarning.warnings(run: metrics, scenario: run.scenario)))\(summary(metrics))
                <p class="sub">\(escape(DeliveryReport.line(run)))</p>
                <h2>Track</h2>
                \(map(trace: trace, run: run, fences: fences))
                <h2>Timeline</h2>
                \(timeline(run: run, ideal: ideal))
                \(run.wizardSteps.map { "<h2>Permission wizard</h2>" + storyboard($0) } ?? "")\(RunNotesReport.html(run))\(diagnostics(run))
                """)
    }

    /// What the engine under test reported, as a list on a line of its own; nothing without
    /// diagnostics, so a built-in engine's page is unchanged.
    private static func diagnostics(_ run: ScenarioRun) -> String {
        let lines = DiagnosticsReport.lines(run)
        guard !lines.isEmpty else { return "" }
        return "\n<h2>Engine diagnostics</h2><ul class=\"formulas\">"
            + lines.map { "<li>\(escape($0))</li>" }.joined() + "</ul>"
    }

    /// The page for a matrix (`MatrixReport.html`): the heatmap of scenarios (a row each, with
    /// the metrics of its runs pooled over every trace) against metrics, a heatmap per trace when
    /// `perTrace` has some, and the `footer` lines (the ideal totals and the formulas).
    static func matrix(
        rows: [ScenarioMetrics], traceCount: Int, perTrace: [MatrixTable.TraceMetrics] = [],
        footer: [String] = [], warnings: [TraceWarning] = []
    ) -> String {
        let traces = perTrace.map { "<h2>\(escape($0.trace))</h2>\n" + heatmap($0.rows) }.joined(separator: "\n")
        let notes =
            footer.isEmpty ? "" : "<ul class=\"formulas\">" + footer.map { "<li>\(escape($0))</li>" }.joined() + "</ul>"
        return page(
            title: "TraceSim permission matrix",
            body: """
                <h1>What each permission level costs</h1>
                <p class="sub">\(traceCount) trace\(traceCount == 1 ? "" : "s") · each scenario pooled over traces against the ideal run of the same trace · greener is closer to ideal</p>
                \(warningsBanner(warnings))\(heatmap(rows))
                \(notes)
                \(traces)
                """)
    }

    /// `text` with `&`, `<`, `>` and `"` as entities: safe in HTML and XML text and attributes.
    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
