import Foundation
import TestSupport
import Testing

@Suite("tracesim permissions")
struct PermissionsCommandTests {
    static let user = Repository.path("Documentation/Examples/user.json")

    @Test("--sdk doorstep --format json: promptLog, result in the seed's shape, device; keys in order")
    func doorstepJSON() throws {
        let result = runCommand([
            "permissions", "--sdk", "doorstep", "--user", Self.user, "--request", "locationWhenInUse,motionFitness", "--format", "json",
        ])
        #expect(result.exitCode == 0)
        let line = Substring(result.output.trimmingCharacters(in: .newlines))
        #expect(try line.firstMatchKeys() == ["promptLog", "result", "device", "schemaVersion", "sdk", "secondsTaken"])
        let object = try #require(JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let output = try #require(object["result"] as? [String: Any])
        #expect(output["requested"] as? [String] == ["locationWhenInUse", "motionFitness"])
        #expect(output["didRequest"] as? Bool == true)
        let statuses = try #require(output["statuses"] as? [String: [String: Any]])
        #expect(statuses["locationWhenInUse"]?["state"] as? String == "granted")
        #expect(statuses["locationWhenInUse"]?["os"] as? String == "authorizedWhenInUse,accuracy=full")
        let device = try #require(object["device"] as? [String: Any])
        #expect(device["backgroundCollectionPossible"] as? Bool == false)
    }

    @Test("population: provisional Always (iOS 13) is not Always + Precise + Motion until the upgrade is answered")
    func provisionalAlwaysIsNotAlways() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tracesim-pop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let population = folder.appendingPathComponent("pop.json")
        try Data(
            #"{"location": {"allowWhileUsing": 0.6, "dontAllow": 0.4}, "upgrade": {"changeToAlwaysAllow": 1}, "motion": {"allow": 1}}"#
                .utf8
        ).write(to: population)
        let ios13 = folder.appendingPathComponent("ios13.json")
        try Data(#"{"osProfile": "ios13"}"#.utf8).write(to: ios13)
        let result = runCommand([
            "permissions", "--compare", "--population", population.path, "--device", ios13.path, "--format", "json",
        ])
        #expect(result.exitCode == 0, "\(result.error)")
        let rows = try #require(JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        let doorstep = try #require(rows.first { $0["sdk"] as? String == "doorstep" })
        // The requester's first Always request on iOS 13 grants provisional Always to the 60 %
        // who allow While Using; the upgrade prompt needs a background event no flow has.
        #expect(doorstep["alwaysPreciseMotionShare"] as? Double == 0, "\(result.output)")
        let wizard = try #require(rows.first { $0["sdk"] as? String == "wizard" })
        #expect(wizard["alwaysPreciseMotionShare"] as? Double == 0.6, "\(result.output)")
    }

    @Test("every SDK runs and prints its own result", arguments: ["doorstep", "bggeo", "airship", "wizard"])
    func everySDK(sdk: String) {
        let result = runCommand(["permissions", "--sdk", sdk, "--user", Self.user])
        #expect(result.exitCode == 0)
        #expect(result.output.contains("PROMPTS") && result.output.contains("RESULT") && result.output.contains("DEVICE"))
    }

    @Test("bad input: a broken USER.json exits 65 naming its path; a missing file 66; usage errors 64")
    func errors() throws {
        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("tracesim-user-\(UUID().uuidString).json")
        try Data(#"{"answers": [{"prompt": "location", "answer": "sure"}]}"#.utf8).write(to: bad)
        defer { try? FileManager.default.removeItem(at: bad) }
        let broken = runCommand(["permissions", "--sdk", "doorstep", "--user", bad.path])
        #expect(broken.exitCode == 65)
        #expect(broken.error.hasPrefix("error: \(bad.path):1:47: $.answers[0].answer: 'sure' is not one of"))
        #expect(runCommand(["permissions", "--sdk", "doorstep", "--user", "missing.json"]).exitCode == 66)
        #expect(runCommand(["permissions", "--sdk", "other", "--user", Self.user]).exitCode == 64)
        #expect(runCommand(["permissions", "--sdk", "doorstep", "--user", Self.user, "--request", "camera"]).exitCode == 64)
        #expect(runCommand(["permissions", "--user", Self.user]).exitCode == 64)
    }

    @Test("the same person twice prints the same bytes")
    func deterministic() {
        let arguments = ["permissions", "--compare", "--user", Self.user, "--format", "json"]
        #expect(runCommand(arguments).output == runCommand(arguments).output)
    }
}
