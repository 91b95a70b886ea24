import Foundation
import TestSupport
import Testing

@Suite("'-' reads the trace from standard input")
struct StandardInputTests {
    static let bike = Repository.trace("gpsbabel/bike.tcx")

    static var bikeBytes: [UInt8] { (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: bike)))) ?? [] }

    /// `bytes` compressed by the system's gzip, as a user's file would be.
    static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-c"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        DispatchQueue.global().async {
            try? input.fileHandleForWriting.write(contentsOf: Data(bytes))
            try? input.fileHandleForWriting.close()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return [UInt8](data)
    }

    static func firstLine(_ text: String) -> String {
        String(text.split(separator: "\n", omittingEmptySubsequences: false)[0])
    }

    @Test("inspect - reads a pipe, a gzip pipe and a redirected file alike")
    func inspect() throws {
        let piped = try runBinary(["inspect", "-"], standardInput: .bytes(Self.bikeBytes))
        #expect(piped.exitCode == 0, "\(piped.error)")
        #expect(piped.output.contains("format    tcx"), "\(piped.output)")
        #expect(piped.output.contains("fixes     1812"), "\(piped.output)")
        let compressed = try runBinary(["inspect", "-"], standardInput: .bytes(try Self.gzip(Self.bikeBytes)))
        #expect(compressed.exitCode == 0, "\(compressed.error)")
        #expect(compressed.output.contains("fixes     1812"), "\(compressed.output)")
        let redirected = try runBinary(["inspect", "-"], standardInput: .file(Self.bike))
        #expect(redirected.exitCode == 0, "\(redirected.error)")
        #expect(redirected.output.contains("fixes     1812"), "\(redirected.output)")
    }

    @Test("convert - writes what it read from standard input")
    func convert() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tracesim-stdin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("bike.jsonl").path
        let result = try runBinary(["convert", "-", output], standardInput: .bytes(try Self.gzip(Self.bikeBytes)))
        #expect(result.exitCode == 0, "\(result.error)")
        #expect(runCommand(["inspect", output]).output.contains("fixes     1812"))
    }

    @Test(
        "track, replay, matrix, check and tune read '-'",
        arguments: [
            ["track", "-"], ["replay", "-", "--scenario", "ideal"], ["matrix", "-", "--scenarios", "ideal"],
            ["tune", "-", "--sweep", "distanceFilter=0:20:20"],
        ])
    func replayingCommands(arguments: [String]) throws {
        let result = try runBinary(arguments, standardInput: .bytes(Self.bikeBytes))
        #expect(result.exitCode == 0, "\(result.error)")
        #expect(!result.output.isEmpty)
    }

    @Test("check - compares a run of standard input with its thresholds")
    func check() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tracesim-stdin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let expect = folder.appendingPathComponent("expect.json")
        try Data(#"{"thresholds": [{"scenario": "ideal", "metric": "acceptedFixes", "min": 1000}]}"#.utf8).write(to: expect)
        let result = try runBinary(["check", "-", "--expect", expect.path], standardInput: .bytes(Self.bikeBytes))
        #expect(result.exitCode == 0, "\(result.error)\(result.output)")
    }

    @Test(
        "standard input can be named once per command line",
        arguments: [
            (["inspect", "-", Self.bike, "-"], "inspect"), (["replay", "-", "--scenario", "ideal", "--truth", "-"], "replay"),
            (["matrix", "-", "-"], "matrix"), (["check", "-", "-", "--expect", "x.json"], "check"),
            (["tune", "-", "--sweep", "distanceFilter=0:20:20", "--truth", "-"], "tune"),
        ])
    func namedTwice(arguments: [String], command: String) {
        let result = runCommand(arguments)
        #expect(result.exitCode == 64, "\(result.error)")
        #expect(
            Self.firstLine(result.error) == "error: standard input ('-') can be read only once, but is named 2 times")
    }

    @Test("matrix --shard refuses '-': every part must hash the same trace file")
    func shardRefusesStandardInput() {
        let result = runCommand(["matrix", "-", "--shard", "1/2", "--format", "json"])
        #expect(result.exitCode == 64)
        #expect(
            Self.firstLine(result.error)
                == "error: --shard needs trace files every part can read: save standard input ('-') to a file first")
    }

    @Test("convert cannot write to '-'")
    func convertOutputIsNotStandardInput() {
        let result = runCommand(["convert", Self.bike, "-"])
        #expect(result.exitCode == 64)
        #expect(Self.firstLine(result.error) == "error: convert writes a file: '-' (standard input) can only be the input")
    }

    @Test("errors name standard input <stdin>; detection uses content only, --input-format overrides it")
    func errorsAndDetection() throws {
        let empty = try runBinary(["inspect", "-"], standardInput: .bytes([]))
        #expect(empty.exitCode == 65)
        #expect(Self.firstLine(empty.error) == "error: <stdin>: the file is empty")
        let csv = "time,lat,lon\n2020-01-01T00:00:00Z,48.1,11.5\n2020-01-01T00:00:01Z,48.1001,11.5\n"
        let detected = try runBinary(["inspect", "-"], standardInput: .bytes(Array(csv.utf8)))
        #expect(detected.exitCode == 0, "\(detected.error)")
        #expect(detected.output.contains("format    tracesim-csv"), "\(detected.output)")
        let unknown = try runBinary(["inspect", "-"], standardInput: .bytes(Array("hello\n".utf8)))
        #expect(unknown.exitCode == 65)
        #expect(Self.firstLine(unknown.error).hasPrefix("error: <stdin>:1: not a trace format TraceSim reads"))
        let forced = try runBinary(["inspect", "-", "--input-format", "gpx-1.1"], standardInput: .bytes(Array("hello\n".utf8)))
        #expect(forced.exitCode == 65)
        #expect(Self.firstLine(forced.error).hasPrefix("error: <stdin>:1:1: invalid XML"), "\(forced.error)")
    }

    @Test("a truncated gzip stream on standard input is exit 65 naming <stdin>")
    func truncatedGzip() throws {
        let compressed = try Self.gzip(Self.bikeBytes)
        let result = try runBinary(["inspect", "-"], standardInput: .bytes(Array(compressed[..<(compressed.count / 2)])))
        #expect(result.exitCode == 65)
        #expect(Self.firstLine(result.error) == "error: <stdin>: truncated gzip stream")
    }

    @Test("no temporary folder is a clear error, not a crash")
    func noTemporaryFolder() throws {
        let missing = "/nonexistent-tracesim-\(UUID().uuidString)"
        let result = try runBinary(["inspect", "-"], standardInput: .bytes(Self.bikeBytes), environment: ["TMPDIR": missing])
        #expect(result.exitCode == 66)
        #expect(
            Self.firstLine(result.error)
                == "error: <stdin>: cannot create a temporary file in \(missing): No such file or directory")
    }

    @Test("the spool file is gone at once: the temporary folder stays empty, plain or compressed")
    func nothingLeftBehind() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tracesim-tmp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let compressed = try Self.gzip(Self.bikeBytes)
        for bytes in [Self.bikeBytes, compressed, Array(compressed[..<100])] {
            _ = try runBinary(["inspect", "-"], standardInput: .bytes(bytes), environment: ["TMPDIR": folder.path])
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        }
    }
}
