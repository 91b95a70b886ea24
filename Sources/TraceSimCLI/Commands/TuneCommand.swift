import Engine
import Fleet
import Foundation
import Geometry
import Reports
import Scenarios
import SimulationCore
import Traces

/// `tracesim tune TRACE... [--scenario S] [--sweep name=...] [--objective M[:min|max]]
/// [--require "M>=X"] [--truth TRACE]`: rows of (scenario, swept engine settings) measured
/// against a fixed reference, the Pareto front over the objectives among the rows meeting the
/// constraints, and the chosen row as a scenario file.
enum TuneCommand: ReportingCommand {
    /// The most rows one run may have.
    static let maximumRows = 10_000

    /// The formats `--format` takes.
    static let formats = ReportFormat.Option(
        [.text, .json, .csv, .html],
        help: """
            text (default): the table, what the front optimises, the chosen row
            and its scenario file; json: one object (Documentation/TraceSim.docc/TuningReference.md);
            csv: a line per row with every metric; html: a page with a Pareto plot
            of the first two objectives and the table.
            """)

    static let declaration = CommandDeclaration(
        name: "tune",
        overview: """
            Sweep engine settings over scenarios and traces, measure every row against a fixed
            reference, and show the Pareto front of the objectives among the rows that meet the
            constraints, with the chosen setting as a scenario file.
            """,
        positionals: [
            .init(
                label: "<trace>",
                help: """
                    Trace files in any format 'tracesim inspect' reads, pooled per row
                    as the matrix table pools them. As in matrix, a file that holds no
                    record at all (a header alone) is noted and skipped; one that cannot
                    be read or gives no timed fix is reported, the others still run, and
                    tune exits with its status at the end.
                    \(TraceInputs.directoryHelpLines)
                    \(StandardInputArguments.helpLines)
                    """, isRepeated: true)
        ],
        options: [
            .init(
                name: "scenario", value: "<name|file.json>",
                help: """
                    A preset ('tracesim scenarios') or scenario file whose phone,
                    permissions and engine the swept values are applied on; repeatable
                    (default: ideal). Rows: every scenario × every combination.
                    """, isRepeatable: true),
            .init(
                name: "sweep", value: "<spec>",
                help: """
                    A setting and its values, repeatable (combinations are crossed):
                    name=from:to:step for numbers, name=v1,v2,... for any setting.
                    Names are the scenario file's engine keys:
                    \(parameterHelp)
                    With --engine-command, or in a program built on TraceSim with an
                    engine of its own, the names are the settings that engine declares
                    (Documentation/TraceSim.docc/Tuning.md, "Tuning your own engine").
                    """, usageValue: "<name>=<from>:<to>:<step>|<name>=<v1>,<v2>", isRepeatable: true),
            .init(
                name: "objective", value: "<metric[:min|max]>",
                help: """
                    A metric to optimise, repeatable; the front is over all of them and
                    the chosen row is best on the first. Default: recordedFixes:max and
                    gpsOnSeconds:min (positionErrorP95Meters:min instead of gpsOnSeconds
                    with --truth or --noise). Metrics (run JSON keys), default direction,
                    pooling:
                    \(metricHelp)
                    """, isRepeatable: true),
            .init(
                name: "require", value: "<metric op number>",
                help: """
                    A constraint every front row meets, repeatable: op is >=, <=, > or <,
                    for example "distanceRatio>=0.95". A row without the metric fails it.
                    """, isRepeatable: true),
            .init(
                name: "truth", value: "<trace>",
                help: """
                    A reference recording of the same trip (for example the SPAN log of
                    the u-blox drive): positionError* are the distances of accepted fixes
                    from it at their instants, and distanceRatio is odometer ÷ its path
                    sampled at 1 s. Every trace must share time and place with it (exit
                    65 otherwise). Without it the reference is the ideal preset with the
                    default engine settings, run on each trace.
                    """),
            .init(name: "fences", value: "<file>", help: "Geofences for every run (GeoJSON or TraceSim JSON)."),
            formats.declared,
            .init(
                name: "write-scenario", value: "<file>",
                help: """
                    Also write the chosen row as a scenario file ('tracesim replay
                    --scenario FILE'); an existing file is never replaced.
                    """),
            .init(
                name: "jobs", value: "<n>",
                help: """
                    Run at most n replays at a time, 1 to 1024 (default: one per core); the output does
                    not depend on it. Traces are read a few at a time and let go once measured.
                    """),
            NoiseArguments.declared,
            .init(name: "seed", value: "<n>", help: "Seeds --noise (default 0); the scenarios keep their own seeds."),
        ] + TraceInputs.declared + EngineArguments.declared + ImportArguments.declared,
        discussion: """
            Every row is measured against the same reference on each trace: the ideal preset
            (Always + Precise) with the default engine settings, as 'matrix' uses; never the swept
            settings. Documentation/TraceSim.docc/Tuning.md has the details and an example.
            """,
        exitStatus: """
            0 ran; 1 no row meets every --require constraint, so --write-scenario wrote nothing
            (the table is still printed); 64 usage error; 65 a file's content is invalid or the
            truth does not overlap a trace; 66 a file is missing or unreadable, or no input gave a
            trace; 70 the engine under test crashed, hung or broke the protocol; 73 the scenario
            file exists or cannot be written.
            """)

    /// Each parameter, its values and what it does, for `--help`.
    static var parameterHelp: String {
        Tuning.parameters.map { "  \($0.name): \(Tuning.Sweep.describe($0)); \($0.summary)" }
            .joined(separator: "\n")
    }

    /// Each metric, its default direction and pooling, for `--help`.
    static var metricHelp: String {
        Tuning.Metric.allCases.map { "  \($0.rawValue): \($0.defaultDirection.rawValue); \($0.pooling)" }
            .joined(separator: "\n")
    }

    static func run(_ parsed: ParsedArguments, console: Console) throws -> ExitCode {
        guard !parsed.positionals.isEmpty || !parsed.values("traces-from").isEmpty else {
            throw UsageError("tune needs at least one trace file, directory or --traces-from list", command: name)
        }
        let format = try formats.parse(parsed)
        let truthPath = parsed.value("truth")
        let noise = try NoiseArguments.noise(parsed, command: name)
        let seed = try ReplayArguments.seed(parsed, command: name)
        // With noise and no truth, each clean trace is the truth of its noisy copy.
        let hasTruth = truthPath != nil || noise != nil
        let sweeps = try TuneArguments.sweeps(
            parsed.values("sweep"), parameters: try TuneArguments.parameters(parsed.engine), command: name)
        let objectives = try TuneArguments.objectives(
            parsed.values("objective"), hasTruth: hasTruth, command: name)
        let constraints = try TuneArguments.constraints(
            parsed.values("require"), hasTruth: hasTruth, command: name)
        let jobs = try ReplayArguments.jobs(parsed, command: name)
        let scenarios = try ReplayArguments.scenarios(
            parsed.values("scenario").isEmpty ? "ideal" : parsed.values("scenario").joined(separator: ","),
            command: name, console: console)
        guard let combinations = Tuning.combinationCount(sweeps, limit: maximumRows) else {
            throw UsageError(
                "the sweeps cross to more than \(maximumRows) combinations (use larger steps)", command: name)
        }
        guard scenarios.count * combinations <= maximumRows else {
            throw UsageError(
                "\(scenarios.count) scenarios × \(combinations) combinations is more than \(maximumRows) rows",
                command: name)
        }
        let scenarioPath = parsed.value("write-scenario")
        if let scenarioPath {
            try OutputCollisions.check(
                outputs: [("--write-scenario", scenarioPath)],
                inputs: parsed.positionals.map { ("the trace", $0) } + (truthPath.map { [("--truth", $0)] } ?? []),
                command: name)
            // A scenario file is something a person edits and names: refuse to replace one. Other
            // targets (standard output, a device, a FIFO, a link to one of them) are written as
            // every report is.
            if case .existing(_, let status) = OutputTarget.resolve(scenarioPath), status.st_mode & S_IFMT == S_IFREG {
                throw CommandFailure(
                    .cannotCreate, "error: \(scenarioPath): already exists; remove it or choose another name")
            }
        }
        let inputs = try TraceInputs.expand(parsed.positionals, parsed, command: name, console: console)
        guard !inputs.isEmpty else {
            throw CommandFailure(.noInput, "error: tune: no trace among the inputs (every file was skipped)")
        }
        try StandardInputArguments.checkReadOnce(inputs + [truthPath], command: name)
        let options = try ImportArguments.options(from: parsed, command: name)
        let fences = try ConfigFiles.load(parsed.value("fences"), console, GeofenceLoader.load, absent: [])
        let truth = try truthPath.map { (path) throws(CommandFailure) in
            try TruthLoading.load(path, options: options, console: console)
        }
        let study = Tuning.Study(
            scenarios: scenarios.map { ($0.scenario, $0.fences) }, sweeps: sweeps, fences: fences,
            engine: parsed.engine)
        let (pools, traces, exitCode) = try TuneRunning.pools(
            study, inputs: inputs, truth: truth.map { ($0, truthPath ?? "") }, noise: noise.map { ($0, seed ?? 0) },
            options: options, jobs: jobs, console: console, parsed)
        // A table pooled over no trace would read as a result; so would a scenario chosen from it.
        if traces == 0, exitCode == .success {
            throw CommandFailure(
                .noInput, "error: tune: no trace among the inputs (every input held no records and was skipped)")
        }
        let outcome = Tuning.Outcome(
            study: study, pools: pools, objectives: objectives, constraints: constraints, hasTruth: hasTruth)
        switch format {
        case .json: console.print(TuneReport.json(outcome))
        case .csv: console.print(TuneReport.csv(outcome))
        case .html: console.print(TuneReport.html(outcome))
        default: console.print(TuneReport.text(outcome))
        }
        if let scenarioPath {
            guard let chosen = outcome.chosen else {
                // Like a violated threshold of `check`: the constraints are the check.
                throw CommandFailure(
                    .failure, "error: --write-scenario: no row meets every constraint; nothing written")
            }
            if let failure = OutputFile.write(
                TuneReport.scenarioSnippet(outcome, row: chosen) + "\n", to: scenarioPath, console: console)
            {
                throw CommandFailure(failure.exitCode, failure.message)
            }
        }
        return exitCode
    }
}
