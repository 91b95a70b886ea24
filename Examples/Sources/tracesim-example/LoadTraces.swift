import Foundation
import TraceSim

/// Every file under `folder` that an importer reads, in byte order of their paths (the order
/// `tracesim matrix` is given them by the CI check), skipping the licence and provenance notes.
func loadTraces(in folder: String) throws -> [Matrix.NamedTrace] {
    guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
    let paths = walker.compactMap { $0 as? String }
        .filter { !$0.hasPrefix("LICENSES") && !$0.hasSuffix(".md") }
        .map { folder + "/" + $0 }
        .filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && !isFolder.boolValue
        }
        .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    // A file with no timed fix cannot be replayed; `tracesim matrix` reports and skips it too.
    return try paths.map { Matrix.NamedTrace(name: $0, trace: try TraceImporter.load(path: $0)) }
        .filter { !$0.trace.fixes.isEmpty }
}
