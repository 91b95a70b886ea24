import Engine
import Geometry
import Reports
import Scenarios
import Traces

/// `tracesim replay TRACE --scenario NAME`: one scenario on one trace, against its ideal run.
enum ReplayCommand: ReportingCommand {
    /// The formats `--format` takes.
    static let formats = ReportFormat.Option(
        [.text, .json, .html],
        help: """
            text (default); json: one object with the keys in the README; html:
            one self-contained page with the track map (accepted, rejected and
            never-delivered fixes, geofences) and timeline bands (app state,
            lock, motion, GPS, deliveries, authorization, the When-In-Use cutoff)
            against the ideal run.
            With --tracks each, one report per track: text blocks in turn, or
            one JSON object per line; html refuses a file of several tracks.
            """)

    static let declaration = CommandDeclaration(
        name: "replay",
        overview: """
            Replay one trace through one scenario and compare it with the ideal run of the
            same trace and seed.
            """,
        positionals: [ImportArguments.oneTrace],
        options: [
            .init(
                name: "scenario", value: "<name|file>",
                help: """
                    A preset ('tracesim scenarios' lists them) or a scenario file
                    (*.json, format in the README).
                    """, isRequired: true),
            .init(name: "fences", value: "<file>", help: "Geofences (GeoJSON or TraceSim JSON)."),
            .init(
                name: "truth", value: "<trace>",
                help: """
                    A reference recording of the same trip: adds the median and p95
                    distance of accepted fixes from it (positionError* in the JSON).
                    With --tracks each, a truth of several tracks is matched track by
                    track (track N against the truth's track N).
                    """),
            .init(
                name: "seed", value: "<n>",
                help: "Seeds the phone (default: the scenario's own seed; presets use 0)."),
            formats.declared,
            NoiseArguments.declared,
            AccuracyArguments.declared,
        ] + EngineArguments.declared + ImportArguments.declared,
        exitStatus: """
            0 ran; 64 usage error; 65 a file's content is invalid; 66 a file is missing or unreadable;
            70 the engine under test crashed, hung or broke the protocol.
            """)

    static func run(_ parsed: ParsedArguments, console: Console) throws -> ExitCode {
        guard parsed.positionals.count == 1 else {
            throw UsageError(
                parsed.positionals.isEmpty ? "replay needs one trace file" : "replay takes one trace file",
                command: name)
        }
        guard let scenarioName = parsed.value("scenario") else {
            throw UsageError("replay needs --scenario (see 'tracesim scenarios')", command: name)
        }
        guard !scenarioName.contains(",") else { throw UsageError("--scenario takes one name or file", command: name) }
        var scenarios = try ReplayArguments.scenarios(scenarioName, command: name, console: console)
        AccuracyArguments.apply(
            try AccuracyArguments.meters(parsed, command: name), to: &scenarios[0].scenario.device.parameters)
        let format = try formats.parse(parsed)
        let seed = try ReplayArguments.seed(parsed, command: name)
        let noise = try NoiseArguments.noise(parsed, command: name)
        let options = try ImportArguments.options(from: parsed, command: name)
        let fences = try ConfigFiles.load(parsed.value("fences"), console, GeofenceLoader.load, absent: [])
        let path = parsed.positionals[0]
        try StandardInputArguments.checkReadOnce(parsed.positionals + [parsed.value("truth")], command: name)
        let loaded = try TraceLoading.loadReplayable(path, options: options, console: console)
        let truth = try parsed.value("truth").map { (truthPath) throws(CommandFailure) in
            try TruthLoading.load(truthPath, options: options, console: console)
        }
        var truthTracks = options.trackOrder == .each ? truth.map(TruthTracks.init) : nil
        // Under --tracks each, one report per track: text blocks one after another, JSON one
        // object per line; an HTML page holds one run.
        let pieces = TrackArguments.pieces(of: loaded, path: path, options: options, console: console)
        if pieces.count > 1 && format == .html {
            throw UsageError(
                "--tracks each gives \(pieces.count) traces for '\(path)' and an HTML page holds one: "
                    + "use --format text or json, or --tracks time or file", command: name)
        }
        for (index, (label, clean)) in pieces.enumerated() {
            let trace = NoiseArguments.apply(noise, to: clean, seed: seed)
            let comparison = try compare(
                trace, named: label, scenarios[0], seed: seed, fences: fences, parsed, console: console)
            let (run, ideal) = (comparison.run, comparison.ideal)
            var metrics = comparison.metrics
            if let truth {
                let reference = truthTracks?.reference(for: trace) ?? truth
                metrics.measureError(of: run, against: reference)
            }
            if format == .json {
                console.print(RunReport.json(trace: label, run: run, metrics: metrics))
            } else if format == .html {
                console.print(
                    HTMLReport.run(
                        run, ideal: ideal, metrics: metrics, trace: trace, named: label,
                        fences: scenarios[0].fences ?? fences))
            } else {
                if index > 0 { console.print("") }
                console.print(RunReport.text(trace: label, run: run, metrics: metrics))
            }
        }
        return .success
    }

    /// `chosen` on `trace` against its reference, with a progress bar on standard error when it
    /// is a terminal. Both runs replay on the calling thread (the main thread), one after the
    /// other: app code under the Core Location facade may queue main-actor work
    /// (`DispatchQueue.main.async`), which runs in virtual time only where main-actor code may
    /// run, as the facade's documentation promises for `replay`.
    /// - Throws: `CommandFailure`: exit 65 naming the geofence file for an invalid fence, exit 70
    ///   naming the engine when the engine under test failed.
    private static func compare(
        _ trace: Trace, named name: String, _ chosen: ReplayArguments.Chosen, seed: UInt64?, fences: [Geofence],
        _ parsed: ParsedArguments, console: Console
    ) throws(CommandFailure) -> Comparison {
        let progress = Progress(total: 2, console: console)
        defer { progress.finish() }
        do {
            return try Comparison(
                trace: trace, scenario: chosen.scenario, fences: chosen.fences ?? fences, seed: seed,
                engine: parsed.engine, traceName: name, progress: { done, _ in progress.update(done) },
                concurrently: false)
        } catch {
            throw ReplayArguments.failure(error, engine: parsed.engine, parsed)
        }
    }
}
