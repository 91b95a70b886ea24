import ConfigJSON
import Fleet
import Foundation
import Reports
import Scenarios
import SimulationCore
import Testing
import Traces

/// Shards of a matrix, written as parts and merged, give exactly the unsharded JSON; parts that
/// do not belong together are refused, naming why.
@Suite("Matrix shards and merge")
struct ShardMergeTests {
    static let traces = [
        "Traces/gpsbabel/bike.tcx", "Traces/mapbox-navigation-ios/tunnel.json",
        "Traces/gps-measurement-tools/MTV.Local1.ublox-F9K.20200206-181434.nmea",
    ]

    /// A matrix over `traces` that can write parts: its identity names the traces and scenarios.
    static func matrix(_ traces: [Matrix.NamedTrace], _ presets: [String], seed: UInt64? = nil) -> Matrix {
        let identity = RunIdentity(
            version: "test", traces: traces.map { RunIdentity.Input(path: $0.name) },
            scenarios: presets.map { RunIdentity.ScenarioEntry(name: $0) }, seed: seed, fences: nil, date: nil,
            inputFormat: nil)
        return Matrix(
            traces: traces, scenarios: presets.map { Matrix.Entry(Fixture.preset($0)) }, seed: seed,
            identity: identity)
    }

    static func part(_ matrix: Matrix, _ index: Int, of count: Int) throws -> MatrixPart {
        let shard = try #require(Shard(index: index, count: count))
        let text = MatrixReport.json(try matrix.run(shard: shard))
        return try MatrixPart(Array(text.utf8), "part-\(index).json")
    }

    static func bundled() throws -> [Matrix.NamedTrace] {
        try traces.map {
            Matrix.NamedTrace(
                name: $0, trace: try TraceImporter.load(path: Fixture.repositoryRoot.appendingPathComponent($0).path))
        }
    }

    @Test("shards 1...N merged in any order equal the unsharded output byte for byte", arguments: [1, 2, 4, 7])
    func mergeEqualsUnsharded(count: Int) throws {
        let matrix = Self.matrix(try Self.bundled(), ["always-precise", "wheninuse-locked", "always-force-quit"])
        let whole = MatrixReport.json(try matrix.run())
        let parts = try (1...count).reversed().map { try Self.part(matrix, $0, of: count) }
        let merged = try Matrix.merge(parts)
        #expect(MatrixReport.json(merged) == whole)
    }

    @Test("shards stripe the traces: shard K of N holds traces K-1, K-1+N, ..., each with every scenario")
    func striping() throws {
        let traces = (0..<5).map { Matrix.NamedTrace(name: "fixture \($0)", trace: Fixture.trace) }
        let matrix = Self.matrix(traces, ["denied", "allow-once"])
        // Unwrapped on its own line: passed straight to `run(shard: Shard?)`, #require would
        // check the optional it is handed and never fail.
        let shard = try #require(Shard(index: 2, count: 3))
        let result = try matrix.run(shard: shard)
        // Traces 1 and 4 (from 0), each with both scenarios.
        #expect(result.cells.map(\.position) == [2, 3, 8, 9])
        #expect(result.cells.map(\.traceIndex) == [1, 1, 4, 4])
        #expect(matrix.positions(in: Shard(index: 1, count: 3)) == [0, 1, 6, 7])
        #expect(matrix.positions(in: Shard(index: 3, count: 3)) == [4, 5])
        #expect(matrix.positions(in: Shard(index: 6, count: 6)) == [])
        #expect(matrix.positions(in: nil) == Array(0..<10))
        #expect(Shard(index: 0, count: 2) == nil && Shard(index: 3, count: 2) == nil)
        #expect(Shard(index: 1, count: Shard.maximumCount + 1) == nil)
    }

    @Test("a missing or repeated shard, or parts of different matrices, are refused naming why")
    func refusals() throws {
        let traces = [Matrix.NamedTrace(name: "fixture", trace: Fixture.trace)]
        let matrix = Self.matrix(traces, ["denied", "allow-once"])
        let (one, two) = (try Self.part(matrix, 1, of: 2), try Self.part(matrix, 2, of: 2))
        let otherSeed = try Self.part(Self.matrix(traces, ["denied", "allow-once"], seed: 9), 2, of: 2)
        func refusal(_ parts: [MatrixPart]) -> String? {
            do {
                _ = try Matrix.merge(parts)
                return nil
            } catch {
                return error.message
            }
        }
        #expect(refusal([one])?.contains("missing: 2") == true)
        #expect(refusal([one, one])?.contains("shard 1 given twice") == true)
        #expect(refusal([one, otherSeed])?.contains("not a shard of the same matrix") == true)
        #expect(refusal([one, otherSeed])?.contains("--seed is '9' here and not given there") == true)
        #expect(refusal([]) == "no parts")
        #expect(refusal([two, one]) == nil)
        let broken = Array("{\"schemaVersion\": 1, \"seed\": null, \"shard\": {\"index\": 1".utf8)
        #expect(throws: ConfigError.self) { try MatrixPart(broken, "broken.json") }
    }

    @Test("property: every shard of generated matrices, merged in a shuffled order, gives the whole")
    func shardsMergeToTheWhole() throws {
        let isLong = ProcessInfo.processInfo.environment["TRACESIM_LONG_TESTS"] != nil
        let presets = [
            "ideal", "wheninuse-foreground", "wheninuse-locked", "allow-once", "denied", "always-force-quit",
            "always-approximate",
        ]
        for caseSeed in 0..<UInt64(isLong ? 40 : 4) {
            var random = SplitMix64(seed: caseSeed &* 7919)
            let traces = try (0..<(2 + random.next() % 4)).map {
                try Self.generated(seed: caseSeed * 10 + $0, long: isLong)
            }
            let chosen = presets.filter { _ in random.next() % 2 == 0 }
            let shardCount = Int(1 + random.next() % 7)
            let matrix = Self.matrix(traces, chosen.isEmpty ? ["ideal"] : chosen, seed: random.next() % 1000)
            let whole = MatrixReport.json(try matrix.run())
            var parts = try (1...shardCount).map { try Self.part(matrix, $0, of: shardCount) }
            // A seeded shuffle: merge must not depend on the order parts arrive in.
            for index in stride(from: parts.count - 1, to: 0, by: -1) {
                parts.swapAt(index, Int(random.next() % UInt64(index + 1)))
            }
            let merged = try Matrix.merge(parts)
            #expect(
                MatrixReport.json(merged) == whole,
                "case \(caseSeed): \(shardCount) shards of \(chosen)")
        }
    }

    /// A seeded walk or drive written in one of TraceSim's formats and read back.
    static func generated(seed: UInt64, long: Bool) throws -> Matrix.NamedTrace {
        var random = SplitMix64(seed: seed)
        let count = Int(random.uniform(20...(long ? 3_000 : 400)))
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
        let name = "generated-\(seed).\(format.rawValue)"
        let trace = Trace(fixes: fixes, provenance: TraceProvenance(format: .canonicalCSV))
        let text = TraceExporter.export(trace, as: format)
        return Matrix.NamedTrace(name: name, trace: try TraceImporter.read(Array(text.utf8), name: name))
    }
}
