import Engine
import Foundation
import Geometry
import Scenarios
import TestSupport
import Testing
import TraceSimCLI
import TraceSimCoreLocation

/// The built-in engine run directly and through the Core Location facade must print the same
/// bytes: every preset in every matrix format, over every bundled trace in the slow tier (two
/// short traces in the fast tier), and replays in JSON.
///
/// The facade's side is `FacadeEngineAdapter`: `TrackingEngine` hosted by a `CLLocationManager`
/// delegate. A difference means the facade delivered something else (another fix, instant or
/// batch), turned a call into another request, or recorded a callback as unhandled.
@Suite("Facade differential: built-in engine direct and through the Core Location facade", .serialized)
struct FacadeDifferentialTests {
    /// The built-in engine behind the facade, made per run with the scenario's settings.
    static let throughFacade = EngineUnderTest.custom(named: "facade-adapter") { context throws(EngineFailure) in
        let engine: TrackingEngine
        do {
            engine = try TrackingEngine(
                configuration: context.scenario.engine, fences: context.fences, context: GEOSContext(),
                expectedFixCount: context.expectedFixCount)
        } catch {
            throw EngineFailure("invalid fence: \(error)")
        }
        let record = EngineRecord(engine)
        return CoreLocationApp(recording: record) { FacadeEngineAdapter(record: record) }
    }

    /// The traces the matrix runs over: every bundled trace in the slow tier
    /// (`TRACESIM_SLOW_TESTS=1`), two short ones in the fast tier.
    static let traces = TestTier.endToEndTraces

    /// The u-blox drive of the SPAN pair: 2 h of 1 Hz driving, with stops.
    static let drive = Repository.trace("gps-measurement-tools/MTV.Local1.ublox-F9K.20200206-181434.nmea")

    @Test("the bundled traces are all found")
    func tracesFound() {
        #expect(Repository.bundledTraces.count == 14)
        #expect(Self.traces.allSatisfy { FileManager.default.fileExists(atPath: $0) }, "\(Self.traces)")
    }

    static var everyPreset: String { Scenario.presets.map(\.name).joined(separator: ",") }

    @Test(
        "matrix over the tier's traces and every preset prints the built-in run's bytes",
        arguments: ["text", "json", "csv", "markdown"])
    func matrixMatches(format: String) async throws {
        // --date dates the one log that never dates itself, as Scripts/run.sh does.
        let arguments =
            ["matrix"] + Self.traces + ["--date", "2020-02-07", "--scenarios", Self.everyPreset, "--format", format]
        let direct = try await offPool { runCommand(arguments, engine: .builtIn) }
        let facade = try await offPool { runCommand(arguments, engine: Self.throughFacade) }
        #expect(direct.exitCode == 0, "\(direct.error)")
        #expect(facade.exitCode == direct.exitCode)
        #expect(facade.error == direct.error)
        expectSameLines(facade.output, direct.output)
    }

    @Test("a relaunched app hears significant changes again once it asks")
    func relaunchMatches() {
        // The force-quit app is relaunched by a significant change and starts the service
        // again, as apps must; the service that woke it carries on (it once restarted, making
        // the next position an event at once, and the old process's managers stopped it).
        replayMatches(trace: Repository.trace("gpsbabel/2013_JUNE.json"), preset: "always-force-quit")
    }

    @Test(
        "replay --format json prints the built-in run's bytes",
        arguments: [
            "always-precise", "wheninuse-locked", "always-force-quit", "always-automatic-pause",
            "provisional-always", "wheninuse-background-session",
        ])
    func replayMatches(preset: String) {
        replayMatches(trace: Self.drive, preset: preset)
    }

    private func replayMatches(trace: String, preset: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let arguments = ["replay", trace, "--scenario", preset, "--format", "json"]
        let direct = runCommand(arguments, engine: .builtIn)
        let facade = runCommand(arguments, engine: Self.throughFacade)
        #expect(direct.exitCode == 0, "\(direct.error)", sourceLocation: sourceLocation)
        #expect(facade.exitCode == direct.exitCode, sourceLocation: sourceLocation)
        expectSameLines(facade.output, direct.output, sourceLocation: sourceLocation)
    }

    /// Compares line by line so a failure names the first line that differs, then the bytes.
    private func expectSameLines(_ facade: String, _ direct: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let facadeLines = facade.split(separator: "\n", omittingEmptySubsequences: false)
        let directLines = direct.split(separator: "\n", omittingEmptySubsequences: false)
        if let index = zip(facadeLines, directLines).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            Issue.record(
                "line \(index + 1) differs:\n  facade:   \(facadeLines[index])\n  built-in: \(directLines[index])",
                sourceLocation: sourceLocation)
        }
        #expect(facadeLines.count == directLines.count, sourceLocation: sourceLocation)
        // A Boolean, so a failure does not print both reports whole.
        let isSame = facade == direct
        #expect(isSame, sourceLocation: sourceLocation)
        if !isSame, let folder = ProcessInfo.processInfo.environment["TRACESIM_DIFFERENTIAL_OUTPUT"] {
            let name = "\(sourceLocation.line)-\(facade.utf8.count)"
            try? facade.write(toFile: "\(folder)/\(name).facade", atomically: true, encoding: .utf8)
            try? direct.write(toFile: "\(folder)/\(name).built-in", atomically: true, encoding: .utf8)
        }
    }
}
