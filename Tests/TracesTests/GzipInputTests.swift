import CZlib
import Foundation
import Testing

@testable import Traces

@Suite("gzip-compressed traces")
struct GzipInputTests {
    /// A scratch folder removed with the value.
    private final class Scratch {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tracesim-gz-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: folder) }

        func write(_ name: String, _ bytes: [UInt8]) throws -> String {
            let url = folder.appendingPathComponent(name)
            try Data(bytes).write(to: url)
            return url.path
        }
    }

    private func loadError(_ path: String) -> (any Error)? {
        do {
            let trace = try TraceImporter.load(path: path)
            Issue.record("expected an error, imported \(trace.fixes.count) fixes")
            return nil
        } catch {
            return error
        }
    }

    @Test(
        "a gzip file imports the same fixes as the plain file, in every line and XML format tried",
        arguments: [
            ("gpx", GzipTestSupport.gpx(count: 40)), ("nmea", GzipTestSupport.nmea(count: 40)),
            ("csv", GzipTestSupport.csv(count: 40)), ("jsonl", GzipTestSupport.jsonLines(count: 40)),
        ])
    func sameFixesAsPlain(extension pathExtension: String, text: String) throws {
        let scratch = try Scratch()
        let plain = try scratch.write("trace.\(pathExtension)", Array(text.utf8))
        let compressed = try scratch.write("trace.\(pathExtension).gz", GzipTestSupport.gzip(text))
        let unnamed = try scratch.write("download", GzipTestSupport.gzip(text))
        let expected = try TraceImporter.load(path: plain)
        #expect(expected.fixes.count == 40)
        #expect(try TraceImporter.load(path: compressed).fixes == expected.fixes)
        // Detected from the inflated content: the name says nothing.
        #expect(try TraceImporter.load(path: unnamed).fixes == expected.fixes)
    }

    @Test("concatenated members, as `cat a.gz b.gz` makes, read as one stream")
    func multiMember() throws {
        let scratch = try Scratch()
        // "\r\n" is one Character in Swift.
        let lines = GzipTestSupport.nmea(count: 50).split(separator: "\r\n")
        #expect(lines.count == 50)
        let first = lines[..<20].joined(separator: "\r\n") + "\r\n"
        let second = lines[20...].joined(separator: "\r\n") + "\r\n"
        let path = try scratch.write("log.nmea.gz", GzipTestSupport.gzip(first) + GzipTestSupport.gzip(second))
        #expect(try TraceImporter.load(path: path).fixes.count == 50)
    }

    @Test("a stream cut short is a truncated gzip stream, naming the file")
    func truncated() throws {
        let scratch = try Scratch()
        let whole = GzipTestSupport.gzip(GzipTestSupport.csv(count: 200))
        for cut in [2, 10, whole.count / 2, whole.count - 1] {
            let path = try scratch.write("cut-\(cut).csv.gz", Array(whole[..<cut]))
            #expect(
                loadError(path) as? TraceFormatError
                    == TraceFormatError(file: path, problem: .compressedStream("truncated gzip stream")))
        }
    }

    @Test("a corrupt stream is refused in zlib's words")
    func corrupt() throws {
        let scratch = try Scratch()
        var bytes = GzipTestSupport.gzip(GzipTestSupport.csv(count: 200))
        // The CRC-32 is the trailer's first four bytes.
        bytes[bytes.count - 8] ^= 0xFF
        let badCheck = try scratch.write("crc.csv.gz", bytes)
        #expect(
            loadError(badCheck) as? TraceFormatError
                == TraceFormatError(file: badCheck, problem: .compressedStream("corrupt gzip stream: incorrect data check")))
        let badHeader = try scratch.write("header.csv.gz", [0x1F, 0x8B, 0x07] + bytes[3...])
        #expect(
            loadError(badHeader) as? TraceFormatError
                == TraceFormatError(
                    file: badHeader, problem: .compressedStream("corrupt gzip stream: unknown compression method")))
    }

    @Test("bytes after the last member that are not another member are refused, not dropped")
    func trailingData() throws {
        let scratch = try Scratch()
        let member = GzipTestSupport.gzip(GzipTestSupport.csv(count: 10))
        let path = try scratch.write("trailing.csv.gz", member + Array("time,lat,lon\n".utf8))
        #expect(
            loadError(path) as? TraceFormatError
                == TraceFormatError(
                    file: path,
                    problem: .compressedStream(
                        "byte \(member.count) of the gzip stream follows its last member but does not start another")))
    }

    @Test("zero padding after the last member is ignored, as gzip(1) ignores it; data after it is not")
    func zeroPadding() throws {
        let scratch = try Scratch()
        let member = GzipTestSupport.gzip(GzipTestSupport.csv(count: 10))
        let padded = try scratch.write("padded.csv.gz", member + [UInt8](repeating: 0, count: 512))
        #expect(try TraceImporter.load(path: padded).fixes.count == 10)
        let followed = try scratch.write("followed.csv.gz", member + [0, 0] + member)
        #expect(
            loadError(followed) as? TraceFormatError
                == TraceFormatError(
                    file: followed,
                    problem: .compressedStream(
                        "byte \(member.count + 2) of the gzip stream follows its last member but does not start another"
                    )))
    }

    @Test("the bomb limits are the documented figures")
    func documentedBombLimits() {
        #expect(TraceFile.maximumGzipExpansionRatio == 1000)
        #expect(TraceFile.gzipExpansionCheckedAboveBytes == 64 << 20)
    }

    @Test("a stream expanding past 1000:1 is refused once it passes 64 MiB, long before its end")
    func bombIsRefusedEarly() throws {
        let scratch = try Scratch()
        // 96 MiB of spaces at deflate's best, about 1030:1; refused after 64 MiB.
        let spaces = [UInt8](repeating: 0x20, count: 1 << 20)
        let bomb = GzipTestSupport.gzip(spaces, repeating: 96, level: 9, strategy: Z_RLE)
        #expect(bomb.count < (96 << 20) / 1000)
        let path = try scratch.write("bomb.gpx.gz", bomb)
        #expect(
            loadError(path) as? TraceFormatError
                == TraceFormatError(
                    file: path,
                    problem: .compressedStream(
                        "gzip stream inflates past 64 MiB at more than 1000:1, refused as a decompression bomb")))
    }

    @Test("a highly compressed stream under 64 MiB is not a bomb: it reaches the importer")
    func smallHighRatioIsNotABomb() throws {
        let scratch = try Scratch()
        let spaces = [UInt8](repeating: 0x20, count: 1 << 20)
        let path = try scratch.write("blank.gpx.gz", GzipTestSupport.gzip(spaces, repeating: 8, level: 9, strategy: Z_RLE))
        #expect(loadError(path) as? TraceFormatError == TraceFormatError(file: path, problem: .emptyFile))
    }

    @Test("the extension under .gz breaks ties: content no format claims gets the GPX reader's error")
    func extensionUnderGz() throws {
        #expect(TraceImporter.pathExtension(of: "maps/route.GPX.gz") == "gpx")
        #expect(TraceImporter.pathExtension(of: "route.gz") == "")
        #expect(TraceImporter.pathExtension(of: "route.nmea") == "nmea")
        let scratch = try Scratch()
        let damaged = GzipTestSupport.gzip("this is not a trace\n")
        let gpx = try scratch.write("route.gpx.gz", damaged)
        let plain = try scratch.write("route.txt.gz", damaged)
        let gpxProblem = (loadError(gpx) as? TraceFormatError)?.problem
        #expect(gpxProblem != nil && gpxProblem != .unrecognizedFormat, "\(String(describing: gpxProblem))")
        #expect((loadError(plain) as? TraceFormatError)?.problem == .unrecognizedFormat)
    }

    @Test("an empty member is an empty file; a compressed binary stops at its first NUL byte")
    func emptyAndBinary() throws {
        let scratch = try Scratch()
        let empty = try scratch.write("empty.gpx.gz", GzipTestSupport.gzip([UInt8]()))
        #expect(loadError(empty) as? TraceFormatError == TraceFormatError(file: empty, problem: .emptyFile))
        let binary = try scratch.write("zeros.gz", GzipTestSupport.gzip([UInt8](repeating: 0, count: 4 << 20)))
        #expect((loadError(binary) as? TraceFormatError)?.problem == .nulByte)
    }
}
