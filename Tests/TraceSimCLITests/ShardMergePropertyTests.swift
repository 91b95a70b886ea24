import Foundation
import SimulationCore
import Testing
import Traces

/// Shard plus merge equals the unsharded run, on generated traces, preset subsets, shard
/// counts and seeds: a handful of cases by default, many with TRACESIM_LONG_TESTS=1.
@Suite("Property: shard and merge")
struct ShardMergePropertyTests {
    static let isLong = ProcessInfo.processInfo.environment["TRACESIM_LONG_TESTS"] != nil
    static let presets = [
        "ideal", "wheninuse-foreground", "wheninuse-locked", "allow-once", "denied", "always-force-quit",
        "always-approximate",
    ]

    /// A seeded walk or drive written in one of TraceSim's formats.
    static func traceFile(seed: UInt64, in folder: URL) throws -> String {
        var random = SplitMix64(seed: seed)
        let count = Int(random.uniform(20...(isLong ? 3_000 : 400)))
        var time = SimInstant(nanosecondsSinceEpoch: 1_650_000_000_000_000_000 + Int64(seed) * 3_600_000_000_000)
        var latitude = random.uniform(-50...50)
        var longitude = random.uniform(-150...150)
        let speed = random.uniform(0.5...25)
        var fixes: [Fix] = []
        for _ in 0..<count {
            time = time.advanced(byNanoseconds: random.uniform(0...1) < 0.02 ? 120_000_000_000 : 1_000_000_000)
            latitude += speed * random.uniform(-1...1) / 111_195
            longitude += speed * random.uniform(-1...1) / 111_195
            fixes.append(
                Fix(
                    timestamp: time, latitude: (latitude * 1e7).rounded() / 1e7,
                    longitude: (longitude * 1e7).rounded() / 1e7,
                    horizontalAccuracy: .meters((random.uniform(3...150) * 10).rounded() / 10),
                    speedMetersPerSecond: Float(speed), provider: .gps))
        }
        let format = ExportFormat.allCases[Int(seed % UInt64(ExportFormat.allCases.count))]
        let url = folder.appendingPathComponent("generated-\(seed).\(format.rawValue)")
        let trace = Trace(fixes: fixes, provenance: TraceProvenance(format: .canonicalCSV))
        try Data(TraceExporter.export(trace, as: format).utf8).write(to: url)
        return url.path
    }

    @Test("merging every shard, in a shuffled order, gives the unsharded output byte for byte")
    func shardsMergeToTheWhole() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tracesim-shards-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for caseSeed in 0..<UInt64(Self.isLong ? 40 : 4) {
            var random = SplitMix64(seed: caseSeed &* 7919)
            let traces = try (0..<(2 + random.next() % 4)).map { try Self.traceFile(seed: caseSeed * 10 + $0, in: folder) }
            let scenarios = Self.presets.filter { _ in random.next() % 2 == 0 }
            let chosen = scenarios.isEmpty ? ["ideal"] : scenarios
            let shardCount = Int(1 + random.next() % 7)
            let base =
                ["matrix"] + traces + [
                    "--scenarios", chosen.joined(separator: ","), "--seed", "\(random.next() % 1000)", "--format",
                    "json",
                ]
            let whole = runCommand(base)
            #expect(whole.exitCode == 0, "case \(caseSeed): \(whole.error)")
            var parts: [String] = []
            for index in 1...shardCount {
                let part = runCommand(base + ["--shard", "\(index)/\(shardCount)"])
                #expect(part.exitCode == 0, "case \(caseSeed) shard \(index): \(part.error)")
                let url = folder.appendingPathComponent("case-\(caseSeed)-part-\(index).json")
                try Data(part.output.utf8).write(to: url)
                parts.append(url.path)
            }
            // A seeded shuffle: merge must not depend on the order parts arrive in.
            for index in stride(from: parts.count - 1, to: 0, by: -1) {
                parts.swapAt(index, Int(random.next() % UInt64(index + 1)))
            }
            let merged = runCommand(["merge"] + parts)
            #expect(merged.exitCode == 0, "case \(caseSeed): \(merged.error)")
            #expect(merged.output == whole.output, "case \(caseSeed): \(shardCount) shards of \(chosen)")
        }
    }
}
