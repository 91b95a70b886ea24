@testable import EngineProtocol
import Foundation
import Testing

/// What a signal removes: the temporary files still being written, not those renamed into
/// place since.
@Suite("Temporary files on a signal")
struct TemporaryFilesTests {
    @Test("removeAll removes the files added and not forgotten, and leaves the forgotten ones")
    func removesOnlyPendingFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("temporary-files-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (writing, renamed) = (folder.appendingPathComponent(".report.tmp").path, folder.appendingPathComponent("kept").path)
        for path in [writing, renamed] { #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8))) }
        var files = TemporaryFiles()
        files.add(writing)
        files.add(renamed)
        files.forget(renamed)
        files.removeAll()
        #expect(!FileManager.default.fileExists(atPath: writing))
        #expect(FileManager.default.fileExists(atPath: renamed))
        // Emptied: a file created again under the same name later is not removed.
        #expect(FileManager.default.createFile(atPath: writing, contents: nil))
        files.removeAll()
        #expect(FileManager.default.fileExists(atPath: writing))
    }
}
