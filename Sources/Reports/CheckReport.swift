import Scenarios

/// The renderings of `tracesim check`: a log line per violation, JUnit XML and Markdown.
public enum CheckReport {
    /// What the engine under test reported in the checked runs, a line per message (empty for
    /// the built-in engine): printed under the verdicts, since a check that passes on an engine
    /// whose callbacks never reached a handler has not checked that engine.
    public static func engineDiagnostics(_ runs: [ScenarioRun]) -> [String] { DiagnosticsReport.summaryLines(runs) }

    /// A threshold's bound in words: `≥ 0.9`, `≤ 120`, `0.5 ≤ x ≤ 1`.
    static func bound(_ threshold: Expectations.Threshold) -> String {
        switch (threshold.minimum, threshold.maximum) {
        case (let minimum?, let maximum?): "\(number(minimum)) ≤ x ≤ \(number(maximum))"
        case (let minimum?, nil): "≥ \(number(minimum))"
        case (nil, let maximum?): "≤ \(number(maximum))"
        case (nil, nil): "any"
        }
    }

    /// The measured value, or "no value" where the run has none for the metric.
    static func value(_ verdict: Expectations.Verdict) -> String { verdict.value.map(number) ?? "no value" }

    /// One verdict on a line: `trace · scenario · metric = value, expected bound`.
    public static func line(_ verdict: Expectations.Verdict) -> String {
        "\(verdict.trace) · \(verdict.scenario) · \(verdict.threshold.metric) = \(value(verdict)), expected \(bound(verdict.threshold))"
    }

    /// What `check` prints: `FAIL` and the verdict for each failure, then the count of checks
    /// and failures.
    public static func text(_ verdicts: [Expectations.Verdict]) -> String {
        let failures = verdicts.filter { !$0.passed }
        return
            (failures.map { "FAIL " + line($0) }
            + ["\(verdicts.count) check\(verdicts.count == 1 ? "" : "s"), \(failures.count) failed"])
            .joined(separator: "\n")
    }

    /// JUnit XML for a CI's test view: a suite per trace, a case per threshold and scenario.
    public static func junit(_ verdicts: [Expectations.Verdict]) -> String {
        let failures = verdicts.filter { !$0.passed }.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"tracesim check\" tests=\"\(verdicts.count)\" failures=\"\(failures)\">\n"
        var traces: [String] = []
        for verdict in verdicts where !traces.contains(verdict.trace) { traces.append(verdict.trace) }
        for trace in traces {
            let cases = verdicts.filter { $0.trace == trace }
            xml +=
                "  <testsuite name=\"\(escape(trace))\" tests=\"\(cases.count)\" failures=\"\(cases.filter { !$0.passed }.count)\">\n"
            for verdict in cases {
                let name = escape("\(verdict.threshold.metric) \(bound(verdict.threshold))")
                xml += "    <testcase classname=\"\(escape(verdict.scenario))\" name=\"\(name)\""
                if verdict.passed {
                    xml += "/>\n"
                } else {
                    xml += ">\n      <failure message=\"\(escape(line(verdict)))\"/>\n    </testcase>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    /// A Markdown summary and table of every verdict, for a pull request comment.
    public static func markdown(_ verdicts: [Expectations.Verdict]) -> String {
        let failures = verdicts.filter { !$0.passed }.count
        var text =
            "### tracesim check: \(failures == 0 ? "all \(verdicts.count) checks pass" : "\(failures) of \(verdicts.count) checks fail")\n\n"
        text += "| | Trace | Scenario | Metric | Value | Expected |\n|---|---|---|---|---|---|\n"
        for verdict in verdicts {
            let cells = [
                verdict.passed ? "✅" : "❌", verdict.trace, verdict.scenario, verdict.threshold.metric, value(verdict),
                bound(verdict.threshold),
            ].map { $0.replacingOccurrences(of: "|", with: "\\|") }
            text += "| " + cells.joined(separator: " | ") + " |\n"
        }
        return text
    }

    private static func number(_ value: Double) -> String { Formatting.short(value) }

    /// XML attribute text (the HTML report's escaping serves XML too).
    private static func escape(_ text: String) -> String { HTMLReport.escape(text) }
}
