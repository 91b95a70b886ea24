import Foundation
import TestSupport
import Testing

/// `--tracks time|file|each` and the overlap warning, on GPX files written here.
@Suite("--tracks and overlapping tracks")
struct TracksOptionTests {
    /// A fresh folder holding `route.gpx` (two tracks of 300 points, the second starting
    /// 100.5 s into the first and 1 km east) and `single.gpx` (one track).
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tracesim-tracks-\(UUID().uuidString)")
        let route: String
        let single: String

        init() throws {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            route = url.appendingPathComponent("route.gpx").path
            single = url.appendingPathComponent("single.gpx").path
            try Data(Self.gpx([(0, 13.0, ""), (100, 13.015, ".5")]).utf8).write(to: URL(fileURLWithPath: route))
            try Data(Self.gpx([(0, 13.0, "")]).utf8).write(to: URL(fileURLWithPath: single))
        }

        deinit { try? FileManager.default.removeItem(at: url) }

        func path(_ name: String) -> String { url.appendingPathComponent(name).path }

        static func gpx(_ tracks: [(start: Int, longitude: Double, fraction: String)]) -> String {
            let body = tracks.map { track in
                let points = (0..<300).map { index in
                    let seconds = track.start + index
                    let time = String(format: "08:%02d:%02d", seconds / 60, seconds % 60) + track.fraction
                    return "<trkpt lat=\"\(52 + Double(index) * 0.0001)\" lon=\"\(track.longitude)\">"
                        + "<time>2024-05-01T\(time)Z</time></trkpt>"
                }
                return "<trk><name>T\(track.start)</name><trkseg>\n" + points.joined(separator: "\n") + "\n</trkseg></trk>"
            }
            return """
                <?xml version="1.0" encoding="UTF-8"?>
                <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
                \(body.joined(separator: "\n"))
                </gpx>

                """
        }
    }

    static func overlapWarning(_ path: String, _ outcome: String) -> String {
        "warning: \(path): tracks overlap in time: 1 and 2 by 3m19s "
            + "(2024-05-01T08:01:40.500Z → 2024-05-01T08:04:59.000Z); \(outcome)"
    }

    @Test("inspect warns once per file and lists the tracks; a single track prints as before")
    func inspectWarns() throws {
        let folder = try Folder()
        let result = runCommand(["inspect", folder.route])
        #expect(result.exitCode == 0)
        #expect(
            result.error.split(separator: "\n").map(String.init) == [
                Self.overlapWarning(
                    folder.route, "merged by time (--tracks time) they interleave; --tracks file or each keeps them apart")
            ])
        #expect(result.output.contains("\n  tracks     2 tracks, 2 segments (TRACK.SEGMENT below)\n"))
        #expect(
            result.output.contains(
                "\n             2.1 \"T100\": 300 fixes, 2024-05-01T08:01:40.500Z → 2024-05-01T08:06:39.500Z (4m59s), line 305\n"))
        #expect(result.output.contains("\n  overlap    tracks overlap in time: 1 and 2 by 3m19s"))
        let json = runCommand(["inspect", folder.route, "--format", "json"])
        #expect(json.output.contains(#""trackOverlaps":[{"track":1,"otherTrack":2,"#))
        let single = runCommand(["inspect", folder.single])
        #expect(single.error.isEmpty)
        #expect(!single.output.contains("\n  tracks"))
        #expect(!runCommand(["inspect", folder.single, "--format", "json"]).output.contains("segments"))
    }

    @Test("--tracks file: every fix kept, track 2 shifted and said so; no zig-zag for the engine to reject")
    func fileOrder() throws {
        let folder = try Folder()
        func run(_ order: String) throws -> (fixes: [String: Any], rejected: Int, error: String) {
            let result = runCommand(["track", folder.route, "--tracks", order, "--format", "json"])
            #expect(result.exitCode == 0)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
            let rejections = try #require(object["rejections"] as? [String: Int])
            return (try #require(object["fixes"] as? [String: Any]), rejections["impliedSpeed"] ?? 0, result.error)
        }
        let byTime = try run("time")
        let byFile = try run("file")
        #expect(byTime.fixes["trace"] as? Int == 600)
        #expect(byFile.fixes["trace"] as? Int == 600)
        // Interleaved, every hop between the tracks is a 1 km jump the engine rejects.
        #expect(byTime.rejected > 200)
        #expect(byFile.rejected < 60)
        #expect(
            byFile.error == Self.overlapWarning(
                folder.route, "kept in file order (--tracks file), shifted later: track 2 by +3m20s") + "\n")
        let inspect = runCommand(["inspect", folder.route, "--tracks", "file"])
        #expect(inspect.output.contains("→ 2024-05-01T08:09:59.000Z (9m59s)\n"))
        #expect(inspect.output.contains(", line 305, shifted +3m20s\n"))
    }

    @Test("--tracks file moves a track listed before an earlier one, and says so though nothing overlaps")
    func reversedTracks() throws {
        let folder = try Folder()
        let path = folder.path("reversed.gpx")
        // Track 1 from 08:10:00, track 2 from 08:00:00: 300 s each, apart in time.
        try Data(Folder.gpx([(600, 13.0, ""), (0, 13.015, "")]).utf8).write(to: URL(fileURLWithPath: path))
        #expect(runCommand(["inspect", path]).error.isEmpty)
        let result = runCommand(["inspect", path, "--tracks", "file", "--format", "table"])
        #expect(
            result.error == "note: \(path): kept in file order (--tracks file), shifted later: track 2 by +15m00s\n")
        #expect(result.output.contains(" 9m59s "))
    }

    @Test("--tracks each: matrix rows and replay reports per track, named FILE#N")
    func each() throws {
        let folder = try Folder()
        let matrix = runCommand([
            "matrix", folder.route, folder.single, "--tracks", "each", "--scenarios", "always-precise", "--format",
            "csv",
        ])
        #expect(matrix.exitCode == 0)
        let rows = matrix.output.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[0] }
        #expect(rows == ["\(folder.route)#1", "\(folder.route)#2", "\(folder.single)"].map { Substring($0) })
        let replay = runCommand([
            "replay", folder.route, "--tracks", "each", "--scenario", "always-precise", "--format", "json",
        ])
        #expect(replay.exitCode == 0)
        let objects = replay.output.split(separator: "\n")
        #expect(objects.count == 2)
        #expect(objects.last?.contains("\"trace\":\"\(folder.route)#2\"") == true)
        let html = runCommand([
            "replay", folder.route, "--tracks", "each", "--scenario", "always-precise", "--format", "html",
        ])
        #expect(html.exitCode == 64)
        #expect(html.error.contains("error: --tracks each gives 2 traces for '\(folder.route)' and an HTML page holds one"))
        let track = runCommand(["track", folder.route, "--tracks", "each"])
        #expect(track.output.hasPrefix("\(folder.route)#1\n"))
        #expect(track.output.contains("\n\n\(folder.route)#2\n"))
    }

    @Test("--tracks each moves nothing, so a file that --tracks file would shift past 2262 is read track by track")
    func eachNeverShifts() throws {
        let folder = try Folder()
        let late = folder.path("late.gpx")
        // Track 2 starts before track 1 ends, on the clock's last day: `file` would move it past the end.
        let points = [("2262-04-11T00:00:00Z", "2262-04-11T23:00:00Z"), ("2262-04-11T00:00:00Z", "2262-04-11T23:40:00Z")]
        let tracks = points.map { first, last in
            "<trk><trkseg><trkpt lat=\"48.0\" lon=\"11.5\"><time>\(first)</time></trkpt>"
                + "<trkpt lat=\"48.001\" lon=\"11.5\"><time>\(last)</time></trkpt></trkseg></trk>"
        }
        let gpx = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
            \(tracks.joined(separator: "\n"))
            </gpx>

            """
        try Data(gpx.utf8).write(to: URL(fileURLWithPath: late))
        let file = runCommand(["inspect", late, "--tracks", "file"])
        #expect(file.exitCode == 65)
        #expect(file.error.hasPrefix("error: \(late):4: --tracks file would move this track past 2262"), "\(file.error)")
        let each = runCommand(["inspect", late, "--tracks", "each", "--format", "json"])
        #expect(each.exitCode == 0, "\(each.error)")
        let lines = each.output.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.contains("\"last\":\"2262-04-11T23:00:00.000Z\"") == true, "\(each.output)")
        #expect(lines.last?.contains("\"last\":\"2262-04-11T23:40:00.000Z\"") == true, "\(each.output)")
    }

    @Test("usage: an unknown order, and each where one trace is written, exit 64")
    func usage() throws {
        let folder = try Folder()
        let bad = runCommand(["inspect", folder.route, "--tracks", "order"])
        #expect(bad.exitCode == 64)
        #expect(bad.error.hasPrefix("error: --tracks must be time, file or each, not 'order'"))
        let convert = runCommand(["convert", folder.route, folder.path("out.csv"), "--tracks", "each"])
        #expect(convert.exitCode == 64)
        #expect(convert.error.hasPrefix("error: --tracks each is not available here: convert writes one trace"))
        for command in ["inspect", "convert", "replay", "matrix", "track", "check"] {
            #expect(runCommand([command, "--help"]).output.contains("--tracks <time|file|each>"), "\(command)")
        }
    }

    @Test("convert writes the segment column for several segments and none for one")
    func convertKeepsSegments() throws {
        let folder = try Folder()
        let result = runCommand(["convert", folder.route, folder.path("route.csv"), "--tracks", "file", "--quiet"])
        #expect(result.exitCode == 0)
        let text = try String(contentsOfFile: folder.path("route.csv"), encoding: .utf8)
        #expect(text.split(separator: "\n")[1].hasSuffix(",provider,segment"))
        #expect(text.split(separator: "\n").last?.hasSuffix(",unknown,2.1") == true)
        let back = runCommand(["inspect", folder.path("route.csv"), "--format", "table"])
        #expect(back.output.contains("  600  "))
        _ = runCommand(["convert", folder.single, folder.path("single.csv")])
        let single = try String(contentsOfFile: folder.path("single.csv"), encoding: .utf8)
        #expect(single.split(separator: "\n")[1].hasSuffix(",provider"))
    }

    @Test("merge refuses parts made with different --tracks; a default part has no tracks key")
    func mergeIdentity() throws {
        let folder = try Folder()
        func part(_ extra: [String], _ shard: String, _ name: String) throws -> String {
            let result = runCommand(
                ["matrix", folder.route, "--scenarios", "always-precise,denied", "--format", "json", "--shard", shard]
                    + extra)
            #expect(result.exitCode == 0, "\(result.error)")
            try Data(result.output.utf8).write(to: URL(fileURLWithPath: folder.path(name)))
            return result.output
        }
        let byFile = try part(["--tracks", "file"], "1/2", "file.json")
        #expect(byFile.contains(#""tracks":"file""#))
        let plain = try part([], "2/2", "b.json")
        #expect(!plain.contains(#""tracks""#))
        let merged = runCommand(["merge", folder.path("file.json"), folder.path("b.json")])
        #expect(merged.exitCode == 65)
        #expect(merged.error.hasSuffix("file.json: --tracks is 'time' here and 'file' there\n"), "\(merged.error)")
        let first = try part(["--tracks", "each"], "1/2", "a.json")
        // The identity lists the file; its runs are one per track.
        #expect(first.contains("\"traces\":[{\"path\":\"\(folder.route)\","))
        #expect(first.contains("\"trace\":\"\(folder.route)#2\""))
        _ = try part(["--tracks", "each"], "2/2", "c.json")
        let good = runCommand(["merge", folder.path("a.json"), folder.path("c.json")])
        #expect(good.exitCode == 0, "\(good.error)")
        let whole = runCommand(
            ["matrix", folder.route, "--scenarios", "always-precise,denied", "--format", "json", "--tracks", "each"])
        #expect(good.output == whole.output)
    }
}
