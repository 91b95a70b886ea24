import ConfigJSON
import Device
import Engine
import Foundation
import Geometry
import Permissions
import Reports
import Scenarios
import SimulationCore
import Traces

/// `tracesim track TRACE [--device DEVICE.json] [--user USER.json] [--fences FILE] ...`: one
/// trace through the simulated iPhone and the tracking engine.
enum TrackCommand: ReportingCommand {
    /// The formats `--format` takes.
    static let formats = ReportFormat.Option(
        [.text, .json],
        help: """
            text (default) or one JSON object with the keys in the README.
            With --tracks each, one report per track: text blocks in turn, or
            one JSON object per line.
            """)

    static let declaration = CommandDeclaration(
        name: "track",
        overview: """
            Replay one trace through the simulated iPhone and the tracking engine, and report
            what the engine collected: fixes delivered, accepted and recorded, rejections by reason,
            distance, GPS-on time, departures and arrivals, geofence events and gaps.
            """,
        positionals: [ImportArguments.oneTrace],
        options: [
            .init(
                name: "device", value: "<DEVICE.json>",
                help: """
                    The phone at the start (the shape 'tracesim help permissions' gives),
                    over the ideal run's phone (Always + Precise, motion authorized): it
                    changes only what it names. Nothing in track asks for permission, so
                    a phone left notDetermined collects nothing, and the output says so.
                    """),
            .init(
                name: "user", value: "<USER.json>",
                help: """
                    Only its "lifecycle" moves are used (lock, background, forceQuit,
                    ...), in seconds from the trace's first fix.
                    """),
            .init(
                name: "fences", value: "<file>",
                help: """
                    Geofences: GeoJSON (Point with properties.radius, or Polygon) or
                    TraceSim's {"geofences": [...]}.
                    """),
            .flag(
                "starts-moving",
                help: """
                    Start moving with GPS on (changePace(true)); otherwise the first
                    fix places a stationary region and GPS waits for a departure.
                    """),
            .choice(
                "stop-rule", ["timeout", "radar"], value: "<rule>",
                help: "timeout (default: 300 s of stillness) or radar (70 m for 140 s)."),
            .choice(
                "smoothing", ["pass-through", "adjust", "conservative"], value: "<policy>",
                help: "pass-through (default), adjust (Kalman) or conservative."),
            .init(name: "seed", value: "<n>", help: "Seeds the phone's randomness (default 0)."),
            formats.declared,
            NoiseArguments.declared,
            AccuracyArguments.declared,
        ] + ImportArguments.declared,
        exitStatus: """
            0 ran; 64 usage error; 65 a file's content is invalid (FILE:LINE:COL: what), including a
            geofence GEOS finds invalid; 66 a file is missing or unreadable.
            """,
        refusedOptions: EngineArguments.refused(
            because: "it reports the built-in engine's inner states (motion, rejections by stage); "
                + "replay an engine of your own with 'tracesim replay TRACE --scenario ideal --engine-command "
                + "COMMAND', the same ideal phone"))

    static func run(_ parsed: ParsedArguments, console: Console) throws -> ExitCode {
        guard parsed.engine.isBuiltIn else {
            // `track` reports the built-in engine's inner states (motion, rejections by stage);
            // a custom engine's run is `replay --scenario ideal`.
            throw UsageError(
                "track runs the built-in engine; for engine \(parsed.engine.name) use 'replay TRACE --scenario ideal'",
                command: name)
        }
        guard parsed.positionals.count == 1 else {
            throw UsageError(
                parsed.positionals.isEmpty ? "track needs one trace file" : "track takes one trace file", command: name)
        }
        let format = try formats.parse(parsed)
        let configuration = try engineConfiguration(parsed)
        let seed = try ReplayArguments.seed(parsed, command: name) ?? 0
        let noise = try NoiseArguments.noise(parsed, command: name)
        let options = try ImportArguments.options(from: parsed, command: name)
        let path = parsed.positionals[0]
        try StandardInputArguments.checkReadOnce(parsed.positionals, command: name)

        // Nothing in a track run asks for permission (the built-in engine requests none, and the
        // person only moves the app), so a fresh install would collect nothing whatever else the
        // file says: as a scenario's device block without a flow, it starts from the ideal phone.
        var deviceConfiguration = Scenario.idealDevice
        if let devicePath = parsed.value("device") {
            deviceConfiguration = try ConfigFiles.load(devicePath, console) { bytes, file throws(ConfigError) in
                try DeviceSetup.parse(
                    try ConfigJSON.parse(bytes, file: file), at: "$", reader: ConfigReader(file: file),
                    over: Scenario.idealDevice)
            }.configuration
        }
        deviceConfiguration.seed = seed
        AccuracyArguments.apply(
            try AccuracyArguments.meters(parsed, command: name), to: &deviceConfiguration.parameters)
        var lifecycle: [PermissionSession.ScriptedEvent] = []
        if let userPath = parsed.value("user") {
            lifecycle = try ConfigFiles.load(userPath, console, UserScript.parse).lifecycle
        }
        let fences = try ConfigFiles.load(parsed.value("fences"), console, GeofenceLoader.load, absent: [])
        let loaded = try TraceLoading.loadReplayable(path, options: options, console: console)
        // Under --tracks each, one report per track: text blocks in turn, JSON one object per line.
        for (index, (label, clean)) in TrackArguments.pieces(of: loaded, path: path, options: options, console: console)
            .enumerated()
        {
            let trace = NoiseArguments.apply(noise, to: clean, seed: seed)
            guard let first = trace.fixes.first else { return .dataError }
            var device = deviceConfiguration
            device.traceHasMotionSamples = !trace.motionSamples.isEmpty
            let engine: TrackingEngine
            do {
                engine = try TrackingEngine(
                    configuration: configuration, fences: fences, context: GEOSContext(),
                    expectedFixCount: trace.fixes.count)
            } catch {
                throw CommandFailure(.dataError, "error: \(parsed.value("fences") ?? path): \(error)")
            }
            let script = lifecycle.map {
                ScriptedDeviceEvent(
                    time: first.timestamp.advanced(bySeconds: $0.atSeconds), event: $0.event)
            }
            var replay = Replay(device: Device(configuration: device), client: engine)
            replay.run(trace, script: script)
            let unsettled = UnsettledAuthorization.note(replay, start: first.timestamp)
            let report = TrackReport(
                file: label, trace: trace, engine: engine, gpsOn: replay.gpsOn, fenceCount: fences.count,
                notes: unsettled.map { [$0] } ?? [])
            if index > 0 && format == .text { console.print("") }
            console.print(format == .json ? report.json : report.text)
        }
        return .success
    }

    private static func engineConfiguration(_ parsed: ParsedArguments) throws(UsageError) -> EngineConfiguration {
        var configuration = EngineConfiguration()
        configuration.startsMoving = parsed.flag("starts-moving")
        switch try parsed.choice("stop-rule") {
        case "radar": configuration.motion.stopRule = .radarDefault
        default: configuration.motion.stopRule = .stopTimeout
        }
        switch try parsed.choice("smoothing") {
        case "adjust": configuration.smoothing = .adjust
        case "conservative": configuration.smoothing = .conservative
        default: configuration.smoothing = .passThrough
        }
        return configuration
    }
}
