import Foundation
import TestSupport
import Testing

/// `--assume-accuracy METERS` and `device.parameters.assumedHorizontalAccuracyMeters`: the
/// accuracy the phone reports for a trace that records none (issue 30), with bad input refused.
@Suite("--assume-accuracy and assumedHorizontalAccuracyMeters")
struct AssumeAccuracyTests {
    static let kml = Repository.trace("gpsbabel/google_ext.kml")

    private func firstLine(_ text: String) -> String {
        String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
    }

    private func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("replay: the run JSON names the fields the phone derived and counts the calls")
    func replayJSONNamesDerivedFields() throws {
        let result = runCommand(["replay", Self.kml, "--scenario", "wheninuse-foreground", "--format", "json"])
        #expect(result.exitCode == 0, "\(result.error)")
        let run = try object(result.output)
        #expect(run["derivedByDevice"] as? [String] == ["horizontalAccuracy", "speed", "course"])
        let deliveries = try #require(run["deliveries"] as? [String: Any])
        // One call per location, as many as the metrics' deliveredFixes (436 of the 451 fixes).
        #expect(deliveries["calls"] as? Int == 436)
        #expect(deliveries["locations"] as? Int == 436)
        #expect((run["metrics"] as? [String: Any])?["deliveredFixes"] as? Int == 436)
        #expect(deliveries["largestCall"] as? Int == 1)
        // The 4 significant changes that came while GPS ran, which the engine ignores then (12
        // before issue 31, when every trigger came at 500 m; now each distance is drawn).
        #expect(deliveries["significantChanges"] as? Int == 4)
        #expect(deliveries["deliveredNotKept"] as? Int == 4)
    }

    @Test("--assume-accuracy 500 puts every KML fix past the 100 m gate: track accepts none of the 436 it otherwise accepts")
    func assumedAccuracyReachesTheGate() throws {
        let plain = try object(runCommand(["track", Self.kml, "--format", "json"]).output)
        let coarse = runCommand(["track", Self.kml, "--assume-accuracy", "500", "--format", "json"])
        #expect(coarse.exitCode == 0, "\(coarse.error)")
        let fixes = try #require(try object(coarse.output)["fixes"] as? [String: Any])
        #expect(fixes["accepted"] as? Int == 0)
        let plainFixes = try #require(plain["fixes"] as? [String: Any])
        #expect(plainFixes["accepted"] as? Int == 436)
    }

    @Test(
        "a malformed, empty, hostile or out-of-range --assume-accuracy is a usage error (64) that names it",
        arguments: ["", "ten", "-5", "0", "0.5", "1e400", "100001", "nan", "12m", "0x10", "5;rm -rf /"])
    func badOption(value: String) {
        for command in ["track", "replay"] {
            var arguments = [command, Self.kml, "--assume-accuracy", value]
            if command == "replay" { arguments += ["--scenario", "ideal"] }
            let result = runCommand(arguments)
            #expect(result.exitCode == 64, "\(command) \(value)")
            #expect(firstLine(result.error).hasPrefix("error: --assume-accuracy must be "), "\(result.error)")
        }
    }

    @Test(
        "a bad assumedHorizontalAccuracyMeters in a scenario file exits 65 naming the file, line and key",
        arguments: [#"-1"#, #"0"#, #"0.999"#, #""ten""#, #"true"#, #"null"#, #"1e9"#, #"[10]"#])
    func badParameterInFile(value: String) throws {
        let folder = try MergeIdentityTests.Folder()
        let scenario = try folder.write(
            #"{"name": "s", "device": {"parameters": {"assumedHorizontalAccuracyMeters": \#(value)}}}"#, "s.json")
        let result = runCommand(["replay", Self.kml, "--scenario", scenario])
        #expect(result.exitCode == 65, "\(value): \(result.error)")
        #expect(result.error.contains("s.json:1:"), "\(result.error)")
        #expect(result.error.contains("assumedHorizontalAccuracyMeters"), "\(result.error)")
    }

    @Test("locationsPerDelivery in a scenario file: 0 and 2.5 are refused (65), 3 batches the calls")
    func locationsPerDeliveryInFile() throws {
        let folder = try MergeIdentityTests.Folder()
        for bad in ["0", "2.5", #""3""#] {
            let scenario = try folder.write(
                #"{"name": "s", "device": {"parameters": {"locationsPerDelivery": \#(bad)}}}"#, "bad.json")
            let result = runCommand(["replay", Self.kml, "--scenario", scenario])
            #expect(result.exitCode == 65, "\(bad): \(result.error)")
            #expect(result.error.contains("locationsPerDelivery"), "\(result.error)")
        }
        let good = try folder.write(
            #"{"name": "s", "device": {"parameters": {"locationsPerDelivery": 3}}}"#, "good.json")
        let result = runCommand(["replay", Self.kml, "--scenario", good, "--format", "json"])
        #expect(result.exitCode == 0, "\(result.error)")
        let deliveries = try #require(try object(result.output)["deliveries"] as? [String: Any])
        #expect(deliveries["largestCall"] as? Int == 3)
        #expect(deliveries["calls"] as? Int == 146)
        #expect(deliveries["locations"] as? Int == 438)
        #expect(deliveries["heldWhenTraceEnded"] as? Int == 1)
    }

    @Test("the assumed accuracy's bounds: 1 m and 100000 m are accepted, 0.999 and 0 are not (iOS never reports 0 m)")
    func assumedAccuracyBounds() throws {
        for value in ["1", "100000"] {
            let result = runCommand(["track", Self.kml, "--assume-accuracy", value, "--format", "json"])
            #expect(result.exitCode == 0, "\(value): \(result.error)")
        }
        let zero = runCommand(["track", Self.kml, "--assume-accuracy", "0"])
        #expect(zero.exitCode == 64)
        #expect(firstLine(zero.error).contains("from 1 to 100000, not '0'"), "\(zero.error)")
        let folder = try MergeIdentityTests.Folder()
        let one = try folder.write(
            #"{"name": "s", "device": {"parameters": {"assumedHorizontalAccuracyMeters": 1}}}"#, "one.json")
        #expect(runCommand(["replay", Self.kml, "--scenario", one]).exitCode == 0)
    }

    @Test("always-precise on bike.tcx: every standard location kept; the significant changes the engine ignores are the loss")
    func alwaysPreciseOnBikeCountsWhatWasNotKept() throws {
        let bike = Repository.trace("gpsbabel/bike.tcx")
        let result = runCommand(["replay", bike, "--scenario", "always-precise", "--format", "json"])
        #expect(result.exitCode == 0, "\(result.error)")
        let run = try object(result.output)
        let deliveries = try #require(run["deliveries"] as? [String: Any])
        let metrics = try #require(run["metrics"] as? [String: Any])
        let locations = try #require(deliveries["locations"] as? Int)
        let significant = try #require(deliveries["significantChanges"] as? Int)
        let accepted = try #require(metrics["acceptedFixes"] as? Int)
        #expect(locations == 1789)
        #expect(significant == 4)
        #expect(accepted == 1789)
        #expect(deliveries["deliveredNotKept"] as? Int == locations + significant - accepted)
        let text = runCommand(["replay", bike, "--scenario", "always-precise"])
        #expect(text.output.contains("\ndeliveries: 1789 calls, largest 1, delivered but not kept 4"), "\(text.output)")
    }
}
