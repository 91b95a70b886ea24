import Foundation
import Testing

/// Byte-for-byte comparison with a file under Tests/ReportsTests/Golden/. With
/// TRACESIM_UPDATE_GOLDEN=1 the file is written instead, for a change meant to move the output.
enum Golden {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let updating = ProcessInfo.processInfo.environment["TRACESIM_UPDATE_GOLDEN"] == "1"

    static func check(_ text: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let url = folder.appendingPathComponent(name)
        if updating {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
            } catch {
                Issue.record("cannot write golden file \(name): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            Issue.record(
                "no golden file \(name): run the tests with TRACESIM_UPDATE_GOLDEN=1 to write it",
                sourceLocation: sourceLocation)
            return
        }
        let expected = String(decoding: data, as: UTF8.self)
        guard expected != text || Array(data) != Array(text.utf8) else { return }
        Issue.record("\(name): \(firstDifference(expected: expected, actual: text))", sourceLocation: sourceLocation)
    }

    /// The first line that differs, both ways, so a failure reads without a diff tool.
    static func firstDifference(expected: String, actual: String) -> String {
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(expectedLines.count, actualLines.count) {
            let want = index < expectedLines.count ? String(expectedLines[index]) : "(end of file)"
            let got = index < actualLines.count ? String(actualLines[index]) : "(end of file)"
            guard want != got else { continue }
            let column = zip(want, got).prefix { $0 == $1 }.count
            func around(_ line: String) -> String {
                let start =
                    line.index(line.startIndex, offsetBy: max(0, column - 40), limitedBy: line.endIndex)
                    ?? line.endIndex
                return String(line[start...].prefix(120))
            }
            return "line \(index + 1), column \(column + 1) differs (TRACESIM_UPDATE_GOLDEN=1 rewrites the file)\n"
                + "  expected: \(around(want))\n  actual:   \(around(got))"
        }
        return "same lines, different bytes"
    }
}
