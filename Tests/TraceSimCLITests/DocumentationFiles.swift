import Foundation
import TestSupport
import Testing

/// The README and the DocC articles, read the way the tests that keep them honest need them.
enum DocumentationFiles {
    static let catalogue = "Documentation/TraceSim.docc"

    static func text(_ relativePath: String) throws -> String {
        try String(contentsOf: Repository.root.appendingPathComponent(relativePath), encoding: .utf8)
    }

    /// The catalogue's articles, relative to the repository root, in byte order.
    static func articles() throws -> [String] {
        let folder = Repository.root.appendingPathComponent(catalogue)
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".md") }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { catalogue + "/" + $0 }
    }

    /// Every Markdown file under `Documentation/`, relative to the repository root, in byte order.
    static func allMarkdown() throws -> [String] {
        let root = Repository.root.appendingPathComponent("Documentation")
        let walker = try #require(FileManager.default.enumerator(atPath: root.path))
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".md") }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { "Documentation/" + $0 }
    }

    /// The lines of the first fenced block after `marker`.
    static func block(after marker: String, in text: String) throws -> [Substring] {
        let start = try #require(text.range(of: marker)).upperBound
        let fenceOpen = try #require(text.range(of: "```", range: start..<text.endIndex))
        let bodyStart = try #require(text[fenceOpen.upperBound...].firstIndex(of: "\n"))
        let fenceClose = try #require(text.range(of: "\n```", range: bodyStart..<text.endIndex))
        return text[text.index(after: bodyStart)..<fenceClose.lowerBound].split(
            separator: "\n", omittingEmptySubsequences: false)
    }

    /// Every quoted output in the README and the articles (see `QuotedOutput`).
    static func quotedOutputs() throws -> [QuotedOutput] {
        try (["README.md"] + articles()).flatMap { file in QuotedOutput.all(in: try text(file), file: file) }
    }
}

/// A command's output quoted in the documentation: a fenced block right after an
/// `<!-- output: exact -->`, `<!-- output: excerpt -->` or `<!-- output: error N -->` comment,
/// whose first line is `$ tracesim ARGUMENTS` (split at spaces). An exact block is the whole
/// standard output of a command that succeeds. An excerpt is runs of lines, separated by `...`
/// lines, that the output holds in that order. An error block is the whole standard error of a
/// command that exits with status N.
struct QuotedOutput: CustomTestStringConvertible, Sendable {
    enum Kind: Equatable, Sendable {
        case exact
        case excerpt
        case error(exitCode: Int32)

        init?(marker: String) {
            switch marker {
            case "<!-- output: exact -->": self = .exact
            case "<!-- output: excerpt -->": self = .excerpt
            default:
                guard let match = marker.wholeMatch(of: /<!-- output: error ([0-9]{1,3}) -->/),
                    let code = Int32(match.1)
                else { return nil }
                self = .error(exitCode: code)
            }
        }
    }

    var file: String
    /// The marker's line, counted from 1.
    var line: Int
    var kind: Kind
    var command: String
    var lines: [String]

    var testDescription: String { "\(file):\(line)" }

    /// `nil` when the block does not start with `$ tracesim `.
    var arguments: [String]? {
        guard command.hasPrefix("$ tracesim ") else { return nil }
        return command.dropFirst("$ tracesim ".count).split(separator: " ").map(String.init)
    }

    static func all(in text: String, file: String) -> [QuotedOutput] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var found: [QuotedOutput] = []
        var index = 0
        while index < lines.count {
            guard let kind = Kind(marker: lines[index].trimmingCharacters(in: .whitespaces)) else {
                index += 1
                continue
            }
            let markerLine = index + 1
            var body: [String] = []
            index += 1
            while index < lines.count, !lines[index].hasPrefix("```") { index += 1 }
            index += 1
            while index < lines.count, !lines[index].hasPrefix("```") {
                body.append(lines[index])
                index += 1
            }
            found.append(
                QuotedOutput(
                    file: file, line: markerLine, kind: kind, command: body.first ?? "",
                    lines: Array(body.dropFirst())))
        }
        return found
    }

    /// Whether `output` holds this excerpt: each run of lines between `...` lines, whole and in order.
    func isExcerpt(of output: String) -> Bool {
        let printed = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let runs = lines.split(separator: "...", omittingEmptySubsequences: true).map(Array.init)
        var from = 0
        for run in runs {
            guard
                let start = (from...max(from, printed.count - run.count)).first(where: { start in
                    start + run.count <= printed.count && Array(printed[start..<start + run.count]) == run
                })
            else { return false }
            from = start + run.count
        }
        return true
    }
}
