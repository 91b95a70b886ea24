import Foundation
import TestSupport
import Testing

@Suite("tracesim track")
struct TrackCommandTests {
    static let drive = Repository.trace("gps-measurement-tools/MTV.Local1.ublox-F9K.20200206-181434.nmea")
    static let tunnel = Repository.trace("mapbox-navigation-ios/tunnel.json")
    static let fences = Repository.path("Documentation/Examples/fences.geojson")
    static let device = Repository.path("Documentation/Examples/device.json")

    private func temporary(_ text: String, _ suffix: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tracesim-\(UUID().uuidString).\(suffix)")
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test("a phone whose location is denied never departs: the engine's moving switch is not a departure")
    func deniedNeverDeparts() throws {
        let device = try temporary(#"{"authorization": {"location": "denied", "motion": "authorized"}}"#, "json")
        let text = runCommand(["track", Self.drive, "--device", device.path])
        #expect(text.exitCode == 0, "\(text.error)")
        #expect(text.output.contains("  departure       none (no fix recorded while moving)"), "\(text.output)")
        let json = runCommand(["track", Self.drive, "--device", device.path, "--format", "json"])
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(object["departureSeconds"] is NSNull)
        let allowed = runCommand(["track", Self.drive, "--format", "json"])
        let ideal = try #require(JSONSerialization.jsonObject(with: Data(allowed.output.utf8)) as? [String: Any])
        #expect(ideal["departureSeconds"] is Double)
    }

    @Test("the MTV drive: JSON keys in order, counts that add up, fences from the example file")
    func driveJSON() throws {
        let result = runCommand(["track", Self.drive, "--starts-moving", "--fences", Self.fences, "--format", "json"])
        #expect(result.exitCode == 0, "\(result.error)")
        let line = Substring(result.output.trimmingCharacters(in: .newlines))
        #expect(
            try line.firstMatchKeys() == [
                "file", "fixes", "rejections", "odometerMeters", "gpsOnSeconds", "gpsIntervals", "motion", "departureSeconds",
                "geofences", "gaps",
            ])
        let object = try #require(JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let fixes = try #require(object["fixes"] as? [String: Int])
        #expect(fixes["trace"] == 1654)
        let rejections = try #require(object["rejections"] as? [String: Int])
        #expect(fixes["accepted"]! + rejections.values.reduce(0, +) == fixes["delivered"]!)
        let odometer = try #require(object["odometerMeters"] as? Double)
        #expect(odometer > 8000 && odometer < 9000)
        // The drive passes customer-17 (150 m) without staying 100 m deep for 20 s, the OS's
        // entry cushion (regionHysteresis): no entry. Without the cushion it enters.
        let geofences = try #require(object["geofences"] as? [[String: Any]])
        #expect(!geofences.contains { $0["identifier"] as? String == "customer-17" && $0["action"] as? String == "enter" })
        let noCushion = try temporary(
            #"{"parameters": {"regionEntryCushionMeters": 0}, "authorization": {"location": "authorizedAlways", "motion": "authorized"}}"#,
            "json")
        defer { try? FileManager.default.removeItem(at: noCushion) }
        let shallow = runCommand([
            "track", Self.drive, "--starts-moving", "--fences", Self.fences, "--device", noCushion.path, "--format", "json",
        ])
        let shallowObject = try #require(JSONSerialization.jsonObject(with: Data(shallow.output.utf8)) as? [String: Any])
        let shallowFences = try #require(shallowObject["geofences"] as? [[String: Any]])
        #expect(shallowFences.contains { $0["identifier"] as? String == "customer-17" && $0["action"] as? String == "enter" })
        // GPS-on time never exceeds the trace's span (no timers fire after the last fix).
        let gpsOn = try #require(object["gpsOnSeconds"] as? Double)
        #expect(gpsOn <= 1727)
    }

    @Test("the same inputs print byte-identical output")
    func deterministic() {
        let arguments = ["track", Self.drive, "--fences", Self.fences, "--format", "json", "--seed", "11"]
        #expect(runCommand(arguments).output == runCommand(arguments).output)
    }

    @Test("text output names the tunnel's 21 s gap; a fresh install with no permission flow collects nothing")
    func textAndFreshInstall() {
        let tunnel = runCommand(["track", Self.tunnel, "--starts-moving"])
        #expect(tunnel.exitCode == 0)
        #expect(tunnel.output.contains("gaps > 10 s     1, longest 21.0 s at +0:00:10"), "\(tunnel.output)")
        let fresh = runCommand(["track", Self.drive, "--device", Self.device])
        #expect(fresh.output.contains("delivered 0 · accepted 0 · recorded 0"), "\(fresh.output)")
        #expect(fresh.output.contains("GPS on          0 s of 28 min 47 s"), "\(fresh.output)")
    }

    @Test("bad input: an invalid polygon and a broken fence file exit 65 naming the file; missing 66; usage 64")
    func errors() throws {
        let bowtie = try temporary(
            #"{"type":"Feature","id":"yard","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,1],[1,0],[0,1],[0,0]]]}}"#,
            "geojson")
        defer { try? FileManager.default.removeItem(at: bowtie) }
        let invalid = runCommand(["track", Self.tunnel, "--fences", bowtie.path])
        #expect(invalid.exitCode == 65)
        #expect(
            invalid.error.contains("\(bowtie.path):1:74: $.geometry.coordinates: geofence 'yard': invalid polygon"),
            "\(invalid.error)")
        let truncated = try temporary("{\"geofences\": [{\"identifier\": \"a\",", "json")
        defer { try? FileManager.default.removeItem(at: truncated) }
        let broken = runCommand(["track", Self.tunnel, "--fences", truncated.path])
        #expect(broken.exitCode == 65)
        #expect(broken.error.contains(truncated.path + ":1:"), "\(broken.error)")
        #expect(runCommand(["track", Self.tunnel, "--fences", "/nonexistent/f.geojson"]).exitCode == 66)
        #expect(runCommand(["track", "/nonexistent/trace.gpx"]).exitCode == 66)
        #expect(runCommand(["track"]).exitCode == 64)
        #expect(runCommand(["track", Self.tunnel, Self.tunnel]).exitCode == 64)
        #expect(runCommand(["track", Self.tunnel, "--smoothing", "kalman"]).exitCode == 64)
        #expect(runCommand(["track", Self.tunnel, "--seed", "-1"]).exitCode == 64)
    }

    @Test(
        "help describes every option",
        arguments: ["--device", "--user", "--fences", "--starts-moving", "--stop-rule", "--smoothing", "--seed", "--format"])
    func help(option: String) {
        let result = runCommand(["help", "track"])
        #expect(result.exitCode == 0)
        #expect(result.output.contains(option))
    }
}
