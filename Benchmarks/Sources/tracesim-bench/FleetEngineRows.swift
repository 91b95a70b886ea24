import BenchmarkKit
import Foundation

/// A team's own engine over a fleet (issue 32 §5): 200 generated drives of 10 minutes through
/// every preset with `tracesim matrix --jobs 2`, with the Python example engine over the
/// protocol in runs and with the built-in engine in-process: wall-clock each, and their ratio.
/// The Python example without runs (`--no-runs`, one message a location) runs once, as the
/// reference the runs are measured against; it must print the same bytes as with runs.
extension FleetSuite {
    static let engineFleetDrives = 200
    static let engineFleetMinutes = 10

    static func teamEngineRows(_ tracesim: String, format: String, replays: Int, _ bench: Bench) throws {
        let options = bench.options
        let fleet = try fleetFiles(bench, drives: engineFleetDrives, minutes: engineFleetMinutes)
        let example = "\(options.python ?? "python3") \(options.root)/Examples/python/engine.py"
        let fixes = engineFleetDrives * engineFleetMinutes * 60
        let input =
            "\(engineFleetDrives) drives × \(engineFleetMinutes) min, "
            + "\(BenchmarkReport.number(Double(fixes))) fixes × \(replays) replays, --jobs 2"
        let cases: [(name: String, arguments: [String], runs: Int)] = [
            ("built-in engine", [], min(3, options.plan.runs)),
            ("Python example engine, in runs", ["--engine-command", example], min(3, options.plan.runs)),
            (
                "Python example engine, one location a message (reference, once)",
                ["--engine-command", example + " --no-runs"], 1
            ),
        ]
        var medians: [Double] = []
        var outputs: [String] = []
        for (index, engine) in cases.enumerated() {
            let output = options.work + "/fleet-engine-\(index).\(format)"
            var seconds: [Double] = []
            for _ in 0..<engine.runs {
                let errors = options.work + "/fleet-engine-stderr.txt"
                let outcome = try ChildProcess.run(
                    tracesim, ["matrix", "--format", format, "--jobs", "2"] + engine.arguments + fleet.paths,
                    output: output, errors: errors)
                guard outcome.status == 0 else {
                    let message = (try? String(contentsOfFile: errors, encoding: .utf8))?.split(separator: "\n").first
                    bench.fail("fleet: \(engine.name) exited with \(outcome.status): \(message ?? "")")
                    return
                }
                bench.progress("  \(engine.name): " + String(format: "%.1f s", outcome.seconds))
                seconds.append(outcome.seconds)
            }
            let timing = Timing(seconds: seconds)
            medians.append(timing.median)
            outputs.append(output)
            var figures = ["seconds": timing.median, "traces": Double(engineFleetDrives)]
            if index > 0 { figures["ratioToBuiltIn"] = timing.median / medians[0] }
            if index == 2 { figures["ratioToRuns"] = timing.median / medians[1] }
            bench.record(
                BenchmarkRow(
                    suite: "fleet", name: "matrix with the \(engine.name)", input: input, unit: "replayed fixes/s",
                    timing: timing, work: Double(fixes * replays), figures: figures))
        }
        if !sameFiles(outputs[1], outputs[2]) {
            bench.fail("fleet: the Python example engine printed other bytes with runs than without")
        }
    }
}
