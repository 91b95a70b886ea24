import ConfigJSON
import Engine
import Fleet
import Geometry
import Reports
import Scenarios
import SimulationCore
import Traces

/// Options shared by `replay` and `matrix`.
enum ReplayArguments {
    /// `--seed`, or `nil` to keep each scenario's own seed (presets use 0).
    static func seed(_ parsed: ParsedArguments, command: String) throws(UsageError) -> UInt64? {
        guard let text = parsed.value("seed") else { return nil }
        return try NumberArgument.whole(
            text, option: "--seed", described: "a whole number from 0 to \(UInt64.max)", in: 0...UInt64.max,
            command: command)
    }

    /// The most `--jobs` accepted. Each job is a thread replaying one trace, so more jobs than
    /// cores only add memory; the largest machines a matrix runs on have a few hundred cores,
    /// and a bound keeps the matrix's window of inputs in flight (twice the jobs) far from
    /// overflowing.
    static let maximumJobs = 1_024

    /// `--jobs` of `matrix` and `tune`, or `nil` for one job per core.
    static func jobs(_ parsed: ParsedArguments, command: String) throws(UsageError) -> Int? {
        guard let text = parsed.value("jobs") else { return nil }
        return Int(
            try NumberArgument.whole(
                text, option: "--jobs", described: "a whole number from 1 to \(maximumJobs)",
                in: 1...UInt64(maximumJobs), command: command))
    }

    /// A scenario to run, the geofences it brings (`nil`: use `--fences`), and what a sharded
    /// run's identity records of it.
    typealias Chosen = (scenario: Scenario, fences: [Geofence]?, identity: RunIdentity.ScenarioEntry)

    /// Preset names, scenario files (ending in `.json`) and `all` (every preset but the ideal
    /// reference, in their order), comma-separated: `all,night-shift.json` runs every preset and
    /// the file. A file's geofence path is relative to the file.
    /// - Throws: `CommandFailure` for a missing or invalid file, `UsageError` for an unknown
    ///   preset, or for a list with `all` that names `all` again, a preset `all` runs, or a file
    ///   whose scenario has such a preset's name (two rows of one name). Scenario files that
    ///   `namingFile` lists (an expectations file) resolve against its folder.
    static func scenarios(_ list: String, command: String, console: Console, namedBy namingFile: String? = nil)
        throws -> [Chosen]
    {
        let names = list.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let chosen = try names.flatMap { name throws in
            guard name == "all" else {
                return [try scenario(name, command: command, console: console, namedBy: namingFile)]
            }
            return allPresets
        }
        if names.contains("all") { try checkMixWithAll(names, chosen, command: command) }
        return chosen
    }

    /// What `all` runs: every preset but the ideal reference.
    private static var allPresets: [Chosen] {
        Scenario.presets.filter { $0.name != "ideal" }.map { ($0, nil, .init(name: $0.name)) }
    }

    /// Refuses a list that names `all` twice, or beside `all` a preset it runs or a scenario
    /// file of such a preset's name: either would print two rows of one name.
    private static func checkMixWithAll(_ names: [String], _ chosen: [Chosen], command: String) throws(UsageError) {
        guard names.count(where: { $0 == "all" }) == 1 else {
            throw UsageError("--scenarios names 'all' more than once", command: command)
        }
        let inAll = Set(allPresets.map(\.scenario.name))
        for name in names where name != "all" && inAll.contains(name) {
            throw UsageError(
                "--scenarios: '\(MessageText.value(name))' is already one of the presets 'all' runs", command: command)
        }
        for entry in chosen where entry.identity.file != nil && inAll.contains(entry.scenario.name) {
            throw UsageError(
                "--scenarios: the scenario file \(MessageText.path(entry.identity.file?.path ?? "")) is named "
                    + "'\(MessageText.value(entry.scenario.name))', a preset 'all' runs: rename it in the file",
                command: command)
        }
    }

    /// One preset name or scenario file of a `--scenarios` list.
    private static func scenario(_ name: String, command: String, console: Console, namedBy namingFile: String?)
        throws -> Chosen
    {
        if name.hasSuffix(".json") {
            let (parsed, file) = try ConfigFiles.load(
                name, namedBy: namingFile, console, fingerprinted(ScenarioFile.parse))
            var entry = RunIdentity.ScenarioEntry(name: parsed.scenario.name, file: file)
            guard let relative = parsed.geofences else { return (parsed.scenario, nil, entry) }
            let scenarioPath = namingFile.map { ConfigFiles.resolve(name, namedBy: $0) } ?? name
            let (fences, input) = try ConfigFiles.load(
                relative, namedBy: scenarioPath, console, fingerprinted(GeofenceLoader.load))
            entry.fences = input
            return (parsed.scenario, fences, entry)
        }
        guard let scenario = Scenario.preset(named: name) else {
            // `all` is suggested only for a near miss of it, not as the nearest of far guesses.
            let names = Scenario.presets.map(\.name)
            let nearest =
                editDistance("all", name) <= 1
                ? "all" : names.min { editDistance($0, name) < editDistance($1, name) } ?? ""
            throw UsageError(
                "unknown scenario '\(MessageText.value(name))' (did you mean '\(nearest)'? see 'tracesim scenarios', or give a .json file)",
                command: command)
        }
        return (scenario, nil, .init(name: scenario.name))
    }

    /// The matrix's entry for a scenario chosen on the command line.
    static func entry(_ chosen: Chosen) -> Matrix.Entry {
        Matrix.Entry(chosen.scenario, fences: chosen.fences, identity: chosen.identity)
    }

    /// Runs `matrix` (or its `shard`) with the engine under test, and a progress bar on
    /// standard error when it is a terminal.
    /// - Throws: `CommandFailure`: exit 65 naming the geofence file for an invalid fence, exit 70
    ///   naming the engine when the engine under test failed.
    static func run(
        _ matrix: Matrix, shard: Shard? = nil, jobs: Int? = nil, _ parsed: ParsedArguments, console: Console
    )
        throws(CommandFailure) -> MatrixResult
    {
        switch try runUnlessEngineFails(matrix, shard: shard, jobs: jobs, parsed, console: console) {
        case .success(let result): return result
        case .failure(let failure): throw self.failure(.engine(failure), engine: parsed.engine, parsed)
        }
    }

    /// `run`, with a failure of the engine under test returned rather than thrown, for `check`
    /// to report it in its JUnit and Markdown files before it exits.
    /// - Throws: `CommandFailure` (65) naming the geofence file for an invalid fence.
    static func runUnlessEngineFails(
        _ matrix: Matrix, shard: Shard? = nil, jobs: Int? = nil, _ parsed: ParsedArguments, console: Console
    ) throws(CommandFailure) -> Result<MatrixResult, EngineFailure> {
        var matrix = matrix
        matrix.engine = parsed.engine
        let progress = Progress(total: matrix.replayCount(shard: shard), console: console)
        defer { progress.finish() }
        do {
            return .success(try matrix.run(shard: shard, jobs: jobs) { done, _ in progress.update(done) })
        } catch {
            guard case .engine(let failure) = error else { throw self.failure(error, engine: matrix.engine, parsed) }
            return .failure(failure)
        }
    }

    /// What a failed run makes the command exit with: 65 naming the geofence file for an invalid
    /// fence, 70 naming the engine when the engine under test crashed, hung or broke the
    /// protocol (the same in `replay`, `matrix`, `check` and `tune`).
    static func failure(_ error: RunFailure, engine: EngineUnderTest, _ parsed: ParsedArguments) -> CommandFailure {
        switch error {
        case .geometry(let error):
            return CommandFailure(.dataError, "error: \(parsed.value("fences") ?? "geofences"): \(error)")
        case .engine(let failure):
            return CommandFailure(.engineFailed, "error: engine \(engine.name): \(failure.message)")
        }
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
