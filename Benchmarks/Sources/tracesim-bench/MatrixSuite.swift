import BenchmarkKit
import Fleet
import Foundation
import Reports
import Scenarios
import Traces

/// The main job end to end, in-process: a `Matrix` over every bundled trace with every preset
/// (importing, replaying, comparing, rendering the JSON `tracesim matrix` prints), on one core
/// and on two. Both must give the same bytes.
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
            let (timing, output) = try measure(RunPlan(warmups: 1, runs: min(3, bench.options.plan.runs))) {
                try matrixJSON(traces, jobs: jobs)
            }
            outputs[jobs] = output
            single = single ?? timing.median
            // Each trace is replayed once per preset and once per distinct ideal run they compare with.
            let replayedFixes = Double(fixes * FleetSuite.replaysPerTrace())
            bench.record(
                BenchmarkRow(
                    suite: "matrix", name: "\(jobs) core\(jobs == 1 ? "" : "s")",
                    input: "\(traces.count) bundled traces × \(Scenario.presets.count - 1) presets (+ ideal runs)",
                    unit: "replayed fixes/s",
                    timing: timing, work: replayedFixes,
                    figures: ["seconds": timing.median, "speedup": (single ?? timing.median) / timing.median]))
        }
        if outputs[1] != outputs[2] { bench.fail("the matrix gave different JSON on 1 and 2 cores") }
    }

    /// The date Scripts/run.sh gives the one bundled log that never dates itself.
    static let dated = ImportOptions(nmeaStartDate: CalendarDate("2020-02-07"))

    /// What `tracesim matrix --date 2020-02-07 --format json --jobs N TRACE...` prints (without
    /// its final newline): traces without a timed fix are left out, as the command does.
    static func matrixJSON(_ paths: [String], jobs: Int, scenarios: [String]? = nil) throws -> String {
        var traces: [Matrix.NamedTrace] = []
        for path in paths {
            guard let trace = try? TraceImporter.load(path: path, options: dated), !trace.fixes.isEmpty else {
                continue
            }
            traces.append(Matrix.NamedTrace(name: path, trace: trace))
        }
        let chosen = Scenario.presets.filter { scenarios?.contains($0.name) ?? ($0.name != "ideal") }
        let matrix = Matrix(traces: traces, scenarios: chosen.map { Matrix.Entry($0) })
        return MatrixReport.json(try matrix.run(jobs: jobs))
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
