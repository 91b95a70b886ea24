import Foundation
import TestSupport
import Testing

@testable import Traces

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("detecting a file's trace format from its head, as a directory walk does")
struct TraceDetectionTests {
    /// A scratch folder removed with the value.
    private final class Scratch {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tracesim-detect-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: folder) }

        func write(_ name: String, _ bytes: [UInt8]) throws -> String {
            let url = folder.appendingPathComponent(name)
            try Data(bytes).write(to: url)
            return url.path
        }
    }

    @Test("every bundled trace is detected as the format its import reports", arguments: Repository.bundledTraces)
    func bundledTrace(relativePath: String) throws {
        let path = Repository.trace(relativePath)
        let imported = try TraceImporter.load(path: path).provenance.format
        #expect(try TraceImporter.detectFormat(atPath: path) == imported)
    }

    @Test("there are fourteen bundled traces, and no licence or source list is one")
    func bundledFolder() throws {
        #expect(Repository.bundledTraces.count == 14)
        let folder = Repository.tracesFolder.path
        let notTraces = try FileManager.default.contentsOfDirectory(atPath: folder + "/LICENSES").map {
            folder + "/LICENSES/" + $0
        }
        #expect(notTraces.count == 5)
        for path in notTraces + [folder + "/SOURCES.md"] {
            #expect(try TraceImporter.detectFormat(atPath: path) == nil, "\(path)")
        }
    }

    @Test("a gzip trace is detected from its inflated head, whatever its name")
    func gzip() throws {
        let scratch = try Scratch()
        let bike = try FileBytes.read(Repository.trace("gpsbabel/bike.tcx"))
        let compressed = try scratch.write("bike.bin", GzipTestSupport.gzip(bike))
        #expect(try TraceImporter.detectFormat(atPath: compressed) == .tcx)
        let kml = try scratch.write(
            "route.gz", GzipTestSupport.gzip(try FileBytes.read(Repository.trace("gpsbabel/google_ext.kml"))))
        #expect(try TraceImporter.detectFormat(atPath: kml) == .kml)
    }

    @Test("a gzip stream cut short is judged on what inflated before the cut; import reports the cut")
    func truncatedGzip() throws {
        let scratch = try Scratch()
        let whole = GzipTestSupport.gzip(GzipTestSupport.gpx(count: 20_000))
        #expect(whole.count > 40_000)
        let cut = try scratch.write("cut.gpx.gz", Array(whole.prefix(whole.count / 2)))
        #expect(try TraceImporter.detectFormat(atPath: cut) == .gpx11)
        #expect(throws: TraceFormatError.self) { try TraceImporter.load(path: cut) }
        // Nothing inflates from a header alone: nothing to detect.
        let header = try scratch.write("header.gz", Array(whole.prefix(10)))
        #expect(try TraceImporter.detectFormat(atPath: header) == nil)
    }

    @Test("a corrupt gzip stream and a compressed binary are no trace")
    func gzipNotTraces() throws {
        let scratch = try Scratch()
        let corrupt = try scratch.write(
            "corrupt.gz", [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3] + Array(repeating: 0xFF, count: 64))
        #expect(try TraceImporter.detectFormat(atPath: corrupt) == nil)
        let zeros = try scratch.write("zeros.gz", GzipTestSupport.gzip(Array(repeating: 0, count: 1 << 20), repeating: 4))
        #expect(try TraceImporter.detectFormat(atPath: zeros) == nil)
        // Starts like NMEA, then binary inside the head: import would refuse the NUL byte first.
        let mixed = try scratch.write("mixed.gz", GzipTestSupport.gzip(Array("$GPRMC,1\n".utf8) + [0, 1, 2]))
        #expect(try TraceImporter.detectFormat(atPath: mixed) == nil)
    }

    @Test("what the importer refuses before detecting is no trace: empty, blank, NUL byte, UTF-16")
    func refusedHeads() throws {
        let scratch = try Scratch()
        let gpx = Array(GzipTestSupport.gpx(count: 3).utf8)
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in GzipTestSupport.gpx(count: 3).utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let cases: [(String, [UInt8])] = [
            ("empty.gpx", []), ("blank.gpx", Array(" \n\t\r\n".utf8)), ("nul.gpx", gpx.prefix(60) + [0] + gpx.dropFirst(60)),
            ("utf16.gpx", utf16),
        ]
        for (name, bytes) in cases {
            let path = try scratch.write(name, bytes)
            #expect(try TraceImporter.detectFormat(atPath: path) == nil, "\(name)")
            #expect(throws: TraceFormatError.self, "\(name)") { try TraceImporter.load(path: path) }
        }
    }

    @Test("a NUL byte past the head is left for import to report")
    func nulPastHead() throws {
        let scratch = try Scratch()
        let path = try scratch.write("late-nul.nmea", Array(GzipTestSupport.nmea(count: 400).utf8) + [0])
        #expect(FormatDetector.sniffBytes < 400 * 70)
        #expect(try TraceImporter.detectFormat(atPath: path) == .nmea)
    }

    @Test("the extension plays no part: a .gpx that shows no GPX is no trace, though import calls it GPX")
    func extensionIgnored() throws {
        let scratch = try Scratch()
        let path = try scratch.write("notes.gpx", Array("Drive to the lake, take the long road.\n".utf8))
        #expect(try TraceImporter.detectFormat(atPath: path) == nil)
        #expect(throws: TraceFormatError.self) { try TraceImporter.load(path: path) }
        let markdown = try scratch.write("trace.md", Array(GzipTestSupport.nmea(count: 3).utf8))
        #expect(try TraceImporter.detectFormat(atPath: markdown) == .nmea)
    }

    @Test("a UTF-8 byte-order mark is skipped, as import skips it")
    func byteOrderMark() throws {
        let scratch = try Scratch()
        let path = try scratch.write("bom.gpx", [0xEF, 0xBB, 0xBF] + Array(GzipTestSupport.gpx(count: 3).utf8))
        #expect(try TraceImporter.detectFormat(atPath: path) == .gpx11)
    }

    @Test("a missing file, a directory and a FIFO throw without blocking")
    func notRegularFiles() throws {
        let scratch = try Scratch()
        #expect(throws: TraceFileError(file: scratch.folder.path + "/absent.gpx", reason: "no such file")) {
            try TraceImporter.detectFormat(atPath: scratch.folder.path + "/absent.gpx")
        }
        #expect(throws: TraceFileError(file: scratch.folder.path, reason: "not a regular file (a directory)")) {
            try TraceImporter.detectFormat(atPath: scratch.folder.path)
        }
        let fifo = scratch.folder.path + "/pipe.nmea"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: TraceFileError(file: fifo, reason: "not a regular file (a FIFO)")) {
            try TraceImporter.detectFormat(atPath: fifo)
        }
    }
}
