import Engine
import Foundation
import Geometry
import Scenarios
import Synchronization
import Testing
import TraceSimCLI
import TraceSimCoreLocation

/// The built-in engine run directly and through the Core Location facade must print the same
/// bytes: every bundled trace, every preset, in every matrix format, and replays in JSON.
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

    /// Every bundled trace, as `Scripts/run.sh` lists them.
    static let traces: [String] = {
        let folder = repositoryRoot.appendingPathComponent("Traces")
        let files =
            FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL } ?? []
        return
            files
            .filter { !$0.hasDirectoryPath && $0.pathExtension != "md" }
            .map(\.path)
            .filter { !$0.contains("/Traces/LICENSES/") }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }()

    /// The u-blox drive of the SPAN pair: 2 h of 1 Hz driving, with stops.
    static let drive = path("gps-measurement-tools/MTV.Local1.ublox-F9K.20200206-181434.nmea")

    @Test("the bundled traces are all found")
    func tracesFound() {
        #expect(Self.traces.count == 14)
    }

    static var everyPreset: String { Scenario.presets.map(\.name).joined(separator: ",") }

    @Test(
        "matrix over every bundled trace and preset prints the built-in run's bytes",
        arguments: ["text", "json", "csv", "markdown"])
    func matrixMatches(format: String) async {
        // --date dates the one log that never dates itself, as Scripts/run.sh does.
        let arguments =
            ["matrix"] + Self.traces + ["--date", "2020-02-07", "--scenarios", Self.everyPreset, "--format", format]
        let direct = await runOffPool(arguments, engine: .builtIn)
        let facade = await runOffPool(arguments, engine: Self.throughFacade)
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
        replayMatches(trace: Self.path("gpsbabel/2013_JUNE.json"), preset: "always-force-quit")
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
        let direct = run(arguments, engine: .builtIn)
        let facade = run(arguments, engine: Self.throughFacade)
        #expect(direct.exitCode == 0, "\(direct.error)", sourceLocation: sourceLocation)
        #expect(facade.exitCode == direct.exitCode, sourceLocation: sourceLocation)
        expectSameLines(facade.output, direct.output, sourceLocation: sourceLocation)
    }

    static func path(_ relative: String) -> String {
        repositoryRoot.appendingPathComponent("Traces/" + relative).path
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

struct CommandResult {
    var exitCode: Int32
    var output: String
    var error: String
}

/// Runs the command line with `engine` on a thread of its own and waits for it without holding
/// one of Swift concurrency's threads: a whole matrix takes tens of seconds, and other suites'
/// replays need those threads for their apps' tasks meanwhile.
func runOffPool(_ arguments: [String], engine: EngineUnderTest) async -> CommandResult {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: run(arguments, engine: engine)) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}

/// Runs the command line in-process with `engine` and captures what it prints.
func run(_ arguments: [String], engine: EngineUnderTest) -> CommandResult {
    let output = Mutex("")
    let error = Mutex("")
    let console = Console(
        output: { text in output.withLock { $0 += text } },
        error: { text in error.withLock { $0 += text } })
    let code = TraceSimCommandLine.run(arguments, console: console, engine: engine)
    return CommandResult(exitCode: code, output: output.withLock { $0 }, error: error.withLock { $0 })
}

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
