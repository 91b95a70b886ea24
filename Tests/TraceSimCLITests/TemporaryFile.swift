import Foundation

/// A file written for one test, alone in a fresh folder under the temporary directory, so
/// tests running in parallel never share a path.
enum TemporaryFile {
    /// Writes `bytes` to `name` in a new folder whose name starts with `prefix`.
    /// - Returns: the file's path.
    static func write(_ name: String, _ bytes: [UInt8], prefix: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// Writes `text` as UTF-8.
    static func write(_ name: String, _ text: String, prefix: String) throws -> String {
        try write(name, Array(text.utf8), prefix: prefix)
    }
}
