import Foundation
import TestSupport
import Testing

/// Paths inside a configuration file resolve against that file's folder, wherever the command
/// runs, and a failure names both files.
@Suite("paths inside configuration files")
struct ConfigPathTests {
    static let bike = Repository.trace("gpsbabel/bike.tcx")

    @Test("a scenario file named in an expectations file resolves against the expectations file's folder")
    func expectationsScenarioResolvesAgainstItsFile() throws {
        let scratch = try ReadLimitScratch()
        try scratch.write("fences.geojson", #"{"geofences": []}"#)
        try scratch.write("night.json", #"{"name": "night", "geofences": "fences.geojson"}"#)
        let expect = try scratch.write(
            "expect.json", #"{"thresholds": [{"scenario": "night.json", "metric": "recordedFixes", "min": 1}]}"#)
        let result = runCommand(["check", Self.bike, "--expect", expect])
        #expect(result.exitCode == 0, "\(result.error)")
        #expect(result.output.hasSuffix("1 check, 0 failed\n"), "\(result.output)")
    }

    @Test("a missing scenario file named in an expectations file names both files")
    func missingScenarioNamesBothFiles() throws {
        let scratch = try ReadLimitScratch()
        let expect = try scratch.write(
            "expect.json", #"{"thresholds": [{"scenario": "gone.json", "metric": "recordedFixes", "min": 1}]}"#)
        let result = runCommand(["check", Self.bike, "--expect", expect])
        #expect(result.exitCode == 66)
        #expect(
            ReadLimitHarness.firstLine(result.error)
                == "error: \(scratch.path("gone.json")): no such file (named in \(expect), resolved against its folder)")
    }

    @Test("a missing geofence file named in a scenario names both files")
    func missingGeofencesNamesBothFiles() throws {
        let scratch = try ReadLimitScratch()
        let scenario = try scratch.write("s.json", #"{"name": "s", "geofences": "gone.geojson"}"#)
        let result = runCommand(["matrix", Self.bike, "--scenarios", scenario])
        #expect(result.exitCode == 66)
        #expect(
            ReadLimitHarness.firstLine(result.error)
                == "error: \(scratch.path("gone.geojson")): no such file (named in \(scenario), resolved against its folder)"
        )
    }

    @Test("a FIFO named as a scenario in an expectations file is refused at once", .timeLimit(.minutes(1)))
    func expectationsScenarioFIFO() throws {
        let scratch = try ReadLimitScratch()
        let fifo = try scratch.fifo("night.json")
        let expect = try scratch.write(
            "expect.json", #"{"thresholds": [{"scenario": "night.json", "metric": "recordedFixes", "min": 1}]}"#)
        let result = try ReadLimitHarness.run(["check", Self.bike, "--expect", expect])
        #expect(result.exitCode == 66, "\(result.error)")
        #expect(
            ReadLimitHarness.firstLine(result.error)
                == "error: \(fifo): not a regular file (a FIFO) (named in \(expect), resolved against its folder)")
    }
}
