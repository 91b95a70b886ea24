import Foundation
import Testing

@testable import Traces

@Suite("TraceFile read limits")
struct TraceFileLimitTests {
    private func temporary(_ bytes: [UInt8]) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tracesim-\(UUID().uuidString)")
        try Data(bytes).write(to: url)
        return url.path
    }

    @Test("a regular file over the limit is refused before it is read")
    func regularFileOverLimit() throws {
        let path = try temporary(Array(repeating: UInt8(ascii: " "), count: 3 << 20))
        defer { unlink(path) }
        #expect(throws: TraceFileError(file: path, reason: "larger than 2 MiB, the limit for a configuration file")) {
            _ = try TraceFile.contents(ofPath: path, limit: 2 << 20)
        }
        #expect(try TraceFile.contents(ofPath: path, limit: 3 << 20).count == 3 << 20)
    }

    @Test("the configuration and streamed-trace limits are documented figures")
    func documentedLimits() {
        #expect(TraceFile.maximumConfigurationBytes == 256 << 20)
        #expect(TraceFile.maximumStreamedTraceBytes == 1 << 30)
    }

    @Test("a path with a NUL byte is refused rather than cut short at it")
    func pathWithNUL() throws {
        let path = try temporary(Array("{}".utf8))
        defer { unlink(path) }
        #expect(throws: TraceFileError(file: path + "\\0x", reason: "the path contains a NUL byte")) {
            _ = try TraceFile.contents(ofPath: path + "\u{0}x")
        }
        #expect(throws: TraceFileError.self) { _ = try TraceImporter.load(path: path + "\u{0}x") }
    }

    @Test("a directory is refused where a regular file is required")
    func directoryIsNotRegular() throws {
        let folder = FileManager.default.temporaryDirectory.path
        #expect(throws: TraceFileError(file: folder, reason: "not a regular file (a directory)")) {
            _ = try TraceFile.contents(ofPath: folder, requiresRegularFile: true)
        }
    }
}
