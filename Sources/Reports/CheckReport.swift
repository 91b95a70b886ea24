import Scenarios
import SimulationCore

/// The renderings of `tracesim check`: a log line per violation, JUnit XML and Markdown.
public enum CheckReport {
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
    /// and failures. Under them, a line per note TraceSim made on the checked `runs`
    /// (authorization that never settled, with how many runs it was noted in: a threshold on
    /// such a run measures a phone that never allowed collection), then a line per message the
    /// engine under test reported (none for the built-in engine: a check that passes on an
    /// engine whose callbacks never reached a handler has not checked that engine).
    public static func text(_ verdicts: [Expectations.Verdict], runs: [ScenarioRun] = []) -> String {
        let failures = verdicts.filter { !$0.passed }
        return
            (failures.map { "FAIL " + line($0) }
            + ["\(verdicts.count) check\(verdicts.count == 1 ? "" : "s"), \(failures.count) failed"]
            + RunNotesReport.summaryLines(runs.map { $0.notes.map(\.message) })
            + DiagnosticsReport.summaryLines(runs))
            .joined(separator: "\n")
    }

    /// A run that did not finish because the engine under test crashed, hung or broke the
    /// protocol: no threshold could be checked on it, which is an error of the check rather
    /// than a failed threshold.
    public struct FailedRun: Sendable, Equatable {
        /// The engine, as the command line names it (`'python3 engine.py'`).
        public var engine: String
        /// What went wrong, as the engine's failure words it.
        public var message: String

        /// A failed run of `engine`.
        public init(engine: String, message: String) {
            self.engine = engine
            self.message = message
        }

        /// `engine NAME: message`, on one line whatever the message holds.
        public var line: String { VisibleText.escapingControls("engine \(engine): \(message)") }
    }

    /// JUnit XML for a CI's test view: a suite per trace, a case per threshold and scenario,
    /// and, when a run failed, a suite for the engine whose case holds an `<error>` (JUnit's
    /// element for a test that could not run, apart from a `<failure>` of an assertion).
    public static func junit(_ verdicts: [Expectations.Verdict], failedRun: FailedRun? = nil) -> String {
        let failures = verdicts.filter { !$0.passed }.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let tests = verdicts.count + (failedRun == nil ? 0 : 1)
        let errors = failedRun == nil ? "" : " errors=\"1\""
        xml += "<testsuites name=\"tracesim check\" tests=\"\(tests)\" failures=\"\(failures)\"\(errors)>\n"
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
        if let failedRun {
            let name = escape("engine \(failedRun.engine)")
            xml += "  <testsuite name=\"\(name)\" tests=\"1\" failures=\"0\" errors=\"1\">\n"
            xml += "    <testcase classname=\"tracesim check\" name=\"\(name)\">\n"
            xml += "      <error type=\"EngineFailure\" message=\"\(escape(failedRun.line))\"/>\n"
            xml += "    </testcase>\n  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    /// A Markdown summary and table of every verdict, for a pull request comment; a failed run
    /// is said first, its message in a code span so that nothing in it is read as Markdown.
    public static func markdown(_ verdicts: [Expectations.Verdict], failedRun: FailedRun? = nil) -> String {
        let failures = verdicts.filter { !$0.passed }.count
        if let failedRun {
            return "### tracesim check: error: the engine under test failed, so no threshold was checked\n\n"
                + MarkdownText.codeSpan(failedRun.line) + "\n"
        }
        var text =
            "### tracesim check: \(failures == 0 ? "all \(verdicts.count) checks pass" : "\(failures) of \(verdicts.count) checks fail")\n\n"
        text += "| | Trace | Scenario | Metric | Value | Expected |\n|---|---|---|---|---|---|\n"
        for verdict in verdicts {
            let cells = [
                verdict.passed ? "✅" : "❌", MarkdownText.name(verdict.trace), MarkdownText.name(verdict.scenario),
                verdict.threshold.metric.name, value(verdict), bound(verdict.threshold),
            ].map { VisibleText.escapingControls($0).replacingOccurrences(of: "|", with: "\\|") }
            text += "| " + cells.joined(separator: " | ") + " |\n"
        }
        return text
    }

    private static func number(_ value: Double) -> String { Formatting.short(value) }

    /// XML attribute text (the HTML report's escaping serves XML too), control characters
    /// made visible: XML 1.0 allows most of them in no form at all.
    private static func escape(_ text: String) -> String { HTMLReport.escape(VisibleText.escapingControls(text)) }
}
