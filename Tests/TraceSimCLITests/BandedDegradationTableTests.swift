import Foundation
import TestSupport
import Testing

/// The banded degradation table in the Degradation table article is what `matrix --bands`
/// prints over the bundled traces today. Slow tier: seventeen variants of every preset on
/// every bundled trace take minutes. `TRACESIM_UPDATE_GOLDEN=1` rewrites the article's table.
@Suite("Banded degradation table article", .enabled(if: TestTier.isSlow, "every bundled trace, banded: slow tier"))
struct BandedDegradationTableTests {
    static let article = DocumentationFiles.catalogue + "/DegradationTable.md"
    static let begin = "<!-- bands table: begin -->\n"
    static let end = "<!-- bands table: end -->"

    @Test("the article's banded table is what matrix --bands --sensitivity --format markdown prints")
    func bandedTable() throws {
        let traces = try DocumentationExampleTests.bundledTraces()
        let result = try runBinary(
            ["matrix", "--date", "2020-02-07", "--bands", "--sensitivity", "--format", "markdown"] + traces)
        #expect(result.exitCode == 0, "\(result.error)")
        let text = try DocumentationFiles.text(Self.article)
        let start = try #require(text.range(of: Self.begin)).upperBound
        let stop = try #require(text.range(of: Self.end, range: start..<text.endIndex)).lowerBound
        if ProcessInfo.processInfo.environment["TRACESIM_UPDATE_GOLDEN"] == "1" {
            let updated = String(text[..<start]) + result.output + String(text[stop...])
            try updated.write(
                to: Repository.root.appendingPathComponent(Self.article), atomically: true, encoding: .utf8)
            return
        }
        #expect(String(text[start..<stop]) == result.output)
        // The iOS 26 relaunch swing shows as a range on the force-quit row, and is named.
        #expect(result.output.contains("| always-force-quit | 95.5 % (30.2–96.3) |"))
        #expect(result.output.contains("| always-force-quit | `forceQuitRelaunch` |"))
    }
}
