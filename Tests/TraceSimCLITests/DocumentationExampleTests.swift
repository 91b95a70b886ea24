import Foundation
import TestSupport
import Testing

/// The outputs the README and the DocC articles quote are real: these tests rerun them and compare.
@Suite("Documentation examples")
struct DocumentationExampleTests {
    static let quoted = (try? DocumentationFiles.quotedOutputs()) ?? []

    @Test("the README and the articles mark every output they quote, and the marks are found")
    func marksFound() throws {
        let quoted = try DocumentationFiles.quotedOutputs()
        // The quotes when the README moved to DocC: inspect (text, JSON, tracks, untimed runs,
        // a skipped record), two errors, rules, permissions (compare and population), track and
        // noise. A lost marker would silently unpin its output.
        #expect(quoted.count >= 13)
        #expect(Set(quoted.map(\.file)).count >= 6)
        for example in quoted {
            #expect(example.arguments != nil, "\(example.file):\(example.line): a quote starts with `$ tracesim `")
            #expect(!example.lines.isEmpty, "\(example.file):\(example.line): a quote holds output")
        }
    }

    @Test("a quoted output is what the command prints today", arguments: quoted)
    func quotedOutput(_ example: QuotedOutput) throws {
        let arguments = try #require(example.arguments)
        let result = try runBinary(arguments)
        let quoted = example.lines.joined(separator: "\n") + "\n"
        switch example.kind {
        case .exact:
            #expect(result.exitCode == 0, "\(result.error)")
            #expect(result.output == quoted)
        case .excerpt:
            #expect(result.exitCode == 0, "\(result.error)")
            #expect(example.isExcerpt(of: result.output), "\(example.file):\(example.line)")
        case .error(let exitCode):
            #expect(result.exitCode == exitCode)
            #expect(result.error == quoted)
        }
    }

    @Test("markers name their kind; an error marker carries its exit status")
    func markerKinds() {
        #expect(QuotedOutput.Kind(marker: "<!-- output: exact -->") == .exact)
        #expect(QuotedOutput.Kind(marker: "<!-- output: excerpt -->") == .excerpt)
        #expect(QuotedOutput.Kind(marker: "<!-- output: error 65 -->") == .error(exitCode: 65))
        #expect(QuotedOutput.Kind(marker: "<!-- output: error -->") == nil)
        #expect(QuotedOutput.Kind(marker: "<!-- README example: x -->") == nil)
    }

    @Test("an excerpt matches runs of lines in order, and fails on a changed or reordered line")
    func excerptMatching() {
        let output = "a\nb\nc\nd\n"
        func excerpt(_ lines: [String]) -> QuotedOutput {
            QuotedOutput(file: "x.md", line: 1, kind: .excerpt, command: "$ tracesim x", lines: lines)
        }
        #expect(excerpt(["a", "b", "...", "d"]).isExcerpt(of: output))
        #expect(excerpt(["b", "c"]).isExcerpt(of: output))
        #expect(!excerpt(["a", "c"]).isExcerpt(of: output))
        #expect(!excerpt(["c", "...", "a"]).isExcerpt(of: output))
        #expect(!excerpt(["a", "...", "e"]).isExcerpt(of: output))
    }

    @Test("the degradation table at the top of the README is what Scripts/run.sh prints today")
    func matrixTable() throws {
        let lines = try DocumentationFiles.block(
            after: "degradation table (real output", in: DocumentationFiles.text("README.md"))
        let result = try runBinary(["matrix", "--date", "2020-02-07"] + Self.bundledTraces())
        #expect(result.exitCode == 0)
        #expect(result.output == lines.joined(separator: "\n") + "\n")
    }

    @Test("the bundled-trace table in the Bundled traces article is what inspect prints today")
    func bundledTable() throws {
        let lines = try DocumentationFiles.block(after: "bundled trace (real output):", in: Self.bundledArticle())
        let result = try runBinary(["inspect", "--format", "table", "--date", "2020-02-07"] + Self.bundledTraces())
        #expect(result.exitCode == 0)
        #expect(result.output == lines.joined(separator: "\n") + "\n")
    }

    static func bundledArticle() throws -> String {
        try DocumentationFiles.text(DocumentationFiles.catalogue + "/BundledTraces.md")
    }

    /// The fourteen files the Bundled traces article lists, in its order.
    static func bundledTraces() throws -> [String] {
        let files = try DocumentationFiles.block(after: "bundled trace (real output):", in: bundledArticle())
            .dropFirst().compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(files.count == 14)
        return files
    }
}
