import Foundation
import TestSupport
import Testing

/// What the commands print for configuration and JSON Lines content RFC 8259 or TraceSim refuses.
@Suite("configuration JSON messages")
struct ConfigJSONMessageTests {
    static let bike = Repository.trace("gpsbabel/bike.tcx")

    @Test("a scenario seed of 1e999 is reported with its JSON path")
    func seedOverflow() throws {
        let scratch = try ReadLimitScratch()
        let scenario = try scratch.write("s.json", "{\"name\": \"s\",\n \"seed\": 1e999}")
        let result = runCommand(["matrix", Self.bike, "--scenarios", scenario])
        #expect(result.exitCode == 65)
        #expect(
            ReadLimitHarness.firstLine(result.error)
                == "error: \(scenario):2:10: $.seed: not a finite number (beyond the range of a double)")
    }

    @Test("a leading zero in a scenario number is refused (RFC 8259)")
    func leadingZero() throws {
        let scratch = try ReadLimitScratch()
        let scenario = try scratch.write("s.json", #"{"name": "s", "engine": {"stopTimeout": 0300}}"#)
        let result = runCommand(["matrix", Self.bike, "--scenarios", scenario])
        #expect(result.exitCode == 65)
        #expect(
            ReadLimitHarness.firstLine(result.error)
                == "error: \(scenario):1:41: $.engine.stopTimeout: invalid JSON: a number has a leading zero (RFC 8259 forbids them)")
    }

    @Test("a geofence coordinate '1.' is refused (RFC 8259)")
    func trailingPoint() throws {
        let scratch = try ReadLimitScratch()
        let fences = try scratch.write(
            "f.json", #"{"geofences": [{"identifier": "a", "latitude": 52., "longitude": 13, "radius": 50}]}"#)
        let result = runCommand(["track", Self.bike, "--fences", fences])
        #expect(result.exitCode == 65)
        #expect(
            ReadLimitHarness.firstLine(result.error)
                == "error: \(fences):1:48: $.geofences[0].latitude: invalid JSON: a number needs a digit after '.' (RFC 8259)")
    }

    @Test("a configuration file that is not JSON says so")
    func notJSON() throws {
        let scratch = try ReadLimitScratch()
        let fences = try scratch.write("passwd", "root:x:0:0:root:/root:/bin/sh\n")
        let result = runCommand(["track", Self.bike, "--fences", fences])
        #expect(result.exitCode == 65)
        #expect(
            ReadLimitHarness.firstLine(result.error)
                == "error: \(fences):1:1: not JSON: expected an object or array, found 'r'")
    }

    @Test("a JSON Lines key given twice is refused at its line and column")
    func jsonLinesDuplicate() throws {
        let scratch = try ReadLimitScratch()
        let trace = try scratch.write(
            "t.jsonl",
            "{\"time\":\"2020-01-01T00:00:00Z\",\"lat\":1,\"lon\":3}\n{\"time\":\"2020-01-01T00:00:01Z\",\"lat\":1,\"lat\":50,\"lon\":3}\n")
        let result = runCommand(["inspect", trace])
        #expect(result.exitCode == 65)
        #expect(ReadLimitHarness.firstLine(result.error) == "error: \(trace):2:40: key 'lat' appears twice")
    }
}
