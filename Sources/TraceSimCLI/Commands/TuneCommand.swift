import Reports
import Scenarios
import Traces

/// `tracesim tune TRACE... --sweep name=from:to:step [--truth TRACE]`: engine settings against
/// what they keep and what they cost in accuracy.
enum TuneCommand: Command {
    /// The most combinations one run may cross to.
    static let maximumCombinations = 10_000

    static let declaration = CommandDeclaration(
        name: "tune",
        overview: """
            Sweep engine settings on real traces and show, for every combination, how many fixes
            the engine keeps against how wrong they are, with the Pareto front marked.
            """,
        positionals: [ImportArguments.traces],
        options: [
            .init(
                name: "sweep", value: "<spec>",
                help: """
                    A setting and its values, repeatable (combinations are crossed).
                    Settings: gate.horizontalAccuracy, gate.maxImpliedSpeed, gate.maxAge,
                    distanceFilter, odometerAccuracy, stopTimeout, stationaryRadius.
                    """, usageValue: "<name>=<from>:<to>:<step>", isRequired: true, isRepeatable: true),
            .init(
                name: "truth", value: "<trace>",
                help: """
                    A reference recording of the same trip (for example the SPAN log for
                    the u-blox drive): error is the distance of each accepted fix from
                    the reference at that instant (median, p95). Needs exactly one trace.
                    With --tracks each, every track is measured against the truth
                    sorted by time.
                    Without it, the cost is distance inflation: odometer ÷ the trace's
                    path sampled every 10 s.
                    """),
            .choice(
                "format", ["text", "json"],
                help: """
                    text (default): a row per combination, '*' on the front; json: an
                    array of {"values", "kept", "delivered", "medianErrorMeters",
                    "p95ErrorMeters", "distanceInflation", "front"}.
                    """),
        ] + ImportArguments.declared,
        discussion: """
            The phone is the ideal one (Always + Precise) and the engine starts moving, so only the
            settings under test decide what is kept.
            """,
        exitStatus: """
            0 ran; 64 usage error; 65 a file's content is invalid; 66 a file is missing or unreadable.
            """)

    static func run(_ parsed: ParsedArguments, console: Console) throws -> ExitCode {
        guard parsed.engine.honoursEngineSettings else {
            throw UsageError(
                "tune sweeps the built-in engine's settings, which engine \(parsed.engine.name) does not take",
                command: name)
        }
        guard !parsed.positionals.isEmpty else { throw UsageError("tune needs at least one trace file", command: name) }
        let format = try parsed.choice("format")
        var sweeps: [Tuning.Sweep] = []
        for text in parsed.values("sweep") {
            switch Tuning.Sweep.parse(text) {
            case .success(let sweep):
                // Crossing a setting with itself would run combinations in which the later value
                // silently overrides the earlier one.
                guard !sweeps.contains(where: { $0.parameter.name == sweep.parameter.name }) else {
                    throw UsageError("--sweep: '\(sweep.parameter.name)' is swept twice", command: name)
                }
                sweeps.append(sweep)
            case .failure(let error): throw UsageError("--sweep: \(error)", command: name)
            }
        }
        guard !sweeps.isEmpty else { throw UsageError("tune needs at least one --sweep", command: name) }
        guard Tuning.combinationCount(sweeps, limit: maximumCombinations) != nil else {
            throw UsageError(
                "the sweeps cross to more than \(maximumCombinations) combinations (use larger steps)", command: name)
        }
        if parsed.value("truth") != nil && parsed.positionals.count != 1 {
            throw UsageError("--truth compares with exactly one trace", command: name)
        }
        try StandardInputArguments.checkReadOnce(parsed.positionals + [parsed.value("truth")], command: name)
        let options = try ImportArguments.options(from: parsed, command: name)
        var traces: [Trace] = []
        for path in parsed.positionals {
            let trace = try TraceLoading.load(path, options: options, console: console)
            traces += TrackArguments.pieces(of: trace, path: path, options: options, console: console).map(\.trace)
        }
        let truth = try parsed.value("truth").map { (path) throws(CommandFailure) in
            try TruthLoading.load(path, options: options, console: console, timeOrderForEach: true)
        }
        let points: [Tuning.Point]
        do {
            points = try Tuning.run(traces, sweeps: sweeps, truth: truth, engine: parsed.engine)
        } catch {
            throw CommandFailure(.failure, "error: engine \(parsed.engine.name): \(error)")
        }
        console.print(
            format == "json"
                ? TuneReport.json(points, sweeps: sweeps)
                : TuneReport.text(points, sweeps: sweeps, measuredAgainstTruth: truth != nil))
        return .success
    }
}
