import Foundation

/// Paths of the bundled real traces and of the test-only fixtures.
enum FixtureFiles {
    /// The repository's `Traces/` folder, found from this source file's location so tests
    /// read the very files the README talks about.
    static let tracesFolder: String = {
        let here = URL(fileURLWithPath: #filePath)
        return here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Traces").path
    }()

    static func trace(_ relativePath: String) -> String { tracesFolder + "/" + relativePath }

    static func fixture(_ name: String) -> String {
        guard let url = Bundle.module.url(forResource: "Fixtures/" + name, withExtension: nil) else {
            return "missing-fixture-" + name
        }
        return url.path
    }
}
