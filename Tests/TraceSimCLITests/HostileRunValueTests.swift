import Foundation
import TestSupport
import Testing

/// `summarize` of a run line holding the largest values it accepts prints its tables; it used
/// to trap on a number beyond Int64 or a sum past Int.max.
@Suite("summarize: the largest values a run line holds")
struct HostileRunValueTests {
    @Test(
        "a run with 1e300 m of ideal distance and 9e15 dropped diagnostics is summarised, exit 0",
        arguments: ["text", "markdown", "html", "csv"])
    func largestValues(format: String) throws {
        let folder = try MergeIdentityTests.Folder()
        var lines = SavedRuns.whole.split(separator: "\n").map(String.init)
        let distance = try #require(lines[1].range(of: #""idealDistanceMeters":[0-9.e+-]+"#, options: .regularExpression))
        lines[1].replaceSubrange(distance, with: #""idealDistanceMeters":1e300"#)
        lines[1].removeLast()
        lines[1] += #","droppedDiagnostics":{"messages":9e15,"occurrences":9e15}}"#
        let path = try folder.write(lines.joined(separator: "\n") + "\n", "hostile.jsonl")
        let result = runCommand(["summarize", path, "--format", format])
        #expect(result.exitCode == 0, "\(result.error)")
        if format != "csv" {
            #expect(result.output.contains("9000000000000000 distinct messages (9000000000000000 times)"))
        }
    }
}
