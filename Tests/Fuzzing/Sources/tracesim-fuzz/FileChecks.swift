#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import Traces

/// The `file` harness: each input is written to one file in a private folder and imported by
/// path, so gzip detection, inflation, the bomb rule and the spool-and-map path are fuzzed
/// together with the importer the content picks.
enum FileChecks {
    /// The file every input is written to, in a folder made once per process.
    private static let path: String = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tracesim-fuzz-file-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("input").path
    }()

    static func load(_ bytes: [UInt8]) throws -> Trace {
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            fatalError("the fuzzing harness could not write its input file")
        }
        return try TraceImporter.load(path: path)
    }
}
