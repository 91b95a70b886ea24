import BenchmarkKit
import Fleet
import Foundation
import Scenarios
import Traces

/// A fleet through the real command line: the built `tracesim` binary runs as a child process
/// over a generated fleet with every preset, as a user would run it, on one worker and on two:
/// replayed fixes per second, wall time and the child's peak resident memory. Then the peak
/// memory of `matrix` over growing numbers of traces, which must stay flat, and, when a
/// command for it is given, the same fleet on Ray, which must write the same bytes.
enum FleetSuite {
    /// Bumped whenever `FleetGenerator` changes, so a fleet left on disk is never reused stale.
    static let generatorVersion = 1

    /// How much a larger fleet's peak memory may exceed the smallest's and still count as flat.
    static let flatFactor = 1.25

    static func run(_ bench: Bench) throws {
        bench.progress("fleet")
        let options = bench.options
        let tracesim = options.tracesim ?? options.root + "/.build/release/tracesim"
        guard FileManager.default.isExecutableFile(atPath: tracesim) else {
            bench.fail("no tracesim at \(tracesim): build it with 'swift build -c release --product tracesim'")
            return
        }
        #if os(Linux)
            if !FileManager.default.isExecutableFile(atPath: "/usr/bin/time") {
                bench.fail("no /usr/bin/time (GNU time): peak memory would include this process's own")
            }
        #endif
        let fleet = try fleetFiles(bench, drives: options.fleetDrives, minutes: options.fleetMinutes)
        guard let format = try runsFormat(tracesim, probe: fleet.paths[0], bench) else { return }
        let replays = replaysPerTrace()
        let fixes = options.fleetDrives * options.fleetMinutes * 60
        let replayedFixes = Double(fixes * replays)
        let input =
            "\(Bench.grouped(options.fleetDrives)) drives × \(options.fleetMinutes) min, "
            + "\(BenchmarkReport.number(Double(fixes))) fixes × \(replays) replays, \(format)"
        bench.progress("  \(input): \(BenchmarkReport.number(Double(fleet.bytes) / 1e6)) MB of CSV")

        try sameBytesOnOneAndTwoWorkers(tracesim, Array(fleet.paths.prefix(10)), format: format, bench)

        // Ray's runs are compared with these bytes, so then the two-worker run keeps them.
        let keptRuns = options.rayCommand == nil ? nil : options.work + "/fleet-runs.\(format)"
        var plainSeconds: [Int: Double] = [:]
        for jobs in [1, 2] {
            let output = jobs == 2 ? keptRuns ?? "/dev/null" : "/dev/null"
            guard let outcome = try matrix(tracesim, fleet.paths, format: format, jobs: jobs, output: output, bench)
            else { return }
            plainSeconds[jobs] = outcome.seconds
            bench.record(
                BenchmarkRow(
                    suite: "fleet", name: "matrix --jobs \(jobs)", input: input, unit: "replayed fixes/s",
                    timing: Timing(seconds: [outcome.seconds]), work: replayedFixes,
                    figures: [
                        "seconds": outcome.seconds, "cpuSeconds": outcome.cpuSeconds,
                        "peakRSSMegabytes": megabytes(outcome.peakResidentBytes),
                        "traces": Double(options.fleetDrives), "replaysPerTrace": Double(replays),
                        "speedup": (plainSeconds[1] ?? outcome.seconds) / outcome.seconds,
                    ]))
        }

        try memoryByTraceCount(tracesim, format: format, replays: replays, bench)
        try teamEngineRows(tracesim, format: format, replays: replays, bench)

        if let template = options.rayCommand, let keptRuns {
            try ray(
                template, tracesim: tracesim, fleet: fleet, expected: keptRuns, plainSeconds: plainSeconds,
                input: input, work: replayedFixes, bench)
        }
    }

    /// Peak memory of `matrix` over the first 10, 100 and 1,000 (`--memory-traces`) drives of
    /// one fleet of shorter drives, in the runs format and as the text table, on two workers.
    static func memoryByTraceCount(_ tracesim: String, format: String, replays: Int, _ bench: Bench) throws {
        let options = bench.options
        let counts = options.memoryTraces.sorted()
        guard let largest = counts.last else { return }
        let fleet = try fleetFiles(bench, drives: largest, minutes: options.memoryMinutes)
        for outputFormat in [format, "text"] {
            for count in counts {
                let paths = Array(fleet.paths.prefix(count))
                guard
                    let outcome = try matrix(
                        tracesim, paths, format: outputFormat, jobs: 2, output: "/dev/null", bench)
                else { return }
                let fixes = count * options.memoryMinutes * 60
                bench.record(
                    BenchmarkRow(
                        suite: "fleet", name: "matrix \(outputFormat), \(Bench.grouped(count)) traces",
                        input: "\(Bench.grouped(count)) drives × \(options.memoryMinutes) min, --jobs 2",
                        unit: "replayed fixes/s", timing: Timing(seconds: [outcome.seconds]),
                        work: Double(fixes * replays),
                        figures: [
                            "seconds": outcome.seconds, "cpuSeconds": outcome.cpuSeconds,
                            "peakRSSMegabytes": megabytes(outcome.peakResidentBytes),
                            "traces": Double(count), "replaysPerTrace": Double(replays),
                        ]))
            }
        }
    }

    /// Runs the Ray command on 1 and 2 CPUs; its merged runs must be the plain run's bytes.
    static func ray(
        _ template: String, tracesim: String, fleet: (directory: String, paths: [String], bytes: Int),
        expected: String, plainSeconds: [Int: Double], input: String, work: Double, _ bench: Bench
    ) throws {
        let list = bench.options.work + "/fleet-traces.txt"
        try Data((fleet.paths.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: list))
        for cpus in [1, 2] {
            let output = bench.options.work + "/ray-runs-\(cpus).jsonl"
            try? FileManager.default.removeItem(atPath: output)
            let command = template.replacingOccurrences(of: "{tracesim}", with: tracesim)
                .replacingOccurrences(of: "{traces}", with: list)
                .replacingOccurrences(of: "{fleet}", with: fleet.directory)
                .replacingOccurrences(of: "{cpus}", with: String(cpus))
                .replacingOccurrences(of: "{output}", with: output)
            bench.progress("  ray: \(command)")
            let errors = bench.options.work + "/ray-stderr-\(cpus).txt"
            let outcome = try ChildProcess.run(
                "/bin/sh", ["-c", command], output: bench.options.work + "/ray-stdout-\(cpus).txt", errors: errors)
            guard outcome.status == 0 else {
                bench.fail("the Ray command exited with \(outcome.status) on \(cpus) CPU(s); see \(errors)")
                return
            }
            if !sameFiles(output, expected) {
                bench.fail("Ray on \(cpus) CPU(s) did not write the plain run's bytes (\(output) vs \(expected))")
            }
            bench.record(
                BenchmarkRow(
                    suite: "fleet", name: "Ray, \(cpus) CPU\(cpus == 1 ? "" : "s")", input: input,
                    unit: "replayed fixes/s", timing: Timing(seconds: [outcome.seconds]), work: work,
                    figures: [
                        "seconds": outcome.seconds, "cpuSeconds": outcome.cpuSeconds,
                        // The largest process of the run that was reaped: Ray's own daemons count too.
                        "peakRSSMegabytes": megabytes(outcome.peakResidentBytes),
                        "overheadVsPlain": outcome.seconds / (plainSeconds[cpus] ?? outcome.seconds),
                    ]))
        }
    }

    /// The run's format: JSON Lines when this tracesim writes them, else (a tracesim from
    /// before the streaming core) the matrix JSON, so the suite can measure both.
    static func runsFormat(_ tracesim: String, probe: String, _ bench: Bench) throws -> String? {
        let errors = bench.options.work + "/fleet-probe.txt"
        let outcome = try ChildProcess.run(
            tracesim, ["matrix", "--format", "jsonl", "--scenarios", "ideal", probe], output: "/dev/null",
            errors: errors)
        switch outcome.status {
        case 0: return "jsonl"
        case 64:
            bench.progress("  this tracesim has no --format jsonl: measuring --format json")
            return "json"
        default:
            bench.fail("tracesim matrix failed on \(probe) with \(outcome.status); see \(errors)")
            return nil
        }
    }

    /// One `tracesim matrix` child over `paths`; `nil` (and a failure noted) when it failed.
    static func matrix(
        _ tracesim: String, _ paths: [String], format: String, jobs: Int, output: String, _ bench: Bench
    ) throws -> ChildProcess.Outcome? {
        let errors = bench.options.work + "/fleet-matrix-stderr.txt"
        let outcome = try ChildProcess.run(
            tracesim, ["matrix", "--format", format, "--jobs", String(jobs)] + paths, output: output, errors: errors)
        bench.progress(
            "  matrix --format \(format) --jobs \(jobs), \(paths.count) traces: "
                + String(
                    format: "%.1f s (%.1f s CPU), %.0f MB peak", outcome.seconds, outcome.cpuSeconds,
                    megabytes(outcome.peakResidentBytes)))
        guard outcome.status == 0 else {
            let message = (try? String(contentsOfFile: errors, encoding: .utf8))?.split(separator: "\n").first ?? ""
            bench.fail("tracesim matrix exited with \(outcome.status) on \(paths.count) traces: \(message)")
            return nil
        }
        return outcome
    }

    /// The output must not depend on the number of workers (checked on a few drives, in bytes).
    static func sameBytesOnOneAndTwoWorkers(
        _ tracesim: String, _ paths: [String], format: String, _ bench: Bench
    ) throws {
        let outputs = try [1, 2].map { jobs in
            let output = bench.options.work + "/fleet-check-\(jobs).\(format)"
            _ = try matrix(tracesim, paths, format: format, jobs: jobs, output: output, bench)
            return output
        }
        if !sameFiles(outputs[0], outputs[1]) {
            bench.fail("tracesim matrix --format \(format) wrote different bytes on 1 and 2 workers")
        }
    }

    /// Replays per trace: one per preset, and the ideal runs they are compared with.
    static func replaysPerTrace() -> Int {
        let probe = Trace(
            fixes: FleetGenerator.drive(index: 0, minutes: 1, seed: 0),
            provenance: TraceProvenance(format: .canonicalCSV))
        let presets = Scenario.presets.filter { $0.name != "ideal" }
        return Matrix(
            traces: [Matrix.NamedTrace(name: "probe", trace: probe)], scenarios: presets.map { Matrix.Entry($0) }
        )
        .replayCount()
    }

    /// The generated fleet under the work folder, written once and then reused; its files
    /// are read once here so the timed runs find them in the page cache.
    static func fleetFiles(
        _ bench: Bench, drives: Int, minutes: Int
    ) throws -> (directory: String, paths: [String], bytes: Int) {
        let seed = bench.options.seed
        let directory = "\(bench.options.work)/fleet-v\(generatorVersion)-s\(seed)-\(drives)x\(minutes)"
        if !FileManager.default.fileExists(atPath: directory) {
            bench.progress("  writing \(drives) drives of \(minutes) min to \(directory)")
            let partial = directory + ".partial"
            try? FileManager.default.removeItem(atPath: partial)
            _ = try FleetGenerator.write(drives: drives, minutes: minutes, seed: seed, format: .csv, to: partial)
            try FileManager.default.moveItem(atPath: partial, toPath: directory)
        }
        let paths = (0..<drives).map {
            directory + "/" + FleetGenerator.fileName(index: $0, drives: drives, format: .csv)
        }
        var bytes = 0
        for path in paths { bytes += try Data(contentsOf: URL(fileURLWithPath: path)).count }
        return (directory, paths, bytes)
    }

    /// Whether two files hold the same bytes.
    static func sameFiles(_ first: String, _ second: String) -> Bool {
        guard let one = FileManager.default.contents(atPath: first),
            let other = FileManager.default.contents(atPath: second)
        else { return false }
        return one == other
    }

    static func megabytes(_ bytes: Int) -> Double { Double(bytes) / 1_048_576 }
}
