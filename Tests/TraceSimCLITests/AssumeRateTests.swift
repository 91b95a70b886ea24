import Foundation
import TestSupport
import Testing

/// `--assume-rate` and the untimed-run report, as a user sees them: exit codes, the first
/// line on standard error, and the `inspect` row and JSON keys.
@Suite("Untimed runs and --assume-rate")
struct AssumeRateTests {
    /// A GPX whose 184 points, kilometres apart, all carry the INT32_MIN epoch; the first
    /// point is on line 3.
    static let sentinelGPX: String = {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>

            """
        for index in 0..<184 {
            text += "<trkpt lat=\"\(48.0 + Double(index) * 0.001)\" lon=\"11.5\">"
            text += "<time>1901-12-13T20:45:52Z</time></trkpt>\n"
        }
        return text + "</trkseg></trk></gpx>\n"
    }()

    private static func sentinelFile() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("assume-rate-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("sentinel.gpx")
        try Data(sentinelGPX.utf8).write(to: url)
        return url.path
    }

    private static func firstLine(_ text: String) -> String {
        String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
    }

    @Test("inspect names the untimed run, its first line and the option that times it")
    func inspectText() throws {
        let path = try Self.sentinelFile()
        let result = runCommand(["inspect", path])
        #expect(result.exitCode == 0)
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("  fixes         0"))
        #expect(lines.contains("  merged        0 duplicate records of an epoch"))
        #expect(
            lines.contains(
                "  untimed runs  184 records in 1 run of one timestamp over more than 100 m (line 3); "
                    + "not fixes: pass --assume-rate HZ to time them"))
    }

    @Test("inspect says how many records --assume-rate timed")
    func inspectTextTimed() throws {
        let path = try Self.sentinelFile()
        let result = runCommand(["inspect", path, "--assume-rate", "1", "--date", "2024-05-01"])
        #expect(result.exitCode == 0)
        #expect(result.output.contains("  fixes         184 (unknown 184)\n"))
        #expect(result.output.contains("  span          2024-05-01T00:00:00.000Z → 2024-05-01T00:03:03.000Z"))
        #expect(result.output.contains("(line 3); timed at 1 Hz by --assume-rate\n"))
    }

    @Test("inspect JSON ends with the untimedRuns counts and first lines")
    func inspectJSON() throws {
        let path = try Self.sentinelFile()
        let result = runCommand(["inspect", path, "--format", "json"])
        #expect(result.exitCode == 0)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let runs = try #require(object["untimedRuns"] as? [String: Any])
        #expect(runs["runs"] as? Int == 1)
        #expect(runs["records"] as? Int == 184)
        #expect(runs["timed"] as? Int == 0)
        #expect(runs["firstLines"] as? [Int] == [3])
        #expect(result.output.hasSuffix(#","untimedRuns":{"runs":1,"records":184,"timed":0,"firstLines":[3]}}"# + "\n"))
        #expect(object["fixes"] as? Int == 0)
        #expect(object["merged"] as? Int == 0)
    }

    @Test("replay without a rate fails as before, and says which option would help")
    func replayWithoutRate() throws {
        let path = try Self.sentinelFile()
        let result = runCommand(["replay", path, "--scenario", "ideal"])
        #expect(result.exitCode == 65)
        #expect(
            Self.firstLine(result.error)
                == "error: \(path): no timed fixes to replay; untimed runs found: "
                + "pass --assume-rate HZ and --date YYYY-MM-DD to time them")
    }

    @Test("replay --assume-rate 1 --date replays the run")
    func replayWithRate() throws {
        let path = try Self.sentinelFile()
        let result = runCommand(["replay", path, "--scenario", "ideal", "--assume-rate", "1", "--date", "2024-05-01"])
        #expect(result.exitCode == 0)
        #expect(result.error.isEmpty)
        #expect(result.output.contains("ideal"))
    }

    @Test("track and matrix take --assume-rate too", arguments: ["track", "matrix"])
    func otherReplayingCommands(_ command: String) throws {
        let path = try Self.sentinelFile()
        #expect(runCommand([command, path]).exitCode == 65)
        let result = runCommand([command, path, "--assume-rate", "1", "--date", "2024-05-01"])
        #expect(result.exitCode == 0)
    }

    @Test("a rate with nothing to start from fails naming the file and the --date to pass")
    func rateWithoutStart() throws {
        let path = try Self.sentinelFile()
        let result = runCommand(["replay", path, "--scenario", "ideal", "--assume-rate", "1"])
        #expect(result.exitCode == 65)
        #expect(Self.firstLine(result.error) == "error: \(path):3: untimed run has no start time: pass --date YYYY-MM-DD")
    }

    @Test(
        "a rate below 1e-9, above 100 or not finite is a usage error naming the range",
        arguments: ["0", "101", "1e3", "1e999", "1e-300", "9e-10", "0.0000000009"])
    func badRates(_ rate: String) throws {
        let path = try Self.sentinelFile()
        let result = runCommand(["replay", path, "--scenario", "ideal", "--assume-rate", rate, "--date", "2024-05-01"])
        #expect(result.exitCode == 64)
        #expect(
            Self.firstLine(result.error)
                == "error: --assume-rate must be a number in Hz from 1e-9 (a longer period than 1e9 s leaves "
                + "TraceSim's clock) to 100, not '\(rate)'")
    }

    @Test(
        "a rate that is not a decimal number is a usage error naming the grammar",
        arguments: ["-1", "nan", "inf", "fast", "", "0x1p-10", "+1"])
    func malformedRates(_ rate: String) throws {
        let path = try Self.sentinelFile()
        let result = runCommand(["replay", path, "--scenario", "ideal", "--assume-rate", rate, "--date", "2024-05-01"])
        #expect(result.exitCode == 64)
        #expect(
            Self.firstLine(result.error)
                == "error: --assume-rate must be a decimal number in Hz (digits with an optional fraction and exponent, "
                + "such as 2, 0.5 or 1e9; no sign), not '\(rate)'")
    }

    @Test("records a slow rate cannot keep on the clock are noted as that, not as a missing --assume-rate")
    func slowRateNote() throws {
        // Five timed fixes in 2024, then a run of 20 untimed records: at 1e-9 Hz (31.7 years a
        // record) the eighth and later would fall after 2262.
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>

            """
        for index in 0..<5 {
            text += "<trkpt lat=\"\(47.0 + Double(index) * 0.0001)\" lon=\"11.5\"><time>2024-05-01T00:00:0\(index)Z</time></trkpt>\n"
        }
        for index in 0..<20 {
            text += "<trkpt lat=\"\(48.0 + Double(index) * 0.001)\" lon=\"11.5\"><time>1901-12-13T20:45:52Z</time></trkpt>\n"
        }
        let path = try TemporaryFile.write("mixed.gpx", text + "</trkseg></trk></gpx>\n", prefix: "assume-rate")
        let slow = runCommand(["replay", path, "--scenario", "ideal", "--assume-rate", "1e-9"])
        #expect(slow.exitCode == 0, "\(slow.error)")
        #expect(
            Self.firstLine(slow.error)
                == "note: \(path): 13 records of untimed runs left out (first at line 8); at --assume-rate 1e-9 "
                + "their times would leave TraceSim's clock (1677-09-22 to 2262-04-10)")
        let none = runCommand(["replay", path, "--scenario", "ideal"])
        #expect(
            Self.firstLine(none.error)
                == "note: \(path): 20 records of untimed runs left out (first at line 8); pass --assume-rate HZ to time them")
    }

    @Test("the highest and a fractional rate are accepted", arguments: ["100", "0.5"])
    func goodRates(_ rate: String) throws {
        let path = try Self.sentinelFile()
        let result = runCommand(["inspect", path, "--assume-rate", rate, "--date", "2024-05-01"])
        #expect(result.exitCode == 0)
        #expect(result.output.contains("  fixes         184 "))
    }

    @Test(
        "every command that reads a trace documents --assume-rate",
        arguments: ["inspect", "convert", "track", "replay", "matrix", "check", "tune"])
    func helpMentionsTheOption(_ command: String) {
        let help = runCommand(["help", command]).output
        #expect(help.contains("--assume-rate <HZ>"))
    }

    @Test("the same file and rate give the same bytes from two processes")
    func deterministicAcrossProcesses() throws {
        let path = try Self.sentinelFile()
        let output = path + ".jsonl"
        let first = try runBinary(["convert", path, output, "--assume-rate", "3", "--date", "2024-05-01"])
        #expect(first.exitCode == 0)
        let once = try Data(contentsOf: URL(fileURLWithPath: output))
        try FileManager.default.removeItem(atPath: output)
        let second = try runBinary(["convert", path, output, "--assume-rate", "3", "--date", "2024-05-01"])
        #expect(second.exitCode == 0)
        let twice = try Data(contentsOf: URL(fileURLWithPath: output))
        #expect(once == twice)
        #expect(String(decoding: once, as: UTF8.self).split(separator: "\n").count == 184)
    }
}
