import Foundation
import TestSupport
import Testing

/// `--noise` on the commands that replay: the MTV u-blox drive stands in for a phone.
@Suite("--noise")
struct NoiseCommandTests {
    static let drive = Repository.trace("gps-measurement-tools/MTV.Local1.ublox-F9K.20200206-181434.nmea")

    private func json(_ arguments: [String]) throws -> [String: Any] {
        let result = runCommand(arguments)
        #expect(result.exitCode == 0, "\(result.error)")
        return try #require(JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    }

    @Test("replay with phone noise rejects more fixes at the gate than without, and says why")
    func replayRejectsMore() throws {
        let clean = runCommand(["track", Self.drive, "--starts-moving"])
        let noisy = runCommand(["track", Self.drive, "--starts-moving", "--noise", "phone"])
        #expect(clean.output.contains("rejected        lowAccuracy 3\n"))
        // Seed 0: the cached first fix, three jumps, and one low-accuracy fix passing as better.
        #expect(noisy.output.contains("rejected        impliedSpeed 3 · lowAccuracy 2 · staleFirstFix 1\n"), "\(noisy.output)")
        #expect(noisy.output.contains("1655 fixes"))
        let before = try metrics(json(["replay", Self.drive, "--scenario", "ideal", "--format", "json"]))
        let after = try metrics(
            json(["replay", Self.drive, "--scenario", "ideal", "--format", "json", "--noise", "phone"]))
        let rejected = { (metrics: [String: Any]) in
            ((metrics["deliveredFixes"] as? Int) ?? 0) - ((metrics["acceptedFixes"] as? Int) ?? 0)
        }
        #expect(rejected(before) == 3)
        #expect(rejected(after) > rejected(before))
        let reasons = try #require(after["rejectedByReason"] as? [String: Int])
        #expect((reasons["impliedSpeed"] ?? 0) > 0)
    }

    private func metrics(_ object: [String: Any]) throws -> [String: Any] {
        try #require(object["metrics"] as? [String: Any])
    }

    @Test("the same command twice prints the same bytes; another seed prints others")
    func deterministic() {
        let arguments = ["replay", Self.drive, "--scenario", "always-precise", "--format", "json", "--noise", "phone"]
        let first = runCommand(arguments + ["--seed", "5"])
        let second = runCommand(arguments + ["--seed", "5"])
        #expect(first.exitCode == 0 && first.output == second.output)
        #expect(runCommand(arguments + ["--seed", "6"]).output != first.output)
    }

    @Test("jumps at 60 an hour: the matrix's scenario and its ideal run replay the same noisy trace")
    func matrixPairsTheNoisyTrace() throws {
        let result = runCommand([
            "matrix", Self.drive, "--scenarios", "wheninuse-foreground", "--format", "json", "--noise",
            "jumps:rate=60",
        ])
        #expect(result.exitCode == 0, "\(result.error)")
        let object = try #require(JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let run = try #require((object["runs"] as? [[String: Any]])?.first)
        let metrics = try metrics(run)
        // In the foreground the run is its ideal: equal counts and ratio 1, though fixes jumped
        // 5 km and the gate threw them out in both.
        #expect(metrics["distanceRatio"] as? Double == 1)
        #expect(metrics["acceptedFixes"] as? Int == metrics["idealAcceptedFixes"] as? Int)
        let reasons = try #require(metrics["rejectedByReason"] as? [String: Int])
        #expect(reasons["impliedSpeed"] == 25)
        let plain = runCommand(["matrix", Self.drive, "--scenarios", "wheninuse-foreground", "--format", "json"])
        #expect(plain.exitCode == 0 && !plain.output.contains("impliedSpeed"))
    }

    @Test(
        "bad --noise values are usage errors naming what is wrong",
        arguments: [
            (["--noise", ""], "--noise needs a value"),
            (["--noise", "gps-drift"], "unknown --noise effect 'gps-drift'"),
            (["--noise", "jumps:rate=1e9"], "rate must be within 0...3600"),
            (["--noise", "jumps:rate"], "'rate' is not NAME=VALUE"),
            (["--noise", "phone", "--noise", "phone"], "names 'phone' twice"),
        ])
    func usageErrors(extra: [String], message: String) {
        for command in [["replay", Self.drive, "--scenario", "ideal"], ["track", Self.drive], ["matrix", Self.drive]] {
            let result = runCommand(command + extra)
            #expect(result.exitCode == 64, "\(command[0]): \(result.error)")
            #expect(result.error.contains(message), "\(command[0]): \(result.error)")
            #expect(result.output.isEmpty)
        }
    }

    @Test("sharded noisy parts merge into the unsharded run; a part made with other noise is refused")
    func shardsRecordTheNoise() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("noise-shards-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let second = Repository.trace("gpsbabel/google_ext.kml")
        let common = ["matrix", Self.drive, second, "--scenarios", "ideal,wheninuse-locked", "--format", "jsonl"]
        let whole = runCommand(common + ["--noise", "phone"])
        #expect(whole.exitCode == 0, "\(whole.error)")
        #expect(whole.output.contains(#""noise":["phone"]"#))
        var parts: [String] = []
        for (index, extra) in [["--noise", "phone"], ["--noise", "phone"], []].enumerated() {
            let shard = index < 2 ? "\(index + 1)/2" : "2/2"
            let part = runCommand(common + ["--shard", shard] + extra)
            #expect(part.exitCode == 0, "\(part.error)")
            let path = folder.appendingPathComponent("part\(index).jsonl").path
            try part.output.write(toFile: path, atomically: true, encoding: .utf8)
            parts.append(path)
        }
        let merged = runCommand(["merge", parts[0], parts[1]])
        #expect(merged.exitCode == 0, "\(merged.error)")
        #expect(merged.output == whole.output)
        let mixed = runCommand(["merge", parts[0], parts[2]])
        #expect(mixed.exitCode == 65)
        #expect(mixed.error.contains("--noise is not given here and 'phone' there"), "\(mixed.error)")
    }

    @Test("help lists --noise with every effect and its defaults")
    func help() {
        for command in ["replay", "matrix", "track"] {
            let help = runCommand([command, "--help"]).output
            #expect(help.contains("--noise <spec>"), "\(command)")
            #expect(help.contains("jumps (rate=3.6,distance=5000)"), "\(command)")
            #expect(help.contains("multipath (rate=4,duration=60,sigma=30,correlation=60,share=0.3)"), "\(command)")
            #expect(help.contains("stale-first-fix (gap=60,distance=1000)"), "\(command)")
            #expect(help.contains("accuracy (factor=0.3,share=0.2)"), "\(command)")
        }
    }
}
