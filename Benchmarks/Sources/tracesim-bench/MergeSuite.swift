import BenchmarkKit
import Foundation
import Synchronization
import TraceSimCLI

/// `tracesim merge` in-process on two parts of a wide matrix: reading, checking and joining
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
        let expected = "{\"schemaVersion\":1,\"seed\":null,\"runs\":[" + runs.joined(separator: ",") + "]}\n"
        let bytes = try parts.reduce(0) { total, path in
            total + ((try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
        }
        let (timing, output) = measure(bench.options.plan) { MatrixSuite.matrix(["merge"] + parts) }
        if output.status != 0 || output.text != expected {
            bench.fail("tracesim merge exited \(output.status) or did not print the unsharded JSON")
        }
        bench.record(
            BenchmarkRow(
                suite: "merge", name: "2 parts",
                input: "\(traces) traces, \(BenchmarkReport.number(Double(bytes) / 1e6)) MB",
                unit: "MB/s", timing: timing, work: Double(bytes) / 1e6, figures: ["seconds": timing.median]))
    }

    static func path(_ index: Int) -> String { "traces/trace-\(index).gpx" }

    /// One real run's JSON (a bundled trace through one preset), its trace path and scenario.
    static func runTemplate(root: String) throws -> (run: String, path: String, scenario: String) {
        let trace = root + "/Traces/gpsbabel/bike.tcx"
        let result = MatrixSuite.matrix(["matrix", trace, "--scenarios", "wheninuse-locked", "--format", "json"])
        let prefix = "{\"schemaVersion\":1,\"seed\":null,\"runs\":["
        guard result.status == 0, result.text.hasPrefix(prefix), result.text.hasSuffix("]}\n") else {
            throw BenchError(description: "tracesim matrix on \(trace) exited \(result.status)")
        }
        return (String(result.text.dropFirst(prefix.count).dropLast(3)), trace, "wheninuse-locked")
    }

    /// A part as `matrix --shard` writes it, with an identity naming made-up traces.
    static func part(_ shard: Int, of count: Int, runs: [String], scenario: String) -> String {
        let traces = (0..<runs.count).map {
            "{\"path\":\"\(path($0))\",\"bytes\":1,\"hash\":\"fnv1a64:0000000000000000\"}"
        }
        let identity =
            "{\"tracesim\":\"\(TraceSimCommandLine.version)\",\"traces\":[\(traces.joined(separator: ","))],"
            + "\"scenarios\":[{\"name\":\"\(scenario)\"}],\"seed\":null,\"fences\":null,\"date\":null,\"inputFormat\":null}"
        let positions = Array(stride(from: shard - 1, to: runs.count, by: count))
        return "{\"schemaVersion\":1,\"identity\":\(identity),\"seed\":null,\"shard\":{\"index\":\(shard),"
            + "\"count\":\(count),\"runs\":\(runs.count),\"positions\":[\(positions.map(String.init).joined(separator: ","))]},"
            + "\"runs\":[\(positions.map { runs[$0] }.joined(separator: ","))]}\n"
    }

    struct BenchError: Error, CustomStringConvertible {
        var description: String
    }
}
