import Foundation
import TestSupport
import Testing

/// What a user is told on standard error when the default reading of a real export leaves
/// something out: points of overlapping tracks merged into another track's, and records of
/// untimed runs left out while other fixes remain.
@Suite("Warnings about what an export loses")
struct ExportWarningTests {
    /// Two tracks a kilometre apart, points every 10 s; the second starts at `secondStart`
    /// seconds, so with 40 it shares the first track's times 40 and 50 (two points).
    private static func twoTracks(secondStart: Int) -> String {
        func points(_ longitude: Double, from start: Int) -> String {
            (0..<6).map { index in
                let seconds = start + index * 10
                return "<trkpt lat=\"48.0\" lon=\"\(longitude + Double(index) * 0.001)\"><time>"
                    + "2024-05-01T10:0\(seconds / 60):\(String(format: "%02d", seconds % 60))Z</time></trkpt>\n"
            }.joined()
        }
        return """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1">
            <trk><trkseg>
            \(points(11.0, from: 0))</trkseg></trk>
            <trk><trkseg>
            \(points(11.1, from: secondStart))</trkseg></trk>
            </gpx>

            """
    }

    @Test("overlapping tracks: the warning counts the points merged into the other track's")
    func overlapCountsMergedPoints() throws {
        let path = try TemporaryFile.write("route.gpx", Self.twoTracks(secondStart: 40), prefix: "export-warning")
        let result = runCommand(["inspect", path])
        #expect(result.exitCode == 0)
        #expect(result.error.contains("merged by time (--tracks time) they interleave, and 2 points at a time both tracks have"))
        #expect(result.output.contains("2 duplicate records of an epoch (lines 12, 13); 2 of them from another track"))
        let json = runCommand(["inspect", "--format", "json", path]).output
        #expect(json.contains(#""mergedAcrossTracks":2"#))
        // Kept apart, nothing is merged and the warning has no count.
        let apart = runCommand(["inspect", "--tracks", "file", path])
        #expect(apart.output.contains("0 duplicate records of an epoch"))
        #expect(!apart.error.contains("both tracks have"))
    }

    @Test("tracks that only touch still warn when a point is merged away")
    func touchingTracksWarn() throws {
        let path = try TemporaryFile.write("touch.gpx", Self.twoTracks(secondStart: 50), prefix: "export-warning")
        let result = runCommand(["inspect", path])
        #expect(
            result.error.hasPrefix(
                "warning: \(path): one track ends at the time the next begins; 1 point merged into another track's"))
    }

    @Test("records of an untimed run left out beside timed fixes are noted; inspect shows them itself")
    func untimedRunsNoted() throws {
        var rows = "time,lat,lon\n"
        for index in 0..<12 { rows += "1970-01-01T00:00:00Z,\(48 + Double(index) * 0.001),11\n" }
        rows += "2024-05-01T10:00:00Z,48,11\n2024-05-01T10:00:01Z,48.0001,11\n"
        let path = try TemporaryFile.write("mixed.csv", rows, prefix: "export-warning")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("mixed-\(UUID()).jsonl").path
        let converted = runCommand(["convert", path, output])
        #expect(converted.exitCode == 0)
        #expect(
            converted.error.hasPrefix(
                "note: \(path): 12 records of untimed runs left out (first at line 2); pass --assume-rate HZ"))
        #expect(!runCommand(["inspect", path]).error.contains("untimed"))
        #expect(!runCommand(["convert", path, output + "2.jsonl", "--assume-rate", "1"]).error.contains("note:"))
    }

    @Test("a file with no real time at all asks for the rate and the date at once")
    func noTimeAsksForBoth() throws {
        var rows = "time,lat,lon\n"
        for index in 0..<12 { rows += "1901-12-13T20:45:52Z,\(48 + Double(index) * 0.001),11\n" }
        let path = try TemporaryFile.write("sentinel.csv", rows, prefix: "export-warning")
        let result = runCommand(["replay", path, "--scenario", "ideal"])
        #expect(result.exitCode == 65)
        #expect(result.error.contains("pass --assume-rate HZ and --date YYYY-MM-DD to time them"))
        let dated = runCommand(["replay", path, "--scenario", "ideal", "--date", "2024-05-01"])
        #expect(dated.error.contains("pass --assume-rate HZ to time them"))
    }

    @Test("records skipped for an impossible field are noted by every command but inspect")
    func skippedRecordsNoted() throws {
        let rows = "time,lat,lon\n2024-05-01T10:00:00Z,48,11\n2024-05-01T10:00:01Z,95,11\n2024-05-01T10:00:02Z,x,11\n"
        let path = try TemporaryFile.write("bad.csv", rows, prefix: "export-warning")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID()).jsonl").path
        let converted = runCommand(["convert", path, output])
        #expect(converted.exitCode == 0)
        #expect(
            converted.error.hasPrefix(
                "note: \(path): 2 records with an impossible field skipped (first at line 3); --strict refuses them"))
        #expect(runCommand(["inspect", path]).error.isEmpty)
    }

    @Test("inspect's table counts untimed-run records left out under untimed")
    func tableCountsUntimedRuns() throws {
        var rows = "time,lat,lon\n"
        for index in 0..<12 { rows += "1970-01-01T00:00:00Z,\(48 + Double(index) * 0.001),11\n" }
        let path = try TemporaryFile.write("runs.csv", rows, prefix: "export-warning")
        let table = runCommand(["inspect", "--format", "table", path]).output
        let row = table.split(separator: "\n").last.map(String.init) ?? ""
        let cells = row.split(separator: " ")
        // untimed, then motion: the last two columns.
        #expect(cells.suffix(2) == ["12", "0"], "\(row)")
    }
}
