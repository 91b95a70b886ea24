import SimulationCore
import Testing

@testable import Reports

/// `check`'s files when a run failed: JUnit's `<error>` (not `<failure>`) and a Markdown line
/// that nothing in the engine's message can break out of.
@Suite("CheckReport: a failed run")
struct CheckReportErrorTests {
    @Test("without a failed run the JUnit is what it was: no errors attribute")
    func unchangedWithoutFailure() {
        #expect(
            CheckReport.junit([])
                == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"tracesim check\" tests=\"0\" failures=\"0\">\n</testsuites>\n"
        )
    }

    @Test("a failed run is one test with an <error> whose message is escaped for XML, control characters visible")
    func junitError() {
        let xml = CheckReport.junit([], failedRun: .init(engine: "'e'", message: "a\u{7}\"<x>\"\u{85}b"))
        #expect(
            xml == """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites name="tracesim check" tests="1" failures="0" errors="1">
                  <testsuite name="engine 'e'" tests="1" failures="0" errors="1">
                    <testcase classname="tracesim check" name="engine 'e'">
                      <error type="EngineFailure" message="engine 'e': a\\u{7}&quot;&lt;x&gt;&quot;\\u{85}b"/>
                    </testcase>
                  </testsuite>
                </testsuites>

                """)
    }

    @Test("the Markdown code span is fenced longer than any run of backticks in the message, on one line")
    func markdownFence() {
        let text = CheckReport.markdown([], failedRun: .init(engine: "e", message: "a ``` b\n# FAIL"))
        #expect(
            text == "### tracesim check: error: the engine under test failed, so no threshold was checked\n\n"
                + "```` engine e: a ``` b\\n# FAIL ````\n")
    }

    @Test("control characters and bidirectional overrides are escaped; other text is unchanged")
    func visibleText() {
        #expect(VisibleText.escapingControls("plain/path é 😀.gpx") == "plain/path é 😀.gpx")
        #expect(VisibleText.escapingControls("a\tb\nc\rd\u{0}e\u{7F}f") == "a\\tb\\nc\\rd\\u{0}e\\u{7F}f")
        #expect(VisibleText.escapingControls("x\u{202E}y\u{2028}z\u{9B}") == "x\\u{202E}y\\u{2028}z\\u{9B}")
    }
}
