import BenchmarkKit
import ConfigJSON
import Engine
import Geometry
import Scenarios
import Traces

/// Configuration parsing: MB/s of geofence files and a scenario read the way the commands read
/// them (`GeofenceLoader.load`, `ScenarioFile.parse`: JSON, then every value checked), and the
/// document model alone (`ConfigJSON.parse`) against Python's `json.loads` on the same bytes,
/// which also only builds the document; the streaming limit bounds both. These inputs took
/// 21 s to over 120 s when parsing was quadratic.
enum ConfigSuite {
    static let cases: [(kind: ConfigGenerator.Kind, count: Int)] = [
        (.pointFences, 10_000), (.polygon, 100_000), (.timeline, 30_000),
    ]

    static func run(_ bench: Bench) throws {
        bench.progress("config")
        for (kind, count) in cases {
            let text = ConfigGenerator.render(kind, count: count, seed: bench.options.seed)
            let path = try bench.write(
                Array(text.utf8), name: "config-s\(bench.options.seed)-\(kind.rawValue)-\(count).json")
            let bytes = try TraceFile.contents(ofPath: path)
            let megabytes = Double(bytes.count) / 1e6
            let (timing, answer) = try BenchmarkKit.measure(bench.options.plan) { try parse(kind, bytes, path) }
            if answer != count { bench.fail("\(kind.rawValue): read \(answer) \(kind.unit), not \(count)") }
            let (limit, _) = BenchmarkKit.measure(bench.options.plan) { StreamingLimit.readAndSum(path: path) }
            let rate = megabytes / timing.median
            let limitRate = megabytes / limit.median
            // The document model alone, to tell the parser's share from the loaders' checks.
            let (documentTiming, _) = try BenchmarkKit.measure(bench.options.plan) {
                try ConfigJSON.parse(bytes, file: path)
            }
            var peers: [PeerComparison] = []
            if let peer = bench.peer("json_peer.py", [path, kind.rawValue]) {
                let agrees = peer.answer["count"] == Double(count)
                if !agrees { bench.fail("json.loads counted \(peer.answer["count"] ?? -1) \(kind.unit), not \(count)") }
                peers.append(
                    PeerComparison(
                        peer: peer.peer, version: peer.version, timing: peer.timing, work: megabytes,
                        traceSimRate: megabytes / documentTiming.median, agrees: agrees))
            }
            bench.record(
                BenchmarkRow(
                    suite: "config", name: "\(kind.rawValue), ConfigJSON only",
                    input: "\(Bench.grouped(count)) \(kind.unit), \(BenchmarkReport.number(megabytes)) MB",
                    unit: "MB/s", timing: documentTiming, work: megabytes,
                    figures: ["megabytes": megabytes, "seconds": documentTiming.median], peers: peers))
            bench.record(
                BenchmarkRow(
                    suite: "config", name: kind.rawValue,
                    input: "\(Bench.grouped(count)) \(kind.unit), \(BenchmarkReport.number(megabytes)) MB",
                    unit: "MB/s", timing: timing, work: megabytes,
                    figures: [
                        "megabytes": megabytes, "seconds": timing.median, "streamingLimitMBps": limitRate,
                        "fractionOfStreamingLimit": rate / limitRate,
                    ]))
        }
    }

    /// Parses as the commands do and counts what was read, so a fast wrong answer fails.
    static func parse(_ kind: ConfigGenerator.Kind, _ bytes: [UInt8], _ path: String) throws -> Int {
        switch kind {
        case .pointFences:
            return try GeofenceLoader.load(bytes, file: path).count
        case .polygon:
            let fences = try GeofenceLoader.load(bytes, file: path)
            guard case .polygon(let shape)? = fences.first?.shape else { return 0 }
            return shape.exterior.count - 1
        case .timeline:
            return try ScenarioFile.parse(bytes, file: path).scenario.timeline.count
        }
    }
}
