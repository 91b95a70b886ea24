import Reports
import Scenarios
import Traces

/// `tracesim tune TRACE... --sweep name=from:to:step [--truth TRACE]`: engine settings against
/// what they keep and what they cost in accuracy.
enum TuneCommand {
    static let name = "tune"

    /// The most combinations one run may cross to.
    static let maximumCombinations = 10_000

    static let help = """
        OVERVIEW: Sweep engine settings on real traces and show, for every combination, how many fixes
        the engine keeps against how wrong they are, with the Pareto front marked.

        USAGE: tracesim tune <trace> ... --sweep <name>=<from>:<to>:<step> [--sweep ...]
                             [--truth <trace>] [--format text|json] [--date <YYYY-MM-DD>] [--input-format <name>]
                             [--tracks time|file|each] [--assume-rate <HZ>] [--strict]

        ARGUMENTS:
          <trace>                 Trace files in any format 'tracesim inspect' reads.
                                  `-` reads standard input (once per command line). gzip input,
                                  from a file or standard input, is inflated as it is read.

        OPTIONS:
          --sweep <spec>          A setting and its values, repeatable (combinations are crossed).
                                  Settings: gate.horizontalAccuracy, gate.maxImpliedSpeed, gate.maxAge,
                                  distanceFilter, odometerAccuracy, stopTimeout, stationaryRadius.
          --truth <trace>         A reference recording of the same trip (for example the SPAN log for
                                  the u-blox drive): error is the distance of each accepted fix from
                                  the reference at that instant (median, p95). Needs exactly one trace.
                                  With --tracks each, every track is measured against the truth
                                  sorted by time.
                                  Without it, the cost is distance inflation: odometer ÷ the trace's
                                  path sampled every 10 s.
          --format <text|json>    text (default): a row per combination, '*' on the front; json: an
                                  array of {"values", "kept", "delivered", "medianErrorMeters",
                                  "p95ErrorMeters", "distanceInflation", "front"}.
        \(ImportArguments.helpLines)
          -h, --help              Show this help.

        The phone is the ideal one (Always + Precise) and the engine starts moving, so only the
        settings under test decide what is kept.

        EXIT STATUS:
          0 ran; 64 usage error; 65 a file's content is invalid; 66 a file is missing or unreadable.
        """

    static func run(_ arguments: [String], console: Console) throws(UsageError) -> ExitCode {
        let spec = ArgumentSpec(
            valued: ImportArguments.optionNames.union(["sweep", "truth", "format"]), flags: ImportArguments.flagNames)
        let parsed = try spec.parse(arguments, command: name)
        if parsed.flag("help") {
            console.print(help)
            return .success
        }
        guard !parsed.positionals.isEmpty else { throw UsageError("tune needs at least one trace file", command: name) }
        let format = try ReplayArguments.format(parsed, command: name)
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
            switch TraceLoading.load(path, options: options, console: console) {
            case .failed(let code): return code
            case .loaded(let trace):
                traces += TrackArguments.pieces(of: trace, path: path, options: options, console: console).map(\.trace)
            }
        }
        var truth: Trace?
        if let path = parsed.value("truth") {
            switch TruthLoading.load(path, options: options, console: console, timeOrderForEach: true) {
            case .failed(let code): return code
            case .loaded(let trace): truth = trace
            }
        }
        let points = Tuning.run(traces, sweeps: sweeps, truth: truth)
        console.print(
            format == "json"
                ? TuneReport.json(points, sweeps: sweeps)
                : TuneReport.text(points, sweeps: sweeps, measuredAgainstTruth: truth != nil))
        return .success
    }
}
