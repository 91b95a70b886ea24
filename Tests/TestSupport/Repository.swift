import Foundation

/// The repository's own files, found from this source file's location, so tests read the very
/// traces and examples the README talks about whatever folder the tests run in.
package enum Repository {
    /// The repository's root folder (this file is `Tests/TestSupport/Repository.swift`).
    package static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The absolute path of `relativePath` under the root, such as `Documentation/Examples/scenario.json`.
    package static func path(_ relativePath: String) -> String {
        root.appendingPathComponent(relativePath).path
    }

    /// The bundled traces' folder, `Traces/`.
    package static let tracesFolder = root.appendingPathComponent("Traces")

    /// The absolute path of a bundled trace, given relative to `Traces/`.
    package static func trace(_ relativePath: String) -> String {
        tracesFolder.appendingPathComponent(relativePath).path
    }

    /// Every bundled trace (not the licences or the notes), relative to `Traces/`, in the byte
    /// order `find Traces | LC_ALL=C sort` gives: the order the scripts pass them in.
    package static let bundledTraces: [String] = {
        let folder = tracesFolder.path
        let enumerator = FileManager.default.enumerator(atPath: folder)
        var relativePaths: [String] = []
        while let relative = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: folder + "/" + relative, isDirectory: &isFolder)
            if !exists || isFolder.boolValue || relative.hasPrefix("LICENSES/") || relative.hasSuffix(".md") { continue }
            relativePaths.append(relative)
        }
        return relativePaths.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }()

    /// Every bundled trace as an absolute path, in the order of `bundledTraces`.
    package static var bundledTracePaths: [String] { bundledTraces.map(trace) }
}
