import ConfigJSON
import Engine
import Geometry
import Reports
import Scenarios
import SimulationCore
import Traces

/// `tracesim matrix TRACE... [--scenarios all|a,b]`: every trace through every scenario,
/// compared with the ideal run: the degradation table.
enum MatrixCommand: Command {
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
                    Trace files in any format 'tracesim inspect' reads. Files with no
                    timed fix are reported and skipped. With --tracks each, a file of
                    several tracks gives one trace per track, named FILE#N.
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
            .choice(
                "format", ["text", "json", "csv", "markdown", "html"], value: "<format>",
                help: """
                    text (default): the degradation table, the ideal row and a row per
                    scenario with metrics pooled over traces (sums over sums; the formulas
                    are printed under it); markdown: the same table in Markdown;
                    csv: a row per trace and scenario with every numeric metric;
                    html: a self-contained page with the table as a heatmap;
                    json: {"schemaVersion", "seed", "runs": [...]} with one object per
                    trace and scenario, traces in the order given, scenarios in order.
                    """),
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
                    trace × scenario runs, as a JSON part that opens with the run's
                    identity (inputs with their sizes and hashes; 'tracesim help merge');
                    'tracesim merge' joins the parts into exactly what one unsharded run
                    prints. Needs --format json and trace files that can be read twice.
                    """),
            .init(name: "jobs", value: "<n>", help: "Run at most n replays at a time (default: one per core)."),
        ] + EngineArguments.declared + ImportArguments.declared,
        discussion: """
            Runs go to every core unless --jobs says otherwise; the output does not depend on how
            many. A progress bar appears on standard error when it is a terminal (not under
            --quiet).
            """,
        exitStatus: """
            0 ran; 64 usage error; 65 a file's content is invalid; 66 a file is missing or unreadable;
            74 an output error.
            """)

    static func run(_ parsed: ParsedArguments, console: Console) throws -> ExitCode {
        guard !parsed.positionals.isEmpty else {
            throw UsageError("matrix needs at least one trace file", command: name)
        }
        let format = try parsed.choice("format")
        let shard = try parsed.value("shard").map { (text) throws(UsageError) in try Shard(text, command: name) }
        if shard != nil && format != "json" {
            throw UsageError("--shard writes a JSON part for 'tracesim merge'; add --format json", command: name)
        }
        let perTrace = parsed.flag("per-trace")
        if perTrace && (format == "json" || format == "csv") {
            throw UsageError(
                "--per-trace is for text, markdown and html; \(format) already has one entry per run", command: name)
        }
        try StandardInputArguments.checkReadOnce(parsed.positionals, command: name)
        // A part's identity hashes each trace file again, and every part must read the same
        // bytes: standard input is neither readable twice nor the same for every part.
        if shard != nil && parsed.positionals.contains(TraceFile.standardInputPath) {
            throw UsageError(
                "--shard needs trace files every part can read: save standard input ('-') to a file first",
                command: name)
        }
        let scenarios = try ReplayArguments.scenarios(
            parsed.value("scenarios") ?? "all", command: name, console: console)
        let seed = try ReplayArguments.seed(parsed, command: name)
        let jobs = try parsed.value("jobs").map { (text) throws(UsageError) -> Int in
            guard let jobs = Int(text), jobs >= 1 else {
                throw UsageError("--jobs must be a whole number of at least 1, not '\(text)'", command: name)
            }
            return jobs
        }
        let options = try ImportArguments.options(from: parsed, command: name)
        let (fences, fencesInput): ([Geofence], RunIdentity.Input?) = try ConfigFiles.load(
            parsed.value("fences"), console, ReplayArguments.fingerprinted(GeofenceLoader.load), absent: ([], nil))
        var exitCode = ExitCode.success
        var traces: [Matrix.NamedTrace] = []
        // The file each trace came from: under --tracks each, a file gives a row per track.
        var sources: [String] = []
        for path in parsed.positionals {
            // A file that fails is reported and skipped; the first failure's code is kept.
            switch Result(catching: { () throws(CommandFailure) in
                try TraceLoading.loadReplayable(path, options: options, console: console)
            }) {
            case .failure(let failure):
                console.report(failure)
                exitCode = exitCode == .success ? failure.exitCode : exitCode
            case .success(let trace):
                for piece in TrackArguments.pieces(of: trace, path: path, options: options, console: console) {
                    traces.append(Matrix.NamedTrace(name: piece.name, trace: piece.trace))
                    sources.append(path)
                }
            }
        }
        var matrix = Matrix(traces: traces, scenarios: scenarios.map(ReplayArguments.entry), seed: seed, fences: fences)
        if shard != nil {
            var inputs: [RunIdentity.Input] = []
            var hashed: [String: (hash: ContentHash, bytes: Int)] = [:]
            for (index, trace) in traces.enumerated() {
                do {
                    let (hash, bytes) = try hashed[sources[index]] ?? ContentHash.ofFile(atPath: sources[index])
                    hashed[sources[index]] = (hash, bytes)
                    inputs.append(RunIdentity.Input(path: trace.name, bytes: bytes, hash: hash))
                } catch {
                    throw CommandFailure(.noInput, "error: \(error)")
                }
            }
            matrix.identity = RunIdentity(
                version: TraceSimCommandLine.version, traces: inputs, scenarios: scenarios.map(\.identity), seed: seed,
                fences: fencesInput, date: parsed.value("date"), inputFormat: parsed.value("input-format"),
                tracks: options.trackOrder == .time ? nil : options.trackOrder.rawValue,
                assumeRate: options.assumedRate, strict: options.strict)
        }
        let result = try ReplayArguments.run(matrix, shard: shard, jobs: jobs, parsed, console: console)
        switch format {
        case "json": console.print(MatrixReport.json(result))
        case "csv": console.print(MatrixReport.csv(result))
        case "markdown": console.print(MatrixReport.markdown(result, perTrace: perTrace))
        case "html": console.print(MatrixReport.html(result, perTrace: perTrace))
        default: if !traces.isEmpty { console.print(MatrixReport.text(result, perTrace: perTrace)) }
        }
        return exitCode
    }
}
