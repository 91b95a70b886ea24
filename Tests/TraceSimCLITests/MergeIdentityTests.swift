import Foundation
import TestSupport
import Testing

/// `tracesim merge` joins only parts of one run: every part opens with the run's identity,
/// and merge names the first way two parts differ.
@Suite("tracesim merge: run identity and shard limits")
struct MergeIdentityTests {
    static let tunnel = Repository.trace("mapbox-navigation-ios/tunnel.json")
    static let bike = Repository.trace("gpsbabel/bike.tcx")

    /// A fresh folder for one test's files.
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tracesim-merge-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }

        func path(_ name: String) -> String { url.appendingPathComponent(name).path }

        func write(_ text: String, _ name: String) throws -> String {
            try Data(text.utf8).write(to: url.appendingPathComponent(name))
            return path(name)
        }

        /// Runs `matrix ... --format json --shard K/N` and writes the part.
        func part(_ arguments: [String], shard: String, _ name: String) throws -> String {
            let result = runCommand(["matrix"] + arguments + ["--format", "json", "--shard", shard])
            #expect(result.exitCode == 0, "\(result.error)")
            return try write(result.output, name)
        }
    }

    private func firstLine(_ text: String) -> String { String(text.split(separator: "\n").first ?? "") }

    @Test("parts of different traces are refused, naming the trace")
    func differentTraces() throws {
        let folder = try Folder()
        let one = try folder.part([Self.tunnel, Self.bike, "--scenarios", "denied"], shard: "1/2", "a1.json")
        let two = try folder.part([Self.tunnel, Self.tunnel, "--scenarios", "denied"], shard: "2/2", "b2.json")
        let result = runCommand(["merge", one, two])
        #expect(result.exitCode == 65)
        #expect(
            firstLine(result.error)
                == "error: \(two): not a shard of the same matrix as \(one): trace 2 is '\(Self.tunnel)' here and '\(Self.bike)' there"
        )
    }

    @Test("parts whose scenario lists differ only in order are refused, naming the scenario")
    func scenarioOrder() throws {
        let folder = try Folder()
        let one = try folder.part([Self.tunnel, "--scenarios", "denied,allow-once"], shard: "1/2", "a1.json")
        let two = try folder.part([Self.tunnel, "--scenarios", "allow-once,denied"], shard: "2/2", "b2.json")
        let result = runCommand(["merge", one, two])
        #expect(result.exitCode == 65)
        #expect(
            firstLine(result.error)
                == "error: \(two): not a shard of the same matrix as \(one): scenario 1 is 'allow-once' here and 'denied' there"
        )
    }

    @Test("a part fingerprints only the traces it holds, and opens no other")
    func partsHashTheirOwnTraces() throws {
        let folder = try Folder()
        let missing = folder.path("not-there.json")
        // Input 2 does not exist: shard 1 of 2 (inputs 1 and 3) never opens it, shard 2 fails on it.
        let arguments = [Self.tunnel, missing, Self.bike, "--scenarios", "denied"]
        let one = try folder.part(arguments, shard: "1/2", "a1.json")
        let text = try String(contentsOfFile: one, encoding: .utf8)
        let hashes = text.components(separatedBy: "\"hash\":\"fnv1a64:").count - 1
        #expect(hashes == 2)
        #expect(text.contains("{\"path\":\"\(missing)\"}"))
        let two = runCommand(["matrix"] + arguments + ["--shard", "2/2", "--format", "json"])
        #expect(two.exitCode == 66)
        #expect(firstLine(two.error).contains(missing))
    }

    @Test("seed, fences and a scenario file's content are part of the identity")
    func seedFencesAndScenarioFiles() throws {
        let folder = try Folder()
        let base = [Self.tunnel, "--scenarios", "denied,allow-once"]
        let one = try folder.part(base, shard: "1/2", "a1.json")
        let seeded = try folder.part(base + ["--seed", "9"], shard: "2/2", "seeded.json")
        let seed = runCommand(["merge", one, seeded])
        #expect(seed.exitCode == 65)
        #expect(
            firstLine(seed.error)
                == "error: \(seeded): not a shard of the same matrix as \(one): --seed is '9' here and not given there")

        let fences = try folder.write(
            #"{"geofences": [{"identifier": "a", "latitude": 37.39, "longitude": -122.08, "radius": 200}]}"#, "f.json")
        let fenced = try folder.part(base + ["--fences", fences], shard: "1/2", "fenced1.json")
        _ = try folder.write(
            #"{"geofences": [{"identifier": "a", "latitude": 37.39, "longitude": -122.08, "radius": 300}]}"#, "f.json")
        let refenced = try folder.part(base + ["--fences", fences], shard: "2/2", "fenced2.json")
        let fenceResult = runCommand(["merge", fenced, refenced])
        #expect(fenceResult.exitCode == 65)
        #expect(firstLine(fenceResult.error).contains("--fences '\(fences)' has other content"), "\(fenceResult.error)")

        let scenario = try folder.write(#"{"name": "custom", "seed": 1}"#, "s.json")
        let first = try folder.part([Self.tunnel, "--scenarios", "allow-once,\(scenario)"], shard: "1/2", "s1.json")
        _ = try folder.write(#"{"name": "custom", "seed": 2}"#, "s.json")
        let second = try folder.part([Self.tunnel, "--scenarios", "allow-once,\(scenario)"], shard: "2/2", "s2.json")
        let scenarioResult = runCommand(["merge", first, second])
        #expect(scenarioResult.exitCode == 65)
        #expect(
            firstLine(scenarioResult.error).contains("scenario 2 'custom' file '\(scenario)' has other content"),
            "\(scenarioResult.error)")
    }

    @Test("parts made with other --noise effects, as many of them, are refused naming both")
    func otherNoise() throws {
        let folder = try Folder()
        let base = [Self.tunnel, Self.bike, "--scenarios", "denied"]
        let phone = try folder.part(base + ["--noise", "phone"], shard: "1/2", "phone.json")
        let jumps = try folder.part(base + ["--noise", "jumps"], shard: "2/2", "jumps.json")
        let result = runCommand(["merge", phone, jumps])
        #expect(result.exitCode == 65)
        #expect(
            firstLine(result.error)
                == "error: \(jumps): not a shard of the same matrix as \(phone): --noise is 'jumps' here and 'phone' there")
        #expect(result.output.isEmpty)
    }

    @Test("the same shard given twice is named as such, in-process and from the binary")
    func shardGivenTwice() throws {
        let folder = try Folder()
        let one = try folder.part([Self.tunnel, "--scenarios", "denied,allow-once"], shard: "1/2", "a1.json")
        let result = runCommand(["merge", one, one])
        #expect(result.exitCode == 65)
        #expect(firstLine(result.error) == "error: shard 1 given twice: \(one) and \(one)")
        let binary = try runBinary(["merge", one, one])
        #expect(binary.exitCode == 65)
        #expect(firstLine(binary.error) == "error: shard 1 given twice: \(one) and \(one)")
    }

    @Test("--shard and merge share one limit of 10^6 shards")
    func shardLimit() throws {
        let tooMany = runCommand(["matrix", Self.tunnel, "--format", "json", "--shard", "1/1000000000"])
        #expect(tooMany.exitCode == 64)
        #expect(
            firstLine(tooMany.error) == "error: --shard: at most 1000000 shards, not 1000000000 ('tracesim merge' reads no more)")
        let folder = try Folder()
        let most = try folder.part([Self.tunnel, "--scenarios", "denied"], shard: "1/1000000", "most.json")
        let missing = runCommand(["merge", most])
        #expect(missing.exitCode == 65)
        #expect(firstLine(missing.error).hasPrefix("error: shards of 1000000 are needed once each; missing: 2, 3, 4"))
        let edited = try folder.write(
            try String(contentsOfFile: most, encoding: .utf8).replacingOccurrences(
                of: #""count":1000000"#, with: #""count":1000001"#), "edited.json")
        let refused = runCommand(["merge", edited])
        #expect(refused.exitCode == 65)
        #expect(firstLine(refused.error).hasPrefix("error: \(edited):1:"), "\(refused.error)")
        #expect(firstLine(refused.error).contains("$.shard.count: must be between 1 and 1000000, not 1000001"), "\(refused.error)")
    }

    @Test("a run that is not the scenario its place stands for is refused at its line and column")
    func runAtTheWrongPosition() throws {
        let folder = try Folder()
        let one = try folder.part([Self.tunnel, "--scenarios", "denied,allow-once"], shard: "1/2", "a1.json")
        let text = try String(contentsOfFile: one, encoding: .utf8)
        let swapped = try folder.write(
            text.replacingOccurrences(of: #""scenario":"denied""#, with: #""scenario":"allow-once""#), "swapped.json")
        let result = runCommand(["merge", swapped])
        #expect(result.exitCode == 65)
        let column = try #require(text.range(of: #"{"trace":"#)).lowerBound.utf16Offset(in: text) + 1
        #expect(
            firstLine(result.error)
                == "error: \(swapped):1:\(column): $.runs[0]: scenario 'allow-once' where 'denied' comes next")
    }

    @Test(
        "a run copied byte for byte is still checked: a bad number or escape is refused at its column",
        arguments: [(#""flowSeconds":01"#, "leading zero"), (#""scenario":"denied\q""#, "bad escape")])
    func runsAreValidated(replacement: String, problem: String) throws {
        let folder = try Folder()
        let one = try folder.part([Self.tunnel, "--scenarios", "denied,allow-once"], shard: "1/2", "a1.json")
        let text = try String(contentsOfFile: one, encoding: .utf8)
        let key = replacement.hasPrefix(#""flowSeconds""#) ? #""flowSeconds":0"# : #""scenario":"denied""#
        let range = try #require(text.range(of: key))
        let broken = try folder.write(text.replacingCharacters(in: range, with: replacement), "broken.json")
        let result = runCommand(["merge", broken])
        #expect(result.exitCode == 65)
        #expect(firstLine(result.error).hasPrefix("error: \(broken):1:"), "\(result.error)")
        #expect(firstLine(result.error).contains(problem), "\(result.error)")
    }

    @Test("a part without an identity (an older format) is refused")
    func partWithoutIdentity() throws {
        let folder = try Folder()
        let old = try folder.write(
            #"{"schemaVersion":1,"seed":null,"shard":{"index":1,"count":1,"runs":0,"positions":[]},"runs":[]}"#,
            "old.json")
        let result = runCommand(["merge", old])
        #expect(result.exitCode == 65)
        #expect(firstLine(result.error).hasPrefix("error: \(old):1:1: $: no 'identity'"), "\(result.error)")
    }

    @Test("a seed beyond 2^53 merges to the unsharded bytes (runs are copied, not read back as Doubles)")
    func largeSeed() throws {
        let folder = try Folder()
        let base = ["matrix", Self.tunnel, "--scenarios", "denied,allow-once", "--seed", "9007199254740993", "--format", "json"]
        let whole = runCommand(base)
        #expect(whole.exitCode == 0)
        #expect(whole.output.hasPrefix(#"{"schemaVersion":5,"seed":9007199254740993,"runs":["#), "unsharded output has no identity")
        let parts = try (1...2).map { try folder.write(runCommand(base + ["--shard", "\($0)/2"]).output, "p\($0).json") }
        let merged = runCommand(["merge"] + parts.reversed())
        #expect(merged.exitCode == 0, "\(merged.error)")
        #expect(merged.output == whole.output)
    }
}
