import ConfigJSON
import Engine
import Fleet
import Geometry
import Reports
import Scenarios
import SimulationCore
import Traces

/// `tracesim matrix TRACE... [--scenarios all|a,b]`: every trace through every scenario,
/// compared with the ideal run: the degradation table.
enum MatrixCommand: ReportingCommand {
    /// The formats `--format` takes.
    static let formats = ReportFormat.Option(
        [.text, .json, .jsonl, .csv, .markdown, .html], value: "<format>",
        help: """
            text (default): the degradation table, the ideal row and a row per
            scenario with metrics pooled over traces (sums over sums; the formulas
            are printed under it); markdown: the same table in Markdown;
            csv: a row per trace and scenario with every numeric metric;
            html: a self-contained page with the table as a heatmap;
            json: {"schemaVersion", "seed", "runs": [...]} with one object per
            trace and scenario, traces in the order given, scenarios in order;
            jsonl: JSON Lines, a header line ({"kind": "tracesim-runs",
            "schemaVersion", "identity", "seed"}), one run per line in the
            json's run shape, written as soon as the order allows, and a closing
            record ({"kind": "tracesim-runs-end", "inputs", "read", "traces",
            "skipped", "failed"}) once every input is accounted for ('tracesim
            summarize' prints the tables from it; DuckDB or pandas read it).
            """)

    static let declaration = CommandDeclaration(
        name: "matrix",
        overview: """
            Replay every trace through every scenario and compare each run with the ideal
            run of the same trace: what each permission level costs.
            """,
        positionals: [
            .init(
                label: "<trace>",
                help: """
                    Trace files in any format 'tracesim inspect' reads. A file that holds
                    no record at all (a header alone) is noted and skipped; one whose
                    records cannot be read or give no timed fix (NMEA without --date) is
                    reported, the others still run, and matrix exits 65 at the end.
                    JSON Lines' closing record lists both, with their reasons. With
                    --tracks each, a file of several tracks gives one trace per track,
                    named FILE#N.
                    \(TraceInputs.directoryHelpLines)
                    \(StandardInputArguments.helpLines)
                    """, isRepeated: true)
        ],
        options: [
            .init(
                name: "scenarios", value: "<list>",
                help: """
                    all (default), or comma-separated preset names ('tracesim scenarios')
                    and scenario files (*.json, format in the README).
                    """, usageValue: "all|<name>,<name>..."),
            .init(name: "fences", value: "<file>", help: "Geofences for every run (GeoJSON or TraceSim JSON)."),
            .init(
                name: "seed", value: "<n>",
                help: """
                    Seeds every run's phone (default: each scenario's own seed; presets
                    use 0). The matrix JSON's "seed" is null without it.
                    """),
            formats.declared,
            .flag(
                "per-trace",
                help: """
                    After the pooled table (text, markdown, html), a table per trace with
                    that trace's runs alone.
                    """),
            .init(
                name: "shard", value: "<K/N>",
                help: """
                    Run only the K-th of N (at most \(Shard.maximumCount)) deterministic slices of the
                    input files (file i, from 0 in the order given, is in shard i mod N + 1),
                    opening only those, as a part that opens with the run's identity (every
                    input in order, with the size and hash of those this part read; 'tracesim
                    help merge'); 'tracesim merge' joins the parts into exactly what one
                    unsharded run prints. Needs --format json or jsonl, and trace files
                    rather than standard input.
                    """),
            .init(
                name: "jobs", value: "<n>",
                help: """
                    Run at most n replays at a time, 1 to 1024 (default: one per core). Traces are read
                    one after another and let go once written, so memory holds a few traces
                    per job, however many traces there are.
                    """),
            NoiseArguments.declared,
        ] + MatrixBandArguments.declared + TraceInputs.declared + EngineArguments.declared + ImportArguments.declared,
        discussion: """
            Runs go to every core unless --jobs says otherwise; the output does not depend on how
            many. Traces are read one after another and let go once their runs are written, so a
            fleet of any size runs in the memory of a few traces; JSON and JSON Lines are written
            trace by trace. A progress bar appears on standard error when it is a terminal (not
            under --quiet).

            A fleet on several machines:
              tracesim matrix fleet/ --format jsonl --shard 1/4 > part-1.jsonl   (... 4/4)
              tracesim merge part-*.jsonl > runs.jsonl
              tracesim summarize runs.jsonl --format markdown
            """,
        exitStatus: """
            0 ran (inputs with no record skipped); 64 usage error; 65 a file's content is invalid
            or gave no timed fix; 66 a file is missing or unreadable, or no input gave a trace
            (unless a --shard part); 70 the engine under test
            crashed, hung or broke the protocol; 74 an output error. 65 and 66 come at the end,
            once the other inputs have run.
            """)

    static func run(_ parsed: ParsedArguments, console: Console) throws -> ExitCode {
        guard !parsed.positionals.isEmpty || !parsed.values("traces-from").isEmpty else {
            throw UsageError("matrix needs at least one trace file, directory or --traces-from list", command: name)
        }
        let format = try formats.parse(parsed)
        let shard = try parsed.value("shard").map { (text) throws(UsageError) in try Shard(text, command: name) }
        if shard != nil && format != .json && format != .jsonl {
            throw UsageError(
                "--shard writes a part for 'tracesim merge'; add --format jsonl (or json)", command: name)
        }
        let perTrace = parsed.flag("per-trace")
        if perTrace && (format == .json || format == .jsonl || format == .csv) {
            throw UsageError(
                "--per-trace is for text, markdown and html; \(format) already has one entry per run", command: name)
        }
        let bands = try MatrixBandArguments.parse(
            parsed, format: format, sharded: shard != nil, perTrace: perTrace, command: name)
        let inputs = try TraceInputs.expand(parsed.positionals, parsed, command: name, console: console)
        guard !inputs.isEmpty else {
            throw CommandFailure(.noInput, "error: matrix: no trace among the inputs (every file was skipped)")
        }
        // A part's identity fingerprints each trace file, and every part must read the same
        // bytes: standard input is neither readable twice nor the same for every part.
        if shard != nil && inputs.contains(TraceFile.standardInputPath) {
            throw UsageError(
                "--shard needs trace files every part can read: save standard input ('-') to a file first",
                command: name)
        }
        let scenarios = try ReplayArguments.scenarios(
            parsed.value("scenarios") ?? "all", command: name, console: console)
        let seed = try ReplayArguments.seed(parsed, command: name)
        let noise = try NoiseArguments.noise(parsed, command: name)
        let jobs = try ReplayArguments.jobs(parsed, command: name)
        let options = try ImportArguments.options(from: parsed, command: name)
        let (fences, fencesInput): ([Geofence], RunIdentity.Input?) = try ConfigFiles.load(
            parsed.value("fences"), console, ReplayArguments.fingerprinted(GeofenceLoader.load), absent: ([], nil))
        var matrix = Matrix(traces: [], scenarios: scenarios.map(ReplayArguments.entry), seed: seed, fences: fences)
        matrix.engine = parsed.engine
        let banded = try bands?.expand(matrix, command: name)
        if let banded { matrix = banded.matrix }
        let held = inputs.indices.filter { shard?.holds($0) ?? true }
        // Bands collect table rows whatever the format, and print the banded report at the end.
        let output = MatrixOutput(
            format: banded == nil ? format : .text, scenarios: matrix.scenarios.map(\.scenario.name), console: console)
        if format == .jsonl || shard != nil {
            let identity = RunIdentity(
                version: TraceSimCommandLine.version, traces: fingerprints(inputs, held: held, jobs: jobs),
                scenarios: scenarios.map(\.identity), seed: seed, fences: fencesInput, date: parsed.value("date"),
                inputFormat: parsed.value("input-format"),
                tracks: options.trackOrder == .time ? nil : options.trackOrder.rawValue,
                assumeRate: options.assumedRate, strict: options.strict, noise: parsed.values("noise"))
            let header = MatrixReport.jsonLinesHeader(identity: identity, seed: seed, shard: shard)
            // Refused before any replay: merge and summarize would refuse the header afterwards.
            if header.utf8.count > RunLines.maximumHeaderBytes {
                throw UsageError(
                    "\(inputs.count) inputs make a header of \(header.utf8.count >> 20) MiB, over the "
                        + "\(RunLines.maximumHeaderBytes >> 20) MiB 'tracesim merge' and 'summarize' read: split them "
                        + "into several matrices", command: name)
            }
            output.begin(identity: identity, seed: seed, shard: shard)
        } else {
            output.begin(identity: nil, seed: seed, shard: nil)
        }
        let progress = Progress(total: held.count * matrix.replaysPerTrace, console: console)
        defer { progress.finish() }
        var exitCode = ExitCode.success
        do throws(RunFailure) {
            try matrix.stream(
                inputs: held.count, jobs: jobs,
                // Noise before pairing, so each scenario and its ideal run replay the same noisy trace.
                load: { index in
                    output.load(index, path: inputs[held[index]], options: options).map {
                        Matrix.NamedTrace(name: $0.name, trace: NoiseArguments.apply(noise, to: $0.trace, seed: seed))
                    }
                },
                progress: { done, _ in progress.update(done) },
                render: { cell, trace in output.render(cell, trace: trace) }
            ) { input in
                // Messages start on a line of their own, not after the progress bar.
                if output.hasMessages(input.input) { progress.finish() }
                let index = held[input.input]
                if let failure = output.emit(input, identityInput: index, path: inputs[index]), exitCode == .success {
                    exitCode = failure
                }
            }
        } catch {
            throw ReplayArguments.failure(error, engine: matrix.engine, parsed)
        }
        if let bands, let banded {
            if output.traceCount > 0 {
                console.print(bands.report(output.collectedTable, plan: banded, format: format, seed: seed))
            }
        } else {
            output.end(perTrace: perTrace, isPart: shard != nil)
        }
        // A whole run of nothing is not a result, as a walk that finds no file is not; a part
        // whose inputs were all skipped is, for the merge of every part may hold traces.
        if shard == nil, exitCode == .success, output.traceCount == 0 {
            throw CommandFailure(
                .noInput, "error: matrix: no trace among the inputs (every input held no records and was skipped)")
        }
        return exitCode
    }

    /// Every input as the identity lists it, with the size and hash of the ones `held`; an
    /// input that cannot be fingerprinted (standard input, a missing file) is listed by path
    /// alone, and its loading reports why.
    private static func fingerprints(_ inputs: [String], held: [Int], jobs: Int?) -> [RunIdentity.Input] {
        let hashes = ParallelLoop.map(iterations: held.count, width: jobs) { index -> (ContentHash, Int)? in
            let path = inputs[held[index]]
            guard path != TraceFile.standardInputPath else { return nil }
            return try? ContentHash.ofFile(atPath: path)
        }
        var listed = inputs.map { RunIdentity.Input(path: $0) }
        for (index, hash) in zip(held, hashes) {
            listed[index].bytes = hash?.1
            listed[index].hash = hash?.0
        }
        return listed
    }
}
