import CZlib
import Foundation
import Testing

@testable import Traces

/// A gzip stream whose content is wrong near its start stops inflating there: the content so
/// far is imported on trial at checkpoints (`InflatedPrefixCheck`), and an error the whole
/// file's import would stop at too ends the stream. Each test counts the bytes inflated into
/// the temporary file, never the time.
@Suite("gzip streams stop at their first error")
struct GzipEarlyErrorTests {
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

    /// What a load through the check saw: each trial's inflated size, and how it ended.
    private struct Outcome {
        var trials: [Int] = []
        var error: TraceFormatError?
        var fixCount: Int?
    }

    /// Opens `path` as `TraceImporter.load` does, recording every trial import's size, then
    /// imports what was spooled.
    private func load(_ path: String, options: ImportOptions = ImportOptions()) throws -> Outcome {
        final class Sizes: @unchecked Sendable { var values: [Int] = [] }
        let sizes = Sizes()
        let check = InflatedPrefixCheck(isStrict: options.strict) { prefix in
            sizes.values.append(prefix.bytes.count)
            do throws(TraceFormatError) {
                _ = try TraceImporter.read(Array(prefix.bytes), name: path, options: options)
                return nil
            } catch {
                return error
            }
        }
        var outcome = Outcome()
        do {
            switch try TraceFile.openForImport(path: path, check: check) {
            case .mapped(let mapping):
                outcome.fixCount = try TraceImporter.read(Array(mapping.bytes), name: path, options: options).fixes.count
            case .read(let bytes):
                outcome.fixCount = try TraceImporter.read(bytes, name: path, options: options).fixes.count
            }
        } catch let error as TraceFormatError {
            outcome.error = error
        }
        outcome.trials = sizes.values
        return outcome
    }

    /// The first error a plain (uncompressed) import of `bytes` reports.
    private func plainError(_ bytes: [UInt8], name: String, options: ImportOptions = ImportOptions()) -> TraceFormatError? {
        do {
            _ = try TraceImporter.read(bytes, name: name, options: options)
            return nil
        } catch {
            return error
        }
    }

    /// `index` seconds after 2020-01-01T00:00:00Z, for traces longer than an hour.
    private static func time(_ index: Int) -> String {
        String(
            format: "2020-01-%02dT%02d:%02d:%02dZ", 1 + index / 86_400, index / 3600 % 24, index / 60 % 60, index % 60)
    }

    /// TraceSim CSV of `count` fixes a second apart.
    private static func csv(count: Int) -> String {
        "time,lat,lon\n" + (0..<count).map { "\(time($0)),\(48.0 + Double($0 % 1000) * 0.0001),11.5\n" }.joined()
    }

    /// A GPX 1.1 track of `count` points a second apart.
    private static func gpx(count: Int) -> String {
        #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
            + #"<gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>"# + "\n"
            + (0..<count).map {
                #"<trkpt lat="\#(48.0 + Double($0 % 1000) * 0.0001)" lon="11.5"><time>\#(time($0))</time></trkpt>"# + "\n"
            }.joined() + "</trkseg></trk></gpx>\n"
    }

    /// `head`, then `mebibytes` MiB of empty lines, compressed; and the same bytes plain.
    private func stream(_ head: String, thenEmptyLines mebibytes: Int) -> (gzip: [UInt8], plain: [UInt8]) {
        var plain = Array(head.utf8)
        plain += [UInt8](repeating: 0x0A, count: mebibytes << 20)
        return (GzipTestSupport.gzip(plain, level: 9), plain)
    }

    /// About `bytes` of CSV rows whose latitude is no number, 1 KiB each: a lenient import
    /// skips them, a strict one stops at the first.
    private static func badRows(_ bytes: Int) -> String {
        let row = "2020-01-01T12:00:00Z,north" + String(repeating: "x", count: 1000) + ",11.5\n"
        return String(repeating: row, count: bytes / row.utf8.count + 1)
    }

    @Test("a broken second line stops the stream after the first MiB, with the plain file's error")
    func brokenSecondLine() throws {
        let scratch = try Scratch()
        let (gzip, plain) = stream("time,lat,lon\noops\n", thenEmptyLines: 12)
        let path = try scratch.write("drive.csv.gz", gzip)
        let outcome = try load(path)
        let expected = try #require(plainError(plain, name: path))
        #expect(expected.line == 2 && expected.problem == .wrongFieldCount(expected: "3", found: 1))
        #expect(outcome.error == expected)
        // One trial, at the first checkpoint: at most one inflater output run past 1 MiB
        // reached the temporary file, not the 12 MiB behind it.
        #expect(outcome.trials.count == 1)
        #expect(try #require(outcome.trials.first) <= InflatedPrefixCheck.firstCheckBytes + (256 << 10))
        // Through the public entry point too.
        #expect((try? TraceImporter.load(path: path)) == nil)
        do {
            _ = try TraceImporter.load(path: path)
        } catch {
            #expect(error as? TraceFormatError == expected)
        }
    }

    @Test("an error after 2 MiB of good records, in a stream above 50:1, stops at the 4 MiB checkpoint")
    func laterCheckpoint() throws {
        let scratch = try Scratch()
        let record = "2020-01-01T12:00:00Z,48.0,11.5\n"
        let good = String(repeating: record, count: (2 << 20) / record.utf8.count)
        let (gzip, plain) = stream("time,lat,lon\n" + good + "oops\n", thenEmptyLines: 12)
        #expect(plain.count / gzip.count > InflatedPrefixCheck.laterChecksAboveRatio)
        let path = try scratch.write("drive.csv.gz", gzip)
        let outcome = try load(path)
        #expect(outcome.error == plainError(plain, name: path))
        #expect(outcome.error?.problem == .wrongFieldCount(expected: "3", found: 1))
        #expect(outcome.trials.count == 2, "\(outcome.trials)")
        let stoppedAt = try #require(outcome.trials.last)
        #expect(stoppedAt <= (4 << 20) + (256 << 10), "\(outcome.trials)")
    }

    @Test("a good trace is imported whole: a trial of its first MiB, no more below 50:1, the same fixes")
    func goodTraceIsUntouched() throws {
        let scratch = try Scratch()
        let text = Self.csv(count: 60_000)
        let gzip = GzipTestSupport.gzip(text)
        #expect(text.utf8.count / gzip.count < InflatedPrefixCheck.laterChecksAboveRatio)
        let outcome = try load(try scratch.write("drive.csv.gz", gzip))
        #expect(outcome.error == nil)
        #expect(outcome.fixCount == 60_000)
        #expect(outcome.trials.count == 1, "\(outcome.trials)")
    }

    @Test(
        "a trial's error that the whole file would not report does not stop the stream",
        arguments: [
            // A GPX or a one-line JSON document cut at the checkpoint: the cut leaves it unfinished.
            "gpx", "json",
            // Lenient: a bad field with no valid record yet fails the prefix, not the file.
            "lenient",
        ])
    func nothingFinalNoStop(kind: String) throws {
        let scratch = try Scratch()
        let text: String
        switch kind {
        case "gpx": text = Self.gpx(count: 16_000)
        case "json":
            text =
                "["
                + (0..<20_000).map { #"{"latitude":\#(48.0 + Double($0) * 0.0001),"longitude":11.5,"timestamp":\#(1_600_000_000 + $0)}"# }
                .joined(separator: ",") + "]"
        default:
            text = "time,lat,lon\n" + Self.badRows(3 << 19) + "2020-01-01T12:00:01Z,48.0,11.5\n"
        }
        let bytes = Array(text.utf8)
        #expect(bytes.count > InflatedPrefixCheck.firstCheckBytes + InflatedPrefixCheck.marginBytes)
        let plain = try TraceImporter.read(bytes, name: "trace.\(kind)")
        let outcome = try load(try scratch.write("trace.gz", GzipTestSupport.gzip(bytes)))
        #expect(outcome.error == nil, "\(String(describing: outcome.error))")
        #expect(outcome.fixCount == plain.fixes.count && plain.fixes.count > 0)
        #expect(!outcome.trials.isEmpty)
    }

    @Test("under --strict a bad field is final at once; lenient, it waits for the whole file")
    func strictFieldError() throws {
        let scratch = try Scratch()
        let text = "time,lat,lon\n" + Self.badRows(5 << 20)
        let plain = Array(text.utf8)
        let gzip = GzipTestSupport.gzip(plain, level: 9)
        #expect(plain.count / gzip.count > InflatedPrefixCheck.laterChecksAboveRatio)
        let path = try scratch.write("drive.csv.gz", gzip)
        var strict = ImportOptions()
        strict.strict = true
        let strictOutcome = try load(path, options: strict)
        #expect(strictOutcome.error == plainError(plain, name: path, options: strict))
        #expect(strictOutcome.error?.line == 2)
        #expect(strictOutcome.trials.count == 1, "\(strictOutcome.trials)")
        let strictStop = try #require(strictOutcome.trials.first)
        #expect(strictStop < 2 << 20)
        // Lenient: every trial finds only skipped records; the whole file says the same, once read.
        let lenient = try load(path)
        #expect(lenient.error == plainError(plain, name: path))
        #expect(lenient.trials.count >= 2)
    }

    @Test("what counts as final: the kind, the mode, and a line that ends before the cut's margin")
    func finalRule() {
        let lines = Array((String(repeating: "abc\n", count: 40_000)).utf8)
        func isFinal(_ problem: TraceFormatError.Problem, line: Int?, strict: Bool = false) -> Bool {
            lines.withUnsafeBufferPointer {
                InflatedPrefixCheck.isFinal(
                    TraceFormatError(file: "f", line: line, problem: problem), in: $0, isStrict: strict)
            }
        }
        let count = TraceFormatError.Problem.wrongFieldCount(expected: "3", found: 1)
        #expect(isFinal(count, line: 2))
        #expect(!isFinal(count, line: nil))
        // 40,000 lines of 4 bytes: the margin's 16,384 lines before the end do not count.
        let lastCounted = (lines.count - InflatedPrefixCheck.marginBytes) / 4
        #expect(isFinal(count, line: lastCounted))
        #expect(!isFinal(count, line: lastCounted + 1))
        #expect(!isFinal(count, line: 40_001))
        for problem in [
            TraceFormatError.Problem.invalidXML("x"), .invalidJSON("x"), .lineTooLong(limitBytes: 1), .nulByte,
            .unknownColumn("x"), .duplicateColumn("x"), .missingColumn("x"), .nestingTooDeep(limit: 1),
            .entityDeclaration("x"), .unrecognizedFormat,
        ] {
            #expect(isFinal(problem, line: 1), "\(problem)")
        }
        for problem in [
            TraceFormatError.Problem.truncated("x"), .unexpectedContent("x"), .emptyFile, .compressedStream("x"),
        ] {
            #expect(!isFinal(problem, line: 1, strict: true), "\(problem)")
        }
        let fields: [TraceFormatError.Problem] = [
            .invalidNumber(field: "lat"), .nonFiniteNumber(field: "lat"), .latitudeOutOfRange, .longitudeOutOfRange,
            .negativeValue(field: "speed", value: -1), .valueOutOfRange(field: "course", value: 400, range: "0...360"),
            .invalidTimestamp(field: "time"), .missingField("lat"), .unknownToken(field: "provider", token: "x"),
        ]
        for problem in fields {
            #expect(!isFinal(problem, line: 1), "\(problem)")
            #expect(isFinal(problem, line: 1, strict: true), "\(problem)")
        }
    }

    @Test("checkpoints: passing 1 MiB always, then passing 4, 16, 64 MiB… only above 50:1")
    func checkpoints() {
        var check = InflatedPrefixCheck(isStrict: false) { _ in nil }
        var due = check.isDue(inflated: 1 << 20, consumed: 1 << 20)
        #expect(!due)
        due = check.isDue(inflated: (1 << 20) + 1, consumed: 1 << 20)
        #expect(due)
        #expect(check.nextCheckBytes == 4 << 20)
        due = check.isDue(inflated: 4 << 20, consumed: 1)
        #expect(!due)
        // Past 4 MiB from 100 KiB (about 41:1): no trial, and the next is at 16 MiB.
        due = check.isDue(inflated: (4 << 20) + 1, consumed: 100 << 10)
        #expect(!due)
        #expect(check.nextCheckBytes == 16 << 20)
        due = check.isDue(inflated: 17 << 20, consumed: 100 << 10)
        #expect(due)
        #expect(check.nextCheckBytes == 64 << 20)
    }
}
