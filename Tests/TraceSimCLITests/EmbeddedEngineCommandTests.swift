import Device
import Engine
import Foundation
import Scenarios
import SimulationCore
import TestSupport
import Testing

/// A program that embeds the command line with its own engine gets `replay`, `matrix` and
/// `check` for it: the engine's diagnostics show in every format, and its failure fails the run.
@Suite("Embedded engine on the command line")
struct EmbeddedEngineCommandTests {
    static let drive = Repository.trace("gps-measurement-tools/MTV.Local1.ublox-F9K.20200206-181434.nmea")

    static func run(_ arguments: [String], engine: EngineUnderTest) -> CommandResult {
        runCommand(arguments, engine: engine)
    }

    static let counting = EngineUnderTest.custom(named: "counting") { _ in CountingClient(failsAfter: nil) }

    @Test("replay prints the engine's diagnostics in text and JSON; the built-in engine's output has none")
    func replayShowsDiagnostics() throws {
        let text = Self.run(["replay", Self.drive, "--scenario", "always-precise"], engine: Self.counting)
        #expect(text.exitCode == 0, "\(text.error)")
        // Every delivery is noted once, the first at the trace's first fix.
        let delivered = try #require(
            text.output.split(separator: "\n").first { $0.hasPrefix("  ") && $0.contains("× saw a location") })
        #expect(delivered.hasSuffix("× saw a location (first at +0.0 s)"))
        #expect(text.output.contains("\nengine diagnostics:\n"))
        let json = Self.run(
            ["replay", Self.drive, "--scenario", "always-precise", "--format", "json"], engine: Self.counting)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        let metrics = try #require(object["metrics"] as? [String: Any])
        #expect(diagnostics.first?["message"] as? String == "saw a location")
        #expect(diagnostics.first?["count"] as? Int == metrics["deliveredFixes"] as? Int)
        let builtIn = runCommand(["replay", Self.drive, "--scenario", "always-precise", "--format", "json"])
        #expect(builtIn.exitCode == 0)
        #expect(!builtIn.output.contains("\"diagnostics\""))
    }

    @Test("matrix sums each diagnostic over its runs under the table")
    func matrixSumsDiagnostics() {
        let result = Self.run(
            ["matrix", Self.drive, "--scenarios", "always-precise,denied"], engine: Self.counting)
        #expect(result.exitCode == 0, "\(result.error)")
        // always-precise delivers; denied delivers nothing, so one run reports it.
        let line = result.output.split(separator: "\n").last { $0.hasPrefix("engine diagnostic (warning): ") }
        #expect(line?.hasSuffix("× saw a location, in 1 run") == true)
    }

    @Test("an engine that gives up fails the command with exit 70 and names the engine")
    func failingEngineFailsTheRun() {
        let failing = EngineUnderTest.custom(named: "failing") { _ in CountingClient(failsAfter: 10) }
        let result = Self.run(["matrix", Self.drive, "--scenarios", "always-precise"], engine: failing)
        #expect(result.exitCode == 70)
        #expect(result.error == "error: engine failing: gave up after 10 fixes\n")
        #expect(result.output.isEmpty)
    }

    @Test("track refuses an engine it cannot drive; tune sweeps only settings the engine takes")
    func trackAndTuneRefuse() {
        let track = Self.run(["track", Self.drive], engine: Self.counting)
        #expect(track.exitCode == 64)
        #expect(
            track.error.hasPrefix(
                "error: track runs the built-in engine; for engine counting use 'replay TRACE --scenario ideal'\n"))
        // An engine that declares no settings of its own has nothing for --sweep to name.
        let tune = Self.run(["tune", Self.drive, "--sweep", "distanceFilter=10:20:10"], engine: Self.counting)
        #expect(tune.exitCode == 64)
        #expect(
            tune.error.hasPrefix(
                "error: --sweep: unknown parameter 'distanceFilter': the engine under test declares no settings"))
        let honouring = EngineUnderTest.custom(named: "honouring", honoursEngineSettings: true) { _ in
            CountingClient(failsAfter: nil)
        }
        let swept = Self.run(["tune", Self.drive, "--sweep", "distanceFilter=10:20:10"], engine: honouring)
        #expect(swept.exitCode == 0, "\(swept.error)")
    }

    @Test("check prints the engine's diagnostics under its verdicts; serve-engine refuses an engine of one's own")
    func checkShowsDiagnosticsAndServeEngineRefuses() {
        let expectations = Repository.path("Documentation/Examples/expectations.json")
        let check = Self.run(
            ["check", Repository.trace("gpsbabel/bike.tcx"), "--expect", expectations], engine: Self.counting)
        let line = check.output.split(separator: "\n").last { $0.hasPrefix("engine diagnostic (warning): ") }
        #expect(line?.contains("× saw a location, in ") == true, "\(check.output)\(check.error)")
        let builtIn = runCommand(["check", Repository.trace("gpsbabel/bike.tcx"), "--expect", expectations])
        #expect(!builtIn.output.contains("engine diagnostic"))
        let serve = Self.run(["serve-engine"], engine: Self.counting)
        #expect(serve.exitCode == 64)
        #expect(serve.error.hasPrefix("error: serve-engine serves the built-in engine, not engine counting\n"))
    }

    @Test("an app with no Core Location code receives nothing: every run is measured at zero")
    func emptyCoreLocationApp() throws {
        let result = Self.run(
            ["replay", Self.drive, "--scenario", "always-precise", "--format", "json"],
            engine: .coreLocationApp(named: "empty") { NSObject() })
        #expect(result.exitCode == 0, "\(result.error)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let metrics = try #require(object["metrics"] as? [String: Any])
        #expect(metrics["deliveredFixes"] as? Int == 0)
        #expect(metrics["collectionRatio"] is NSNull)
    }
}

/// Starts background updates at launch, notes every location, and optionally gives up.
private struct CountingClient: RecordingClient {
    let failsAfter: Int?
    var recorder = Recorder()
    var odometerMeters: Double { 0 }
    var diagnostics: [ClientDiagnostic] = []
    var failure: EngineFailure?

    mutating func start(
        _ launch: LocationClientLaunch, at now: SimInstant, into requests: inout [LocationClientRequest<Never>]
    ) {
        requests.append(.device(.startedLocationUpdates(LocationUpdateOptions(allowsBackgroundLocationUpdates: true))))
    }

    mutating func didUpdateLocations(
        _ locations: [LocationDelivery], at now: SimInstant, into requests: inout [LocationClientRequest<Never>]
    ) {
        for delivery in locations {
            recorder.fixDelivered()
            recorder.accepted(delivery.fix)
            diagnostics.note("saw a location", at: delivery.time)
        }
        if let failsAfter, recorder.deliveredFixCount >= failsAfter, failure == nil {
            failure = EngineFailure("gave up after \(failsAfter) fixes")
        }
    }

    func finish(at now: SimInstant) {}
}
