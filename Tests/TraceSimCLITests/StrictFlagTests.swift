import Foundation
import TestSupport
import Testing

/// `--strict` on every command that reads a trace: without it a well-framed record with an
/// impossible field is skipped and shown by `inspect`; with it the file fails with exit 65.
@Suite("--strict and lenient records")
struct StrictFlagTests {
    /// Twenty RMC sentences a second apart; the sixth rounds its latitude minutes up to 60.0000.
    static let log: String =
        (0..<20).map { second in
            let time = "1200" + (second < 10 ? "0\(second)" : "\(second)")
            let latitude = second == 5 ? "4860.0000" : "4807.0380"
            return nmea("GPRMC,\(time),A,\(latitude),N,01131.0000,E,10.0,84.4,230394,,,A")
        }.joined(separator: "\n") + "\n"

    static let problem = "latitude minutes 60.0 is outside 0..<60"

    private static func firstLine(_ text: String) -> String {
        String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
    }

    @Test("inspect shows the skipped record: count, line and what was wrong with it")
    func inspectShowsTheSkip() throws {
        let path = try TemporaryFile.write("rounded.nmea", Self.log, prefix: "strict-flag")
        let result = runCommand(["inspect", path])
        #expect(result.exitCode == 0)
        #expect(result.error.isEmpty)
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("  fixes     19 (gps 19)"))
        #expect(
            lines.contains(
                "  skipped   1 record with a value out of range (line 6, column 17: \(Self.problem))"))
    }

    @Test("several skipped records: their lines, then where the first went wrong")
    func inspectShowsSeveralSkips() throws {
        let rows = "time,lat,lon\n2024-01-01T00:00:00Z,95,1\n2024-01-01T00:00:01Z,48,1\n2024-01-01T00:00:02Z,-95,1\n"
        let path = try TemporaryFile.write("two.csv", rows, prefix: "strict-flag")
        let result = runCommand(["inspect", path])
        #expect(result.exitCode == 0)
        #expect(
            result.output.split(separator: "\n").map(String.init).contains(
                "  skipped   2 records with a value out of range (lines 2, 4); the first at column 22: "
                    + "latitude is outside -90...90 degrees"))
    }

    @Test("inspect --format json counts the skip under its reason, with its line and problem")
    func inspectJSON() throws {
        let path = try TemporaryFile.write("rounded.nmea", Self.log, prefix: "strict-flag")
        let result = runCommand(["inspect", "--format", "json", path])
        #expect(result.exitCode == 0)
        let object = try #require(JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(object["fixes"] as? Int == 19)
        #expect((object["skipped"] as? [String: Int]) == ["outOfRange": 1])
        let firstLines = try #require(object["firstLines"] as? [String: Any])
        #expect(firstLines["outOfRange"] as? [Int] == [6])
        let problems = try #require(object["firstProblems"] as? [String: String])
        #expect(problems == ["outOfRange": "line 6, column 17: \(Self.problem)"])
    }

    @Test(
        "with --strict the same file fails every command with exit 65 at the record's line and column",
        arguments: [
            ["inspect"], ["track"], ["convert"], ["replay", "--scenario", "ideal"], ["matrix", "--scenarios", "ideal"],
            ["tune", "--sweep", "distanceFilter=0:10:5"],
        ])
    func strictFails(_ command: [String]) throws {
        let path = try TemporaryFile.write("rounded.nmea", Self.log, prefix: "strict-flag")
        var arguments = command + [path, "--strict"]
        if command == ["convert"] { arguments.insert(path + ".csv", at: 2) }
        let result = runCommand(arguments)
        #expect(result.exitCode == 65)
        #expect(Self.firstLine(result.error) == "error: \(path):6:17: \(Self.problem)")
    }

    @Test("without --strict convert writes the nineteen good fixes")
    func convertSkips() throws {
        let path = try TemporaryFile.write("rounded.nmea", Self.log, prefix: "strict-flag")
        let output = path + ".csv"
        let result = runCommand(["convert", path, output])
        #expect(result.exitCode == 0)
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("1994-") }.count == 19)
    }

    @Test("a file of nothing but impossible records fails without --strict too")
    func nothingValid() throws {
        let bad = Self.log.split(separator: "\n")[5]
        let path = try TemporaryFile.write("bad.nmea", "\(bad)\n\(bad)\n", prefix: "strict-flag")
        let result = runCommand(["inspect", path])
        #expect(result.exitCode == 65)
        #expect(Self.firstLine(result.error) == "error: \(path):1:17: \(Self.problem)")
    }

    @Test(
        "--strict is in the help of every command that reads a trace",
        arguments: ["inspect", "convert", "track", "replay", "matrix", "check", "tune"])
    func help(command: String) {
        #expect(runCommand([command, "--help"]).output.contains("--strict"))
    }

    @Test("--strict is refused by a command that reads no trace")
    func refusedWithoutTrace() {
        #expect(runCommand(["scenarios", "--strict"]).exitCode == 64)
    }

    @Test("the built binary exits 65 with --strict and 0 without")
    func realProcess() throws {
        let path = try TemporaryFile.write("rounded.nmea", Self.log, prefix: "strict-flag")
        #expect(try runBinary(["inspect", path, "--strict"]).exitCode == 65)
        #expect(try runBinary(["inspect", path]).exitCode == 0)
    }
}

/// An NMEA sentence with its checksum computed, from the text between `$` and `*`.
private func nmea(_ body: String) -> String {
    let checksum = body.utf8.reduce(UInt8(0), ^)
    let hex = String(checksum, radix: 16, uppercase: true)
    return "$" + body + "*" + (hex.count == 1 ? "0" + hex : hex)
}
