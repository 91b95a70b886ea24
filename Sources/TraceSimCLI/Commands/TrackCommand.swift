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
enum TrackCommand {
    static let name = "track"

    static let help = """
        OVERVIEW: Replay one trace through the simulated iPhone and the tracking engine, and report
        what the engine collected: fixes delivered, accepted and recorded, rejections by reason,
        distance, GPS-on time, departures and arrivals, geofence events and gaps.

        USAGE: tracesim track <trace> [--device <DEVICE.json>] [--user <USER.json>]
                              [--fences <file>] [--starts-moving] [--stop-rule timeout|radar]
                              [--smoothing pass-through|adjust|conservative] [--seed <n>]
                              [--format text|json] [--date <YYYY-MM-DD>] [--input-format <name>]
                              [--tracks time|file|each] [--assume-rate <HZ>] [--strict]

        ARGUMENTS:
          <trace>                 A trace file in any format 'tracesim inspect' reads.
                                  `-` reads standard input (once per command line). gzip input,
                                  from a file or standard input, is inflated as it is read.

        OPTIONS:
          --device <DEVICE.json>  The phone at the start (see 'tracesim help permissions'). Default:
                                  the ideal run: Always + Precise, motion authorized.
          --user <USER.json>      Only its "lifecycle" moves are used (lock, background, forceQuit,
                                  ...), in seconds from the trace's first fix.
          --fences <file>         Geofences: GeoJSON (Point with properties.radius, or Polygon) or
                                  TraceSim's {"geofences": [...]}.
          --starts-moving         Start moving with GPS on (changePace(true)); otherwise the first
                                  fix places a stationary region and GPS waits for a departure.
          --stop-rule <rule>      timeout (default: 300 s of stillness) or radar (70 m for 140 s).
          --smoothing <policy>    pass-through (default), adjust (Kalman) or conservative.
          --seed <n>              Seeds the phone's randomness (default 0).
          --format <text|json>    text (default) or one JSON object with the keys in the README.
                                  With --tracks each, one report per track: text blocks in turn, or
                                  one JSON object per line.
        \(ImportArguments.helpLines)
          -h, --help              Show this help.

        EXIT STATUS:
          0 ran; 64 usage error; 65 a file's content is invalid (FILE:LINE:COL: what), including a
          geofence GEOS finds invalid; 66 a file is missing or unreadable.
        """

    static func run(_ arguments: [String], console: Console) throws(UsageError) -> ExitCode {
        let spec = ArgumentSpec(
            valued: ImportArguments.optionNames.union([
                "device", "user", "fences", "stop-rule", "smoothing", "seed", "format",
            ]),
            flags: ImportArguments.flagNames.union(["starts-moving"]))
        let parsed = try spec.parse(arguments, command: name)
        if parsed.flag("help") {
            console.print(help)
            return .success
        }
        guard parsed.positionals.count == 1 else {
            throw UsageError(
                parsed.positionals.isEmpty ? "track needs one trace file" : "track takes one trace file", command: name)
        }
        let format = parsed.value("format") ?? "text"
        guard format == "text" || format == "json" else {
            throw UsageError("--format must be text or json, not '\(format)'", command: name)
        }
        let configuration = try engineConfiguration(parsed)
        var seed: UInt64 = 0
        if let text = parsed.value("seed") {
            guard let value = UInt64(text) else {
                throw UsageError("--seed must be a whole number, not '\(text)'", command: name)
            }
            seed = value
        }
        let options = try ImportArguments.options(from: parsed, command: name)
        let path = parsed.positionals[0]
        try StandardInputArguments.checkReadOnce(parsed.positionals, command: name)

        var deviceConfiguration = Scenario.idealDevice
        if let devicePath = parsed.value("device") {
            switch ConfigFiles.load(devicePath, console, DeviceSetup.parse) {
            case .failed(let code): return code
            case .loaded(let setup): deviceConfiguration = setup.configuration
            }
        }
        deviceConfiguration.seed = seed
        var lifecycle: [PermissionSession.ScriptedEvent] = []
        if let userPath = parsed.value("user") {
            switch ConfigFiles.load(userPath, console, UserScript.parse) {
            case .failed(let code): return code
            case .loaded(let script): lifecycle = script.lifecycle
            }
        }
        let fences: [Geofence]
        switch ConfigFiles.load(parsed.value("fences"), console, GeofenceLoader.load, absent: []) {
        case .failed(let code): return code
        case .loaded(let loaded): fences = loaded
        }
        let loaded: Trace
        switch TraceLoading.loadReplayable(path, options: options, console: console) {
        case .failed(let code): return code
        case .loaded(let trace): loaded = trace
        }
        // Under --tracks each, one report per track: text blocks in turn, JSON one object per line.
        for (index, (label, trace)) in TrackArguments.pieces(of: loaded, path: path, options: options, console: console)
            .enumerated()
        {
            guard let first = trace.fixes.first else { return .dataError }
            var device = deviceConfiguration
            device.traceHasMotionSamples = !trace.motionSamples.isEmpty
            let engine: TrackingEngine
            do {
                engine = try TrackingEngine(
                    configuration: configuration, fences: fences, context: GEOSContext(),
                    expectedFixCount: trace.fixes.count)
            } catch {
                console.warn("error: \(parsed.value("fences") ?? path): \(error)")
                return .dataError
            }
            let script = lifecycle.map {
                ScriptedDeviceEvent(
                    time: first.timestamp.advanced(bySeconds: $0.atSeconds), event: $0.event)
            }
            var replay = Replay(device: Device(configuration: device), client: engine)
            replay.run(trace, script: script)
            let report = TrackReport(
                file: label, trace: trace, engine: engine, gpsOn: replay.gpsOn, fenceCount: fences.count)
            if index > 0 && format == "text" { console.print("") }
            console.print(format == "json" ? report.json.rendered : report.text)
        }
        return .success
    }

    private static func engineConfiguration(_ parsed: ParsedArguments) throws(UsageError) -> EngineConfiguration {
        var configuration = EngineConfiguration()
        configuration.startsMoving = parsed.flag("starts-moving")
        switch parsed.value("stop-rule") ?? "timeout" {
        case "timeout": configuration.motion.stopRule = .stopTimeout
        case "radar": configuration.motion.stopRule = .radarDefault
        case let other: throw UsageError("--stop-rule must be timeout or radar, not '\(other)'", command: name)
        }
        switch parsed.value("smoothing") ?? "pass-through" {
        case "pass-through": configuration.smoothing = .passThrough
        case "adjust": configuration.smoothing = .adjust
        case "conservative": configuration.smoothing = .conservative
        case let other:
            throw UsageError("--smoothing must be pass-through, adjust or conservative, not '\(other)'", command: name)
        }
        return configuration
    }
}
