import Foundation
import TestSupport
import Testing

/// The CLI side of sharding: exit codes and usage errors. That the parts merge to the unsharded
/// output is shown on the library (ReportsTests) and by the snapshot of every command.
@Suite("tracesim matrix --shard and tracesim merge")
struct ShardMergeTests {
    static let traces = [
        "gpsbabel/bike.tcx", "mapbox-navigation-ios/tunnel.json",
        "gps-measurement-tools/MTV.Local1.ublox-F9K.20200206-181434.nmea",
    ].map(Repository.trace)

    private func write(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tracesim-part-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test("a missing or repeated shard, or parts of different matrices, exit 65; --shard needs JSON")
    func invalid() throws {
        let base = ["matrix", Self.traces[1], "--scenarios", "denied,allow-once", "--format", "json"]
        let one = try write(runCommand(base + ["--shard", "1/2"]).output)
        let two = try write(runCommand(base + ["--shard", "2/2"]).output)
        let otherSeed = try write(runCommand(base + ["--shard", "2/2", "--seed", "9"]).output)
        let broken = try write("{\"schemaVersion\": 1, \"seed\": null, \"shard\": {\"index\": 1")
        defer { for url in [one, two, otherSeed, broken] { try? FileManager.default.removeItem(at: url) } }
        let missing = runCommand(["merge", one.path])
        #expect(missing.exitCode == 65 && missing.error.contains("missing: 2"), "\(missing.error)")
        #expect(runCommand(["merge", one.path, one.path]).exitCode == 65)
        let mixed = runCommand(["merge", one.path, otherSeed.path])
        #expect(mixed.exitCode == 65 && mixed.error.contains("not a shard of the same matrix"), "\(mixed.error)")
        let truncated = runCommand(["merge", one.path, broken.path])
        #expect(truncated.exitCode == 65 && truncated.error.contains(broken.path + ":1:"), "\(truncated.error)")
        #expect(runCommand(["merge", one.path, two.path]).exitCode == 0)
        #expect(runCommand(["matrix", Self.traces[1], "--shard", "1/2"]).exitCode == 64)
        #expect(runCommand(["matrix", Self.traces[1], "--format", "json", "--shard", "3/2"]).exitCode == 64)
        #expect(runCommand(["merge"]).exitCode == 64)
    }
}
