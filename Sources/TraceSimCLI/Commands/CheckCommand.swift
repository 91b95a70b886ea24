import Engine
import Fleet
import Foundation
import Geometry
import Reports
import Scenarios
import Traces

/// `tracesim check TRACE... --expect EXPECT.json`: CI's gate on collection.
enum CheckCommand: Command {
    static let declaration = CommandDeclaration(
        name: "check",
        overview: """
            Replay traces through the scenarios an expectations file names and fail when a
            metric crosses a threshold, such as "wheninuse-locked coverage >= 0.2".
            """,
        positionals: [ImportArguments.traces],
        options: [
            .init(
                name: "expect", value: "<EXPECT.json>",
                help: """
                    {"thresholds": [{"scenario", "metric", "min"|"max", "trace"?,
                    "allowMissing"?}]}. "scenario" is a preset, a scenario file or "*"
                    (every preset); "metric" is a key of the run JSON's "metrics";
                    "trace", when given, matches the end of the trace path. A run with
                    no value for the metric (null in the run JSON: a ratio against an
                    ideal run with nothing, a delay when a run never departed) fails
                    unless "allowMissing": true. A threshold that applies to no trace
                    and scenario given is an error (65), as is an unknown scenario.
                    """, isRequired: true),
            .init(
                name: "junit", value: "<path>",
                help: "Also write JUnit XML (one test case per trace, scenario and threshold)."),
            .init(name: "markdown", value: "<path>", help: "Also write a Markdown table for a pull-request comment."),
            .init(name: "fences", value: "<file>", help: "Geofences for every run."),
            .init(name: "seed", value: "<n>", help: "Seeds every run (default: each scenario's own seed)."),
        ] + EngineArguments.declared + ImportArguments.declared,
        exitStatus: """
            0 every threshold holds; 1 at least one is violated (each is printed with its trace,
            scenario, metric, value and bound); 64 usage error; 65 a file's content is invalid;
            66 a file is missing; 70 the engine under test crashed, hung or broke the protocol (the
            --junit file holds an <error> for the failed run, the --markdown file says so); 73 a
            report file cannot be written; 74 writing output failed part-way (a full disk, a closed
            pipe).
            """)

    static func run(_ parsed: ParsedArguments, console: Console) throws -> ExitCode {
        guard !parsed.positionals.isEmpty else {
            throw UsageError("check needs at least one trace file", command: name)
        }
        try StandardInputArguments.checkReadOnce(parsed.positionals, command: name)
        guard let expectPath = parsed.value("expect") else {
            throw UsageError("check needs --expect EXPECT.json", command: name)
        }
        let seed = try ReplayArguments.seed(parsed, command: name)
        let options = try ImportArguments.options(from: parsed, command: name)
        let expectations = try ConfigFiles.load(expectPath, console, Expectations.parse)
        // Every scenario a threshold names, once, in first-mention order; "*" means every preset.
        var names: [String] = []
        for threshold in expectations.thresholds {
            let expanded =
                threshold.scenario == "*"
                ? Scenario.presets.filter { $0.name != "ideal" }.map(\.name) : [threshold.scenario]
            for name in expanded where !names.contains(name) { names.append(name) }
        }
        let scenarios = try ReplayArguments.scenarios(
            names.joined(separator: ","), command: name, console: console, namedBy: expectPath)
        try checkOutputs(parsed, scenarios: names)
        let fences = try ConfigFiles.load(parsed.value("fences"), console, GeofenceLoader.load, absent: [])
        var traces: [(path: String, trace: Trace)] = []
        for path in parsed.positionals {
            let trace = try TraceLoading.loadReplayable(path, options: options, console: console)
            // Under --tracks each, a trace per track, named FILE#N: a "trace" threshold naming the file
            // applies to every track, one naming FILE#N to that track.
            traces += TrackArguments.pieces(of: trace, path: path, options: options, console: console).map {
                ($0.name, $0.trace)
            }
        }
        // Before any replay: a threshold that applies to no run would otherwise pass unchecked.
        do {
            try expectations.checkEveryThresholdApplies(
                traces: traces.map(\.path), files: parsed.positionals.count,
                scenarios: scenarios.indices.map { (scenarios[$0].scenario.name, names[$0]) })
        } catch {
            throw CommandFailure(.dataError, "error: \(error)")
        }
        let matrix = Matrix(
            traces: traces.map { Matrix.NamedTrace(name: $0.path, trace: $0.trace) },
            scenarios: scenarios.map(ReplayArguments.entry), seed: seed, fences: fences)
        let cells: [Matrix.Cell]
        switch try ReplayArguments.runUnlessEngineFails(matrix, parsed, console: console) {
        case .success(let result):
            cells = result.cells
        case .failure(let engineFailure):
            // CI reads the files, not the exit code alone: they say the engine failed, as an
            // error rather than a violated threshold, and the command exits 70, not 1.
            let failedRun = CheckReport.FailedRun(engine: parsed.engine.name, message: engineFailure.message)
            let code = writeReports(
                junit: CheckReport.junit([], failedRun: failedRun),
                markdown: CheckReport.markdown([], failedRun: failedRun), parsed, console)
            let failure = ReplayArguments.failure(.engine(engineFailure), engine: parsed.engine, parsed)
            // A report that could not be written outranks the engine: CI would miss the file.
            guard let code else { throw failure }
            console.report(failure)
            return code
        }
        var verdicts: [Expectations.Verdict] = []
        for cell in cells {
            verdicts += expectations.verdicts(
                trace: traces[cell.traceIndex].path, scenario: cell.run.scenario, givenAs: names[cell.scenarioIndex],
                metrics: cell.metrics)
        }
        console.print(CheckReport.text(verdicts, runs: cells.map(\.run)))
        if let code = writeReports(
            junit: CheckReport.junit(verdicts), markdown: CheckReport.markdown(verdicts), parsed, console)
        {
            return code
        }
        return verdicts.allSatisfy(\.passed) ? .success : .failure
    }

    /// Writes `--junit` then `--markdown`, when asked for; the exit code of the first that
    /// cannot be written (73 or 74), after its message.
    private static func writeReports(junit: String, markdown: String, _ parsed: ParsedArguments, _ console: Console)
        -> ExitCode?
    {
        if let path = parsed.value("junit"), let code = write(junit, to: path, console) { return code }
        if let path = parsed.value("markdown"), let code = write(markdown, to: path, console) { return code }
        return nil
    }

    private static func write(_ text: String, to path: String, _ console: Console) -> ExitCode? {
        guard let failure = OutputFile.write(text, to: path, console: console) else { return nil }
        console.warn(failure.message)
        return failure.exitCode
    }

    /// The reports must not replace an input or each other.
    private static func checkOutputs(_ parsed: ParsedArguments, scenarios: [String]) throws(UsageError) {
        let outputs = ["junit", "markdown"].compactMap { option in parsed.value(option).map { ("--" + option, $0) } }
        let inputs =
            parsed.positionals.map { ("the trace", $0) }
            + ["expect", "fences"].compactMap { option in parsed.value(option).map { ("--" + option, $0) } }
            + scenarios.filter { $0.hasSuffix(".json") }.map { ("the scenario file", $0) }
        try OutputCollisions.check(outputs: outputs, inputs: inputs, command: name)
    }
}
