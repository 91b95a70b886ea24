import BenchmarkKit
import Foundation
import Synchronization
import TraceSimCLI
import Traces

/// The main job end to end, in-process: `tracesim matrix` over every bundled trace with every
/// preset (importing, replaying, comparing, printing JSON), on one core and on two. Both must
/// print the same bytes.
enum MatrixSuite {
    static func run(_ bench: Bench) throws {
        bench.progress("matrix")
        let traces = try bundledTraces(root: bench.options.root)
        guard !traces.isEmpty else {
            bench.fail("no bundled traces under \(bench.options.root)/Traces")
            return
        }
        let fixes = traces.reduce(0) { total, path in
            total + ((try? TraceImporter.load(path: path, options: dated)).map(\.fixes.count) ?? 0)
        }
        var outputs: [Int: String] = [:]
        var single: Double?
        for jobs in [1, 2] {
            let arguments = ["matrix", "--date", "2020-02-07", "--format", "json", "--jobs", String(jobs)] + traces
            let (timing, output) = measure(RunPlan(warmups: 1, runs: min(3, bench.options.plan.runs))) {
                matrix(arguments)
            }
            outputs[jobs] = output.text
            if output.status != 0 { bench.fail("tracesim matrix --jobs \(jobs) exited with \(output.status)") }
            single = single ?? timing.median
            // The matrix replays each trace through 14 presets and their shared ideal run.
            let replayedFixes = Double(fixes * 15)
            bench.record(
                BenchmarkRow(
                    suite: "matrix", name: "\(jobs) core\(jobs == 1 ? "" : "s")",
                    input: "\(traces.count) bundled traces × 14 presets (+ ideal)", unit: "replayed fixes/s",
                    timing: timing, work: replayedFixes,
                    figures: ["seconds": timing.median, "speedup": (single ?? timing.median) / timing.median]))
        }
        if outputs[1] != outputs[2] { bench.fail("tracesim matrix printed different output on 1 and 2 cores") }
    }

    /// The date Scripts/run.sh gives the one bundled log that never dates itself.
    static let dated = ImportOptions(nmeaStartDate: CalendarDate("2020-02-07"))

    static func matrix(_ arguments: [String]) -> (status: Int32, text: String) {
        let captured = Mutex("")
        let console = Console(output: { text in captured.withLock { $0 += text } }, error: { _ in })
        let status = TraceSimCommandLine.run(arguments, console: console)
        return (status, captured.withLock { $0 })
    }

    /// Every file under Traces/ but licences and notes, in byte order (as Scripts/run.sh).
    static func bundledTraces(root: String) throws -> [String] {
        let base = root + "/Traces"
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [] }
        var paths: [String] = []
        while let relative = walker.nextObject() as? String {
            let path = base + "/" + relative
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                !relative.hasPrefix("LICENSES/"), !relative.hasSuffix(".md")
            else { continue }
            paths.append(path)
        }
        return paths.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }
}
