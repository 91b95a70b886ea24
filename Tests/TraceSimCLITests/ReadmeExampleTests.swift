import Foundation
import TestSupport
import Testing

/// The README's examples are real output: these tests rerun them and compare.
@Suite("README examples")
struct ReadmeExampleTests {
    static func readme() throws -> String {
        try String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)
    }

    /// The lines of the first fenced block after `marker`.
    static func block(after marker: String, in text: String) throws -> [Substring] {
        let start = try #require(text.range(of: marker)).upperBound
        let fenceOpen = try #require(text.range(of: "```", range: start..<text.endIndex))
        let bodyStart = try #require(text[fenceOpen.upperBound...].firstIndex(of: "\n"))
        let fenceClose = try #require(text.range(of: "\n```", range: bodyStart..<text.endIndex))
        return text[text.index(after: bodyStart)..<fenceClose.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
    }

    @Test("the inspect --format json example prints exactly what the README shows")
    func inspectJSON() throws {
        let lines = try Self.block(after: "<!-- README example: inspect-json -->", in: Self.readme())
        let command = try #require(lines.first)
        #expect(command.hasPrefix("$ tracesim "))
        let arguments = command.dropFirst("$ tracesim ".count).split(separator: " ").map(String.init)
        let result = try runBinary(arguments)
        #expect(result.exitCode == 0)
        #expect(result.output == lines.dropFirst().joined(separator: "\n") + "\n")
    }

    @Test(
        "the permissions comparison and population examples print what the README shows",
        arguments: ["<!-- README example: permissions-compare -->", "<!-- README example: permissions-population -->"])
    func permissionsExamples(marker: String) throws {
        let lines = try Self.block(after: marker, in: Self.readme())
        let command = try #require(lines.first)
        let arguments = command.dropFirst("$ tracesim ".count).split(separator: " ").map(String.init)
        let result = try runBinary(arguments)
        #expect(result.exitCode == 0)
        #expect(result.output == lines.dropFirst().joined(separator: "\n") + "\n")
    }

    @Test("the degradation table at the top of the README is what Scripts/run.sh prints today")
    func matrixTable() throws {
        let readme = try Self.readme()
        let lines = try Self.block(after: "degradation table (real output", in: readme)
        let files = try Self.block(after: "bundled trace (real output):", in: readme).dropFirst()
            .compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(files.count == 14)
        let result = try runBinary(["matrix", "--date", "2020-02-07"] + files)
        #expect(result.exitCode == 0)
        #expect(result.output == lines.joined(separator: "\n") + "\n")
    }

    @Test("the bundled-trace table in the README is what inspect prints today")
    func bundledTable() throws {
        let lines = try Self.block(after: "bundled trace (real output):", in: Self.readme())
        let files = lines.dropFirst().compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(files.count == 14)
        let result = try runBinary(["inspect", "--format", "table", "--date", "2020-02-07"] + files)
        #expect(result.exitCode == 0)
        #expect(result.output == lines.joined(separator: "\n") + "\n")
    }
}
