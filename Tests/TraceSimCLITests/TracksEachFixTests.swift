import Foundation
import TestSupport
import Testing

/// `--tracks each` where a file's tracks meet the rest of the CLI: tracks with nothing to
/// replay, a truth of several tracks, expectations naming the file, and shard identities.
@Suite("--tracks each with notes, truths, expectations and shards")
struct TracksEachFixTests {
    /// A fresh folder of GPX files written here.
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tracesim-each-\(UUID().uuidString)")

        init() throws {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: url) }

        /// Writes `name` holding one `<trk>` per entry: 120 points a second apart from
        /// `start` seconds past 08:00, at `longitude`; `timed: false` leaves out every `<time>`.
        func gpx(_ name: String, _ tracks: [(start: Int, longitude: Double, timed: Bool)]) throws -> String {
            let body = tracks.enumerated().map { number, track in
                let points = (0..<120).map { index in
                    let seconds = track.start + index
                    let time =
                        track.timed
                        ? "<time>2024-05-01T08:" + String(format: "%02d:%02d", seconds / 60, seconds % 60) + "Z</time>"
                        : ""
                    return "<trkpt lat=\"\(52 + Double(index) * 0.0001)\" lon=\"\(track.longitude)\">\(time)</trkpt>"
                }
                return "<trk><name>T\(number + 1)</name><trkseg>\n" + points.joined(separator: "\n") + "\n</trkseg></trk>"
            }
            let text = """
                <?xml version="1.0" encoding="UTF-8"?>
                <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
                \(body.joined(separator: "\n"))
                </gpx>

                """
            let path = url.appendingPathComponent(name).path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }

        func write(_ name: String, _ text: String) throws -> String {
            let path = url.appendingPathComponent(name).path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    private static func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    @Test("a track with no timed fix earns one note per file under --tracks each, and none otherwise")
    func untimedTrackNoted() throws {
        let folder = try Folder()
        let path = try folder.gpx("gap.gpx", [(0, 13.0, true), (0, 13.01, false), (200, 13.02, true)])
        let note = "note: \(path): track 2 has no timed fix; left out"
        for command in [
            ["matrix", path, "--scenarios", "ideal"], ["replay", path, "--scenario", "ideal"], ["track", path],
            [
                "check", path, "--expect",
                try folder.write("e.json", #"{"thresholds": [{"scenario": "ideal", "metric": "acceptedFixes", "min": 1}]}"#),
            ],
        ] {
            let result = runCommand(command + ["--tracks", "each"])
            #expect(result.exitCode == 0, "\(command[0]): \(result.error)")
            #expect(Self.lines(result.error).filter { $0.hasPrefix("note:") } == [note], "\(command[0])")
        }
        let matrix = runCommand(["matrix", path, "--scenarios", "ideal", "--tracks", "each", "--format", "json"])
        #expect(matrix.output.contains("gap.gpx#1") && matrix.output.contains("gap.gpx#3"))
        #expect(!matrix.output.contains("gap.gpx#2"))
        // The default order replays the file whole: nothing is left out of a row, so no note.
        #expect(!runCommand(["matrix", path, "--scenarios", "ideal"]).error.contains("note:"))
        let timed = try folder.gpx("timed.gpx", [(0, 13.0, true), (200, 13.02, true)])
        #expect(!runCommand(["matrix", timed, "--scenarios", "ideal", "--tracks", "each"]).error.contains("note:"))
    }

    @Test("replay --tracks each --truth: each track is measured against its own track of the truth")
    func truthPerTrack() throws {
        let folder = try Folder()
        // Two tracks over the same minutes, about 55 km apart.
        let path = try folder.gpx("far.gpx", [(0, 13.0, true), (30, 13.8, true)])
        let result = runCommand(
            ["replay", path, "--scenario", "ideal", "--tracks", "each", "--truth", path, "--format", "json"])
        #expect(result.exitCode == 0, "\(result.error)")
        let medians = try Self.lines(result.output).map { line in
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(((object["metrics"] as? [String: Any])?["positionErrorMedianMeters"] as? NSNumber)?.doubleValue)
        }
        #expect(medians.count == 2)
        #expect(medians.allSatisfy { $0 < 1 }, "\(medians)")
        // A truth of one track is used whole, as before.
        let single = try folder.gpx("single.gpx", [(30, 13.8, true)])
        let one = runCommand(["replay", path, "--scenario", "ideal", "--tracks", "each", "--truth", single])
        #expect(one.exitCode == 0)
        #expect(one.output.contains("median 0.00 m"))
    }

    @Test("check --tracks each: a threshold naming the file applies to every track, FILE#N to one")
    func thresholdNamesFile() throws {
        let folder = try Folder()
        let path = try folder.gpx("mix.gpx", [(0, 13.0, true), (200, 13.02, true)])
        func check(_ trace: String) throws -> CommandResult {
            let expect = try folder.write(
                "expect-\(UUID().uuidString).json",
                #"{"thresholds": [{"scenario": "ideal", "trace": "\#(trace)", "metric": "acceptedFixes", "min": 1}]}"#)
            return runCommand(["check", path, "--tracks", "each", "--expect", expect])
        }
        let file = try check("mix.gpx")
        #expect(file.exitCode == 0, "\(file.error)")
        #expect(file.output == "2 checks, 0 failed\n")
        let one = try check("mix.gpx#2")
        #expect(one.exitCode == 0, "\(one.error)")
        #expect(one.output == "1 check, 0 failed\n")
        let none = try check("other.gpx")
        #expect(none.exitCode == 65)
        #expect(none.error.contains("no trace given ends with 'other.gpx' (1 trace given)"), "\(none.error)")
        #expect(try check("mix.gpx#3").exitCode == 65)
    }

    @Test("merge refuses parts made with a different --assume-rate or --strict; defaults merge as before")
    func mergeComparesImportOptions() throws {
        let folder = try Folder()
        let path = try folder.gpx("route.gpx", [(0, 13.0, true)])
        let base = ["matrix", path, "--scenarios", "ideal,denied", "--format", "json"]
        func part(_ index: Int, _ extra: [String]) throws -> String {
            let result = runCommand(base + ["--shard", "\(index)/2"] + extra)
            #expect(result.exitCode == 0, "\(result.error)")
            return try folder.write("part-\(UUID().uuidString).json", result.output)
        }
        let plain = try part(1, [])
        #expect(!(try String(contentsOfFile: plain, encoding: .utf8)).contains("assumeRate"))
        #expect(!(try String(contentsOfFile: plain, encoding: .utf8)).contains("strict"))
        #expect(runCommand(["merge", plain, try part(2, [])]).exitCode == 0)

        let rated = runCommand(["merge", plain, try part(2, ["--assume-rate", "1"])])
        #expect(rated.exitCode == 65)
        #expect(rated.error.contains("--assume-rate is '1 Hz' here and not given there"), "\(rated.error)")
        let rates = runCommand(["merge", try part(1, ["--assume-rate", "2"]), try part(2, ["--assume-rate", "1"])])
        #expect(rates.error.contains("--assume-rate is '1 Hz' here and '2 Hz' there"), "\(rates.error)")
        #expect(
            runCommand(["merge", try part(1, ["--assume-rate", "1"]), try part(2, ["--assume-rate", "1.0"])])
                .exitCode == 0)

        let strict = runCommand(["merge", plain, try part(2, ["--strict"])])
        #expect(strict.exitCode == 65)
        #expect(strict.error.contains("--strict is given here and not given there"), "\(strict.error)")
        #expect(runCommand(["merge", try part(1, ["--strict"]), try part(2, ["--strict"])]).exitCode == 0)
    }
}
