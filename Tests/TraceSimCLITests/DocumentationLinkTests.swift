import Foundation
import TestSupport
import Testing

/// Every link in the README and the documentation leads somewhere.
@Suite("Documentation links")
struct DocumentationLinkTests {
    /// `[text](target)` outside code, and DocC's `<doc:Name>` and `<doc:Name#Heading>`.
    static func links(in text: String) -> (markdown: [String], doc: [String]) {
        var markdown: [String] = []
        var doc: [String] = []
        var isInFence = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { isInFence.toggle() }
            if isInFence { continue }
            let prose = line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: " ")
            for match in prose.matches(of: /\]\(([^)\s]+)\)/) { markdown.append(String(match.1)) }
            for match in prose.matches(of: /<doc:([^>#]+)(#[^>]*)?>/) { doc.append(String(match.1)) }
        }
        return (markdown, doc)
    }

    static func isExternal(_ target: String) -> Bool {
        target.hasPrefix("https://") || target.hasPrefix("http://") || target.hasPrefix("mailto:")
    }

    /// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
    static func anchors(in text: String) -> Set<String> {
        Set(
            text.split(separator: "\n").filter { $0.hasPrefix("#") }.map { heading in
                String(
                    heading.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
                        .filter { $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" || $0 == "_" }
                        .map { $0 == " " ? "-" : $0 })
            })
    }

    @Test("every relative link in the README and under Documentation names a file that exists")
    func relativeLinks() throws {
        var checked = 0
        for file in try ["README.md"] + DocumentationFiles.allMarkdown() {
            let folder = Repository.root.appendingPathComponent(file).deletingLastPathComponent()
            for target in Self.links(in: try DocumentationFiles.text(file)).markdown where !Self.isExternal(target) {
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = parts[0].isEmpty ? file : String(parts[0])
                let url = parts[0].isEmpty ? Repository.root.appendingPathComponent(file) : folder.appendingPathComponent(path)
                #expect(FileManager.default.fileExists(atPath: url.path), "\(file): \(target) does not exist")
                checked += 1
                if parts.count == 2, url.pathExtension == "md",
                    let target = try? String(contentsOf: url, encoding: .utf8)
                {
                    #expect(Self.anchors(in: target).contains(String(parts[1])), "\(file): no heading for \(parts[1])")
                }
            }
        }
        #expect(checked >= 30)
    }

    @Test("articles link to each other with <doc:>, never to a file path, which the built archive would break")
    func articleLinks() throws {
        let articles = try DocumentationFiles.articles()
        let names = Set(articles.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent })
        var checked = 0
        for file in articles {
            let links = Self.links(in: try DocumentationFiles.text(file))
            for target in links.markdown {
                #expect(Self.isExternal(target), "\(file): \(target) is a file link; use <doc:Name> or a path in code voice")
            }
            for name in links.doc {
                #expect(names.contains(name), "\(file): <doc:\(name)> names no article")
                checked += 1
            }
        }
        #expect(checked >= 20)
    }

    @Test("the link finder sees links in prose, not in code")
    func linkFinder() {
        let text = "See [a](x.md) and <doc:Y#Z>, not `[b](y.md)`.\n```\n[c](z.md)\n```\n"
        let links = Self.links(in: text)
        #expect(links.markdown == ["x.md"])
        #expect(links.doc == ["Y"])
        #expect(Self.anchors(in: "## The `tune` table: rows\n") == ["the-tune-table-rows"])
    }
}
