import ConfigJSON
import Dispatch
import Engine
import Geometry
import Scenarios
import SimulationCore
import Synchronization
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
                    text (default): the degradation table, a row per scenario with
                    metrics averaged over traces; markdown: the same table in Markdown;
                    csv: a row per trace and scenario with every numeric metric;
                    html: a self-contained page with the table as a heatmap;
                    json: {"schemaVersion", "seed", "runs": [...]} with one object per
                    trace and scenario, traces in the order given, scenarios in order.
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
        ] + ImportArguments.declared,
        discussion: """
            Runs go to every core unless --jobs says otherwise; the output does not depend on how many. A progress bar appears on
            standard error when it is a terminal (not under --quiet).
            """,
        exitStatus: """
            0 ran; 64 usage error; 65 a file's content is invalid; 66 a file is missing or unreadable.
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
        var traces: [(path: String, trace: Trace)] = []
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
                    traces.append((piece.name, piece.trace))
                    sources.append(path)
                }
            }
        }
        var only: Set<Int>?
        var identity: RunIdentity?
        if shard != nil {
            var inputs: [RunIdentity.Input] = []
            var hashed: [String: (hash: ContentHash, bytes: Int)] = [:]
            for (index, (path, _)) in traces.enumerated() {
                do {
                    let (hash, bytes) = try hashed[sources[index]] ?? ContentHash.ofFile(atPath: sources[index])
                    hashed[sources[index]] = (hash, bytes)
                    inputs.append(RunIdentity.Input(path: path, bytes: bytes, hash: hash))
                } catch {
                    throw CommandFailure(.noInput, "error: \(error)")
                }
            }
            identity = RunIdentity(
                version: TraceSimCommandLine.version, traces: inputs, scenarios: scenarios.map(\.identity), seed: seed,
                fences: fencesInput, date: parsed.value("date"), inputFormat: parsed.value("input-format"),
                tracks: options.trackOrder == .time ? nil : options.trackOrder.rawValue,
                assumeRate: options.assumedRate, strict: options.strict)
        }
        if let shard {
            // Positions K-1, K-1+N, K-1+2N...: every shard gets a spread of traces and scenarios.
            only = Set(stride(from: shard.index - 1, to: traces.count * scenarios.count, by: shard.count))
        }
        let cells: [Cell]
        do {
            cells = try runAll(
                traces.map(\.trace), scenarios: scenarios, seed: seed, fences: fences, console: console, only: only,
                width: jobs)
        } catch {
            throw CommandFailure(.dataError, "error: \(parsed.value("fences") ?? "geofences"): \(error)")
        }
        let metrics = cells.map { Metrics($0.run, ideal: $0.ideal) }
        if format == "json" {
            let objects = cells.indices.map {
                RunReport.json(trace: traces[cells[$0].trace].path, run: cells[$0].run, metrics: metrics[$0])
            }
            var members: [(String, JSONText)] = [("schemaVersion", .integer(RunReport.schemaVersion))]
            // A part opens with what identifies the whole run, for 'tracesim merge' to compare.
            if let identity { members.append(("identity", identity.json)) }
            members.append(("seed", seedJSON(seed)))
            if let shard {
                members.append(
                    (
                        "shard",
                        .object([
                            ("index", .integer(shard.index)), ("count", .integer(shard.count)),
                            ("runs", .integer(traces.count * scenarios.count)),
                            ("positions", .array(cells.map { .integer($0.position) })),
                        ])
                    ))
            }
            members.append(("runs", .array(objects)))
            console.print(JSONText.object(members).rendered)
        } else if format == "csv" {
            console.print(
                RunReport.csv(
                    cells.indices.map {
                        (traces[cells[$0].trace].path, cells[$0].run.scenario, cells[$0].run.seed, metrics[$0])
                    }))
        } else if format == "markdown" || format == "html" {
            let rows = scenarios.indices.map { index in
                (
                    scenarios[index].scenario.name,
                    cells.indices.filter { cells[$0].scenario == index }.map { metrics[$0] }
                )
            }
            console.print(
                format == "html"
                    ? HTMLReport.matrix(rows: rows, traceCount: traces.count) : RunReport.markdownTable(rows))
        } else if !traces.isEmpty {
            let seeds = Set(scenarios.map { seed ?? $0.scenario.seed })
            let seedLabel = seeds.count == 1 ? "seed \(seeds.first ?? 0)" : "seeds per scenario"
            let rows = scenarios.indices.map { index in
                (
                    scenarios[index].scenario.name,
                    cells.indices.filter { cells[$0].scenario == index }.map { metrics[$0] }
                )
            }
            console.print(
                "\(traces.count) trace\(traces.count == 1 ? "" : "s") × \(scenarios.count) scenario\(scenarios.count == 1 ? "" : "s"), \(seedLabel); ratios against the ideal run"
            )
            console.print(RunReport.table(rows))
        }
        return exitCode
    }

    /// The matrix JSON's `"seed"`: merge renders it from a part's identity the same way.
    static func seedJSON(_ seed: UInt64?) -> JSONText { seed.map { .integer(Int(truncatingIfNeeded: $0)) } ?? .null }

    /// One scenario on one trace, with the ideal run it is compared with.
    struct Cell {
        /// `trace × scenarios.count + scenario`: the order output follows.
        var position: Int
        var trace: Int
        var scenario: Int
        var run: ScenarioRun
        var ideal: ScenarioRun
    }

    /// Runs `scenarios` on every trace in parallel, each with its ideal run, and returns the
    /// cells in position order. `only` restricts the work to some positions (a shard); `width`
    /// caps the replays running at once (`nil`: one per core).
    static func runAll(
        _ traces: [Trace], scenarios: [ReplayArguments.Chosen], seed: UInt64?, fences: [Geofence], console: Console,
        only: Set<Int>? = nil, width: Int? = nil
    ) throws(GeometryError) -> [Cell] {
        guard let idealPreset = Scenario.preset(named: "ideal") else { return [] }
        // Every scenario is compared with an ideal run of the same seed and geofences; scenarios
        // sharing both share that run.
        var runs: [(scenario: Scenario, fences: [Geofence])] = []
        var idealOf: [Int] = []
        var scenarioRun: [Int] = []
        var idealKeys: [String: Int] = [:]
        for (index, chosen) in scenarios.enumerated() {
            var scenario = chosen.scenario
            if let seed { scenario.seed = seed }
            let key = "\(scenario.seed)/" + (chosen.fences == nil ? "shared" : String(index))
            if let existing = idealKeys[key] {
                idealOf.append(existing)
            } else {
                var ideal = idealPreset
                ideal.seed = scenario.seed
                runs.append((ideal, chosen.fences ?? fences))
                idealKeys[key] = runs.count - 1
                idealOf.append(runs.count - 1)
            }
            runs.append((scenario, chosen.fences ?? fences))
            scenarioRun.append(runs.count - 1)
        }
        let planned = runs
        let positions = (0..<(traces.count * scenarios.count)).filter { only?.contains($0) ?? true }
        var needed = Set<Int>()
        for position in positions {
            let (trace, scenario) = position.quotientAndRemainder(dividingBy: scenarios.count)
            needed.insert(trace * planned.count + scenarioRun[scenario])
            needed.insert(trace * planned.count + idealOf[scenario])
        }
        let jobs = needed.sorted()
        let done = Atomic<Int>(0)
        let progress = Progress(total: jobs.count, console: console)
        let outcomes = ParallelLoop.map(iterations: jobs.count, width: width) { job in
            let (trace, run) = jobs[job].quotientAndRemainder(dividingBy: planned.count)
            let result = Result { () throws(GeometryError) in
                try ScenarioRunner.run(traces[trace], planned[run].scenario, fences: planned[run].fences)
            }
            progress.update(done.add(1, ordering: .relaxed).newValue)
            return result
        }
        progress.finish()
        let finished = Dictionary(uniqueKeysWithValues: zip(jobs, outcomes))
        var cells: [Cell] = []
        for position in positions {
            let (trace, scenario) = position.quotientAndRemainder(dividingBy: scenarios.count)
            guard let run = finished[trace * planned.count + scenarioRun[scenario]],
                let ideal = finished[trace * planned.count + idealOf[scenario]]
            else { continue }
            cells.append(
                Cell(position: position, trace: trace, scenario: scenario, run: try run.get(), ideal: try ideal.get()))
        }
        return cells
    }
}

/// `--shard K/N`.
struct Shard {
    /// 1-based.
    var index: Int
    var count: Int

    /// The most shards a run may be split into: `matrix --shard` and `merge` share it, so every
    /// part matrix writes is one merge reads.
    static let maximumCount = 1_000_000

    init(_ text: String, command: String) throws(UsageError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1,
            (1...count).contains(index)
        else {
            throw UsageError("--shard must be K/N with 1 <= K <= N, not '\(text)'", command: command)
        }
        guard count <= Self.maximumCount else {
            throw UsageError(
                "--shard: at most \(Self.maximumCount) shards, not \(count) ('tracesim merge' reads no more)",
                command: command)
        }
        self.index = index
        self.count = count
    }
}

/// A one-line progress bar on standard error, drawn only when it is a terminal.
final class Progress: Sendable {
    private let total: Int
    private let console: Console

    init(total: Int, console: Console) {
        self.total = total
        self.console = console
    }

    func update(_ done: Int) {
        guard console.showsProgress, total > 1 else { return }
        let width = 30
        let filled = width * done / total
        console.error(
            "\r[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
                + "] \(done)/\(total) runs")
    }

    func finish() {
        guard console.showsProgress, total > 1 else { return }
        console.error("\r" + String(repeating: " ", count: 50) + "\r")
    }
}

/// Options shared by `replay` and `matrix`.
enum ReplayArguments {
    /// `--seed`, or `nil` to keep each scenario's own seed (presets use 0).
    static func seed(_ parsed: ParsedArguments, command: String) throws(UsageError) -> UInt64? {
        guard let text = parsed.value("seed") else { return nil }
        guard let seed = UInt64(text) else {
            throw UsageError("--seed must be a whole number, not '\(text)'", command: command)
        }
        return seed
    }

    /// A scenario to run, the geofences it brings (`nil`: use `--fences`), and what a sharded
    /// run's identity records of it.
    typealias Chosen = (scenario: Scenario, fences: [Geofence]?, identity: RunIdentity.ScenarioEntry)

    /// Preset names or scenario files (ending in `.json`), comma-separated, or `all` (every
    /// preset but the ideal reference). A file's geofence path is relative to the file.
    /// - Throws: `CommandFailure` for a missing or invalid file, `UsageError` for an unknown
    ///   preset. Scenario files that `namingFile` lists (an expectations file) resolve against
    ///   its folder.
    static func scenarios(_ list: String, command: String, console: Console, namedBy namingFile: String? = nil)
        throws -> [Chosen]
    {
        if list == "all" {
            return Scenario.presets.filter { $0.name != "ideal" }.map { ($0, nil, .init(name: $0.name)) }
        }
        var chosen: [Chosen] = []
        for name in list.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            if name.hasSuffix(".json") {
                let (parsed, file) = try ConfigFiles.load(
                    name, namedBy: namingFile, console, fingerprinted(ScenarioFile.parse))
                var entry = RunIdentity.ScenarioEntry(name: parsed.scenario.name, file: file)
                guard let relative = parsed.geofences else {
                    chosen.append((parsed.scenario, nil, entry))
                    continue
                }
                let scenarioPath = namingFile.map { ConfigFiles.resolve(name, namedBy: $0) } ?? name
                let (fences, input) = try ConfigFiles.load(
                    relative, namedBy: scenarioPath, console, fingerprinted(GeofenceLoader.load))
                entry.fences = input
                chosen.append((parsed.scenario, fences, entry))
                continue
            }
            guard let scenario = Scenario.preset(named: name) else {
                let names = Scenario.presets.map(\.name)
                let nearest = names.min { editDistance($0, name) < editDistance($1, name) } ?? ""
                throw UsageError(
                    "unknown scenario '\(name)' (did you mean '\(nearest)'? see 'tracesim scenarios', or give a .json file)",
                    command: command)
            }
            chosen.append((scenario, nil, .init(name: scenario.name)))
        }
        return chosen
    }

    /// `parse`, also returning the size and hash of the bytes it parsed, for a run's identity.
    static func fingerprinted<Value>(_ parse: @escaping ([UInt8], String) throws(ConfigError) -> Value)
        -> ([UInt8], String) throws(ConfigError) -> (Value, RunIdentity.Input)
    {
        { (bytes, file) throws(ConfigError) in
            (try parse(bytes, file), RunIdentity.Input(path: file, bytes: bytes.count, hash: ContentHash(bytes)))
        }
    }
}
