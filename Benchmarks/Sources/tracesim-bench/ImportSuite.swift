import BenchmarkKit
import Traces

/// Import per format and size: MB/s and fixes/s from bytes already in memory, against the
/// time to read and sum the same bytes from the file (the streaming limit), gpxpy for GPX
/// and pandas for CSV.
enum ImportSuite {
    static func run(_ bench: Bench) throws {
        bench.progress("import")
        for size in bench.options.sizes {
            let fixes = TraceGenerator.drive(fixes: size, seed: bench.options.seed)
            for format in BenchFormat.allCases {
                let path = try bench.driveFile(format, fixes: fixes)
                try measure(format, path: path, expected: fixes, bench)
            }
        }
    }

    static func measure(_ format: BenchFormat, path: String, expected: [Fix], _ bench: Bench) throws {
        let bytes = try TraceFile.contents(ofPath: path, limit: .max)
        let megabytes = Double(bytes.count) / 1e6
        let (timing, trace) = try BenchmarkKit.measure(bench.options.plan) {
            try TraceImporter.read(bytes, name: path)
        }
        if let problem = check(trace, format: format, expected: expected) {
            bench.fail("\(format.rawValue) import of \(path): \(problem)")
        }
        let (limit, _) = BenchmarkKit.measure(bench.options.plan) { StreamingLimit.readAndSum(path: path) }
        let rate = megabytes / timing.median
        var peers: [PeerComparison] = []
        if let peer = peerRun(format, path: path, fixes: expected.count, bench) {
            let agrees = peer.answer["fixes"] == Double(expected.count)
            if !agrees { bench.fail("\(peer.peer) read \(peer.answer["fixes"] ?? -1) fixes, not \(expected.count)") }
            peers.append(
                PeerComparison(
                    peer: peer.peer, version: peer.version, timing: peer.timing, work: megabytes, traceSimRate: rate,
                    agrees: agrees))
        }
        let limitRate = megabytes / limit.median
        bench.record(
            BenchmarkRow(
                suite: "import", name: name(format),
                input: "\(Bench.grouped(expected.count)) fixes, \(BenchmarkReport.number(megabytes)) MB", unit: "MB/s",
                timing: timing, work: megabytes,
                figures: [
                    "fixesPerSecond": Double(expected.count) / timing.median, "megabytes": megabytes,
                    "streamingLimitMBps": limitRate, "fractionOfStreamingLimit": rate / limitRate,
                ],
                peers: peers))
    }

    static func peerRun(_ format: BenchFormat, path: String, fixes: Int, _ bench: Bench) -> PeerMeasurement? {
        switch format {
        case .gpx where fixes <= bench.options.peerFixes:
            // gpxpy takes seconds per run at these sizes: three timed runs are enough.
            return bench.peer("gpx_peer.py", [path], runs: min(3, bench.options.plan.runs))
        case .csv: return bench.peer("csv_peer.py", [path])
        default: return nil
        }
    }

    /// What is wrong with the imported trace, or `nil`. TraceSim's own formats must give back
    /// exactly the fixes written; NMEA and GnssLogger store less precision, so every fix's
    /// time must match and its position must be within a few centimetres.
    static func check(_ trace: Trace, format: BenchFormat, expected: [Fix]) -> String? {
        guard trace.fixes.count == expected.count else {
            return "\(trace.fixes.count) fixes, expected \(expected.count)"
        }
        switch format {
        case .csv, .jsonl, .gpx:
            if let index = zip(trace.fixes, expected).firstIndex(where: { $0 != $1 }) {
                return "fix \(index) differs from the one written"
            }
        case .nmea, .gnssLogger:
            for (index, (read, written)) in zip(trace.fixes, expected).enumerated() {
                if read.timestamp != written.timestamp || abs(read.latitude - written.latitude) > 5e-7
                    || abs(read.longitude - written.longitude) > 5e-7
                {
                    return "fix \(index) differs from the one written"
                }
            }
        }
        return nil
    }

    static func name(_ format: BenchFormat) -> String {
        switch format {
        case .gpx: "GPX"
        case .csv: "canonical CSV"
        case .jsonl: "JSON Lines"
        case .nmea: "NMEA"
        case .gnssLogger: "GnssLogger"
        }
    }
}

extension Zip2Sequence {
    fileprivate func firstIndex(where predicate: ((Sequence1.Element, Sequence2.Element)) -> Bool) -> Int? {
        for (index, pair) in enumerated() where predicate(pair) { return index }
        return nil
    }
}
