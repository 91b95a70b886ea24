import Foundation
import TestSupport
import Testing

/// `tune`'s inert settings and its written scenario (issue 30 §7). Fast tier: each test replays
/// a few short traces.
@Suite("tune: inert settings and the written scenario")
struct TuneInertAndScenarioTests {
    static let bike = Repository.trace("gpsbabel/bike.tcx")
    static let drive = Repository.trace("gps-measurement-tools/MTV.Local1.ublox-F9K.20200206-181434.nmea")

    private func json(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    private func inert(_ arguments: [String]) throws -> [String] {
        let result = runCommand(["tune"] + arguments + ["--format", "json"])
        #expect(result.exitCode == 0, "\(result.error)")
        return try #require(try json(result.output)["inertParameters"] as? [String])
    }

    @Test("a setting whose values gave identical rows is reported inert in text, JSON and HTML; a moving one is not")
    func inertReported() throws {
        let arguments = [
            Self.bike, "--sweep", "pausesLocationUpdatesAutomatically=true,false", "--sweep", "distanceFilter=0,30",
        ]
        #expect(try inert(arguments) == ["pausesLocationUpdatesAutomatically"])
        let text = runCommand(["tune"] + arguments).output
        #expect(
            text.contains(
                "\nInert: pausesLocationUpdatesAutomatically (true, false) gave identical measures on every row: "
                    + "it moves nothing on these traces and scenarios.\n"))
        #expect(!text.contains("Inert: distanceFilter"))
        let html = runCommand(["tune"] + arguments + ["--format", "html"]).output
        #expect(html.contains("<strong>Inert: pausesLocationUpdatesAutomatically (true, false)"))
        // One value is not a sweep of anything: never called inert.
        #expect(try inert([Self.bike, "--sweep", "stationaryRadius=25"]).isEmpty)
    }

    @Test("the trial's stationaryRadius is inert with motion activity and moves departures without it")
    func stationaryRadiusLiveWithoutMotion() throws {
        let sweep = ["--sweep", "stationaryRadius=25,200"]
        // Issue 31's exit cushion (50 m, and never inside the 100 m where a small region enters)
        // lets the drive's 25 m stationary region exit before its motion onset: live on the drive
        // (244 and 240 recorded fixes), inert on the bike ride.
        #expect(try inert([Self.bike, "--scenario", "always-precise"] + sweep) == ["stationaryRadius"])
        // Motion denied: the stationary region is the only departure signal (seed 001, Core Motion).
        #expect(try inert([Self.bike, "--scenario", "always-motion-denied"] + sweep).isEmpty)
        let result = runCommand(
            ["tune", Self.bike, "--scenario", "always-motion-denied"] + sweep + [
                "--objective", "departureDelaySeconds:min", "--format", "csv",
            ])
        let lines = result.output.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let column = try #require(lines[0].firstIndex(of: "departureDelaySeconds"))
        // 52 s at 25 m and 75 s at 200 m since issue 31's field-calibrated region latency and
        // exit cushion (348 s and 116 s with the old 0-300 s latency and 200 m cushion).
        #expect(lines[1][column] == "52" && lines[2][column] == "75", "\(result.output)")
    }

    @Test("pausesLocationUpdatesAutomatically is live: a half-hour stop pauses updates and saves GPS time")
    func automaticPauseLive() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("stop-\(UUID().uuidString).csv")
        try Self.stopTrace.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = runCommand([
            "tune", file.path, "--scenario", "always-automatic-pause", "--sweep",
            "pausesLocationUpdatesAutomatically=true,false", "--format", "json",
        ])
        #expect(result.exitCode == 0, "\(result.error)")
        let study = try json(result.output)
        #expect((study["inertParameters"] as? [String])?.isEmpty == true)
        let rows = try #require(study["rows"] as? [[String: Any]])
        let gpsOn = rows.compactMap { ($0["metrics"] as? [String: Any])?["gpsOnSeconds"] as? Double }
        // Paused after 900 s still (a4 #7): GPS is off for the rest of the stop, about 15 minutes.
        #expect(gpsOn.count == 2 && gpsOn[1] - gpsOn[0] > 850, "\(gpsOn)")
    }

    /// Ten minutes east at 10 m/s, half an hour parked, ten minutes on: one fix a second.
    static var stopTrace: String {
        var lines = ["time,lat,lon,h_acc_m,speed_mps"]
        let start = 1_714_550_400.0
        let metresPerDegree = 111_320 * cos(37.4 * .pi / 180)
        var east = 0.0
        for second in 0..<3000 {
            let isParked = (600..<2400).contains(second)
            let time = Date(timeIntervalSince1970: start + Double(second)).formatted(.iso8601)
            let longitude = -122.08 + east / metresPerDegree
            lines.append("\(time),37.4,\(String(format: "%.7f", longitude)),5,\(isParked ? 0 : 10)")
            if !isParked { east += 10 }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test(
        "the written scenario keeps the row's phone and permissions: re-running it gives the row's metrics",
        arguments: ["wheninuse-locked", "provisional-always", "always-force-quit", "missing-usage-key"])
    func writtenScenarioReproducesRow(preset: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tune-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("tuned.json").path
        let tuned = runCommand([
            "tune", Self.bike, "--scenario", preset, "--sweep", "distanceFilter=0,25", "--objective",
            "recordedFixes:min", "--write-scenario", file, "--format", "json",
        ])
        #expect(tuned.exitCode == 0, "\(tuned.error)")
        let study = try json(tuned.output)
        let chosen = try #require(study["chosen"] as? [String: Any])
        let row = try #require(chosen["row"] as? Int)
        let scenario = try #require(chosen["scenario"] as? [String: Any])
        let value = row == 1 ? 0 : 25
        #expect(scenario["summary"] as? String == "tracesim tune row \(row): \(preset) with distanceFilter=\(value)")
        #expect(scenario["device"] is [String: Any] && scenario["authorization"] != nil && scenario["timeline"] != nil)
        // The promise goes with it, so a drifted re-run is marked as the row was.
        let promises = [
            "wheninuse-locked": "authorizedWhenInUse", "provisional-always": "authorizedAlways",
            "always-force-quit": "authorizedAlways", "missing-usage-key": "notDetermined",
        ]
        #expect(scenario["expectedAuthorization"] as? String == promises[preset])
        let rows = try #require(study["rows"] as? [[String: Any]])
        let again = runCommand(["tune", Self.bike, "--scenario", file, "--format", "json"])
        #expect(again.exitCode == 0, "\(again.error)")
        let rerun = try #require(try json(again.output)["rows"] as? [[String: Any]])
        let expected = try #require(rows[row - 1]["metrics"] as? [String: Any])
        let got = try #require(rerun.first?["metrics"] as? [String: Any])
        #expect(NSDictionary(dictionary: got) == NSDictionary(dictionary: expected), "\(got) vs \(expected)")
    }

    @Test("a preset whose starting state no file key holds says so in the summary instead of claiming a replica")
    func lossyScenarioSaysSo() throws {
        let result = runCommand(["tune", Self.bike, "--scenario", "allow-once", "--format", "json"])
        let chosen = try #require(try json(result.output)["chosen"] as? [String: Any])
        let summary = try #require((chosen["scenario"] as? [String: Any])?["summary"] as? String)
        #expect(summary.hasSuffix("(not reproduced exactly: the starting authorization state (a provisional or pending state has no key))"))
    }
}
