import Foundation

/// Paths of the test-only fixtures (the bundled traces are `Repository`'s).
enum FixtureFiles {
    /// A file under `Tests/TracesTests/Fixtures`.
    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
            .appendingPathComponent(name).path
    }
}

enum FileBytes {
    static func read(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
