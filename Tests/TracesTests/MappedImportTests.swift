import Foundation
import Testing
import Traces

/// Files on disk are mapped and their pages handed back behind the importer; reading them
/// must give exactly what reading the same bytes from memory gives, errors included.
@Suite("Mapped import")
struct MappedImportTests {
    static func write(_ bytes: [UInt8], name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tracesim-\(UUID().uuidString)-\(name)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// JSON Lines spanning several 8 MB release batches, then `last`.
    static func jsonLines(count: Int, last: String) -> [UInt8] {
        var text = ""
        for second in 0..<count {
            let minute = second / 60 % 60
            let hour = second / 3600
            let clock = [hour % 24, minute, second % 60].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
            text += #"{"time":"2020-01-0\#(1 + hour / 24)T\#(clock)Z","lat":37.\#(second % 1000),"lon":-122.1,"h_acc_m":5}"# + "\n"
        }
        return Array((text + last).utf8)
    }

    @Test("a 20 MB file read from disk equals the same bytes read from memory")
    func sameFixes() throws {
        let bytes = Self.jsonLines(count: 300_000, last: "")
        #expect(bytes.count > 16 << 20)
        let path = try Self.write(bytes, name: "big.jsonl")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fromDisk = try TraceImporter.load(path: path)
        let fromMemory = try TraceImporter.read(bytes, name: path)
        #expect(fromDisk.fixes.count == 300_000)
        #expect(fromDisk.fixes == fromMemory.fixes)
    }

    @Test("an error past the released pages still names the right line and column")
    func errorAfterRelease() throws {
        let bytes = Self.jsonLines(count: 200_000, last: #"{"time":"2020-01-03T08:00:00Z","lat":91,"lon":0}"# + "\n")
        let path = try Self.write(bytes, name: "bad.jsonl")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var strict = ImportOptions()
        strict.strict = true
        let fromDisk = #expect(throws: TraceFormatError.self) { try TraceImporter.load(path: path, options: strict) }
        let fromMemory = formatError(bytes, name: path, strict: true)
        #expect(fromDisk?.line == 200_001)
        #expect(fromDisk == fromMemory)
    }
}
