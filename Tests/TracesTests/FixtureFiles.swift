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

    /// A file under `Tests/TracesTests/Fixtures`.
    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
            .appendingPathComponent(name).path
    }

    /// Every bundled trace file (not the licences or the sources list).
    static var allBundledTraces: [String] {
        let folder = URL(fileURLWithPath: tracesFolder)
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        var paths: [String] = []
        while let url = enumerator?.nextObject() as? URL {
            let relative = String(url.path.dropFirst(folder.path.count + 1))
            var isDirectory: ObjCBool = false
            FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
            if isDirectory.boolValue || relative.hasPrefix("LICENSES") || relative.hasSuffix(".md") { continue }
            paths.append(relative)
        }
        return paths.sorted()
    }
}

enum FileBytes {
    static func read(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
