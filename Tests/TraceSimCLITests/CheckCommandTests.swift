import Foundation
import TestSupport
import Testing

@Suite("tracesim check")
struct CheckCommandTests {
    static let bike = Repository.trace("gpsbabel/bike.tcx")
    static let drive = Repository.trace("gps-measurement-tools/MTV.Local1.ublox-F9K.20200206-181434.nmea")

    private func file(_ text: String, _ suffix: String = "json") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tracesim-\(UUID().uuidString).\(suffix)")
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test("a violated threshold exits 1 and names trace, scenario, metric, value and bound; JUnit and Markdown agree")
    func violation() throws {
        let expect = try file(
            #"{"thresholds": [{"scenario": "wheninuse-locked", "metric": "timeCoverage", "min": 0.2}, {"scenario": "*", "metric": "collectionRatio", "max": 1}]}"#
        )
        let junit = FileManager.default.temporaryDirectory.appendingPathComponent("tracesim-\(UUID().uuidString).xml")
        let markdown = FileManager.default.temporaryDirectory.appendingPathComponent("tracesim-\(UUID().uuidString).md")
        defer { for url in [expect, junit, markdown] { try? FileManager.default.removeItem(at: url) } }
        let result = runCommand([
            "check", Self.bike, Self.drive, "--expect", expect.path, "--junit", junit.path, "--markdown", markdown.path,
        ])
        #expect(result.exitCode == 1)
        #expect(result.output.contains("FAIL \(Self.bike) · wheninuse-locked · timeCoverage = 0.0877, expected ≥ 0.2"), "\(result.output)")
        // 2 traces × (1 threshold for wheninuse-locked + 1 for each of the 17 presets).
        #expect(result.output.hasSuffix("36 checks, 2 failed\n"), "\(result.output)")
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == 36)
        #expect(xml.components(separatedBy: "<failure ").count - 1 == 2)
        #expect(xml.contains(#"<testsuites name="tracesim check" tests="36" failures="2">"#))
        let table = try String(contentsOf: markdown, encoding: .utf8)
        #expect(table.hasPrefix("### tracesim check: 2 of 36 checks fail"))
        #expect(table.components(separatedBy: "| ❌ |").count - 1 == 2)
    }

    @Test("every threshold holding exits 0")
    func pass() throws {
        let expect = try file(
            #"{"thresholds": [{"scenario": "wheninuse-locked", "metric": "timeCoverage", "max": 0.2}, {"scenario": "denied", "metric": "acceptedFixes", "max": 0}, {"scenario": "always-precise", "trace": "bike.tcx", "metric": "acceptedFixes", "min": 1000}]}"#
        )
        defer { try? FileManager.default.removeItem(at: expect) }
        let result = runCommand(["check", Self.bike, Self.drive, "--expect", expect.path])
        #expect(result.exitCode == 0, "\(result.output)")
        #expect(result.output == "5 checks, 0 failed\n")
    }

    @Test(
        "a bad expectations file exits 65 with its path and line; usage errors 64",
        arguments: [
            ("", "the file is empty"),
            (#"{"thresholds": []}"#, "nothing to check"),
            (#"{"thresholds": [{"scenario": "denied", "metric": "speed", "min": 1}]}"#, "$.thresholds[0].metric"),
            (#"{"thresholds": [{"scenario": "denied", "metric": "timeCoverage"}]}"#, "give 'min', 'max' or both"),
            (#"{"thresholds": [{"scenario": "denied", "metric": "timeCoverage", "min": 2, "max": 1}]}"#, "above 'max'"),
            (#"{"thresholds": [{"scenario": "denied", "metric": "timeCoverage", "min": 1, "typo": 1}]}"#, "unknown key"),
            (#"{"thresholds": [{"scenario": "denied", "metric": "#, "1:"),
        ])
    func badExpectations(text: String, expected: String) throws {
        let expect = try file(text)
        defer { try? FileManager.default.removeItem(at: expect) }
        let result = runCommand(["check", Self.bike, "--expect", expect.path])
        #expect(result.exitCode == 65)
        #expect(result.error.contains(expect.path) && result.error.contains(expected), "\(result.error)")
    }

    @Test("usage: --expect is required; an unknown scenario in the file is a content error with a suggestion")
    func usage() throws {
        #expect(runCommand(["check", Self.bike]).exitCode == 64)
        let expect = try file(#"{"thresholds": [{"scenario": "denyed", "metric": "timeCoverage", "max": 1}]}"#)
        defer { try? FileManager.default.removeItem(at: expect) }
        let result = runCommand(["check", Self.bike, "--expect", expect.path])
        #expect(result.exitCode == 65)
        #expect(result.error.contains("did you mean 'denied'"), "\(result.error)")
    }
}

@Suite("tracesim replay --truth")
struct ReplayTruthTests {
    @Test("the u-blox drive against its SPAN reference reports a sub-metre median position error")
    func truth() throws {
        let drive = Repository.trace("gps-measurement-tools/MTV.Local1.ublox-F9K.20200206-181434.nmea")
        let span = Repository.trace("gps-measurement-tools/MTV.Local1.SPAN.20200206-181434.gga")
        let result = runCommand([
            "replay", drive, "--scenario", "always-precise", "--truth", span, "--date", "2020-02-07", "--format", "json",
        ])
        #expect(result.exitCode == 0, "\(result.error)")
        let object = try #require(JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let metrics = try #require(object["metrics"] as? [String: Any])
        let median = try #require(metrics["positionErrorMedianMeters"] as? Double)
        let p95 = try #require(metrics["positionErrorP95Meters"] as? Double)
        #expect(median > 0.05 && median < 1 && p95 >= median && p95 < 5, "\(median) \(p95)")
        #expect(object["positionErrorReference"] as? String == "truth")
        // Without a truth the error is measured against the trace itself: the built-in engine keeps
        // the trace's own fixes, so none is off it.
        let without = runCommand(["replay", drive, "--scenario", "always-precise", "--format", "json"])
        #expect(without.output.contains(#""positionErrorMedianMeters":0,"positionErrorP95Meters":0,"#))
        #expect(without.output.contains(#""positionErrorReference":"trace""#))
        let undated = runCommand(["replay", drive, "--scenario", "always-precise", "--truth", span])
        #expect(undated.exitCode == 65 && undated.error.contains("--date"))
    }
}
