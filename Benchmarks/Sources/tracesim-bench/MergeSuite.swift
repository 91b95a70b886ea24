import BenchmarkKit
import Fleet
import Foundation
import Reports
import Scenarios

/// `Matrix.merge` on two parts of a wide matrix: reading, checking and joining
/// them, in MB of parts per second. The parts are built from one real run repeated for 300
/// traces (no replays: the suite measures merging, not matrix), and the merged bytes must be
/// exactly the unsharded JSON those runs make.
enum MergeSuite {
    /// About what a 300-trace matrix writes per part (the issue's case: two 9 MB parts).
    static let traces = 300
    static let partBytes = 9_000_000

    static func run(_ bench: Bench) throws {
        bench.progress("merge")
        let template = try runTemplate(root: bench.options.root)
        // Each trace's run is padded with delivered times until a part holds about partBytes.
        let padding = max(1, (2 * partBytes / traces - template.run.count) / 4)
        let filler = Array(repeating: "0.5", count: padding).joined(separator: ",")
        let padded =
            template.run.contains("\"deliveredTimes\":[]")
            ? template.run.replacingOccurrences(of: "\"deliveredTimes\":[]", with: "\"deliveredTimes\":[\(filler)]")
            : template.run.replacingOccurrences(of: "\"deliveredTimes\":[", with: "\"deliveredTimes\":[\(filler),")
        let runs = (0..<traces).map { index in
            padded.replacingOccurrences(of: "\"trace\":\"\(template.path)\"", with: "\"trace\":\"\(path(index))\"")
        }
        let parts = try (1...2).map { shard in
            try bench.write(
                Array(part(shard, of: 2, runs: runs, scenario: template.scenario).utf8),
                name: "merge-part-\(shard).json")
        }
        let expected =
            "{\"schemaVersion\":\(RunReport.schemaVersion),\"seed\":null,\"runs\":[" + runs.joined(separator: ",")
            + "]}\n"
        let bytes = try parts.reduce(0) { total, path in
            total + ((try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
        }
        let (timing, output) = try measure(bench.options.plan) { try merge(parts) }
        if output != expected { bench.fail("merge did not give the unsharded JSON") }
        bench.record(
            BenchmarkRow(
                suite: "merge", name: "2 parts",
                input: "\(traces) traces, \(BenchmarkReport.number(Double(bytes) / 1e6)) MB",
                unit: "MB/s", timing: timing, work: Double(bytes) / 1e6, figures: ["seconds": timing.median]))
    }

    /// What `tracesim merge PARTS...` does and prints: read and check every part, join them.
    static func merge(_ paths: [String]) throws -> String {
        let parts = try paths.map { path in
            try MatrixPart(Array(try Data(contentsOf: URL(fileURLWithPath: path))), path)
        }
        return MatrixReport.json(try Matrix.merge(parts)) + "\n"
    }

    static func path(_ index: Int) -> String { "traces/trace-\(index).gpx" }

    /// One real run's JSON (a bundled trace through one preset), its trace path and scenario.
    static func runTemplate(root: String) throws -> (run: String, path: String, scenario: String) {
        let trace = root + "/Traces/gpsbabel/bike.tcx"
        let text = try MatrixSuite.matrixJSON([trace], jobs: 1, scenarios: ["wheninuse-locked"])
        let prefix = "{\"schemaVersion\":\(RunReport.schemaVersion),\"seed\":null,\"runs\":["
        guard text.hasPrefix(prefix), text.hasSuffix("]}") else {
            throw BenchError(description: "the matrix of \(trace) is not the JSON expected")
        }
        return (String(text.dropFirst(prefix.count).dropLast(2)), trace, "wheninuse-locked")
    }

    /// A part as `matrix --shard` writes it: the inputs `i % count == shard - 1`, one run each,
    /// an identity naming made-up traces that hashes only the inputs this part read, and the
    /// `end` that accounts for every input it holds.
    static func part(_ shard: Int, of count: Int, runs: [String], scenario: String) -> String {
        let positions = Array(stride(from: shard - 1, to: runs.count, by: count))
        let traces = (0..<runs.count).map {
            positions.contains($0)
                ? "{\"path\":\"\(path($0))\",\"bytes\":1,\"hash\":\"fnv1a64:0000000000000000\"}"
                : "{\"path\":\"\(path($0))\"}"
        }
        let identity =
            "{\"tracesim\":\"bench\",\"traces\":[\(traces.joined(separator: ","))],"
            + "\"scenarios\":[{\"name\":\"\(scenario)\"}],\"seed\":null,\"fences\":null,\"date\":null,\"inputFormat\":null}"
        return "{\"schemaVersion\":\(RunReport.schemaVersion),\"identity\":\(identity),\"seed\":null,"
            + "\"shard\":{\"index\":\(shard),\"count\":\(count)},"
            + "\"runs\":[\(positions.map { runs[$0] }.joined(separator: ","))],"
            + "\"end\":{\"inputs\":\(positions.count),\"read\":\(positions.count),\"traces\":\(positions.count),"
            + "\"skipped\":[],\"failed\":[]}}\n"
    }

    struct BenchError: Error, CustomStringConvertible {
        var description: String
    }
}
