import Device
import Engine
import Foundation
import Scenarios
import SimulationCore
import TestSupport
import Testing

/// Exit codes CI can act on: a run whose engine crashed, hung or broke the protocol exits 70 in
/// `replay`, `matrix`, `check` and `tune`, apart from a violated threshold (1); `check` still
/// writes its JUnit file, with an `<error>` for the failed run; no exit code is undocumented.
@Suite("Exit codes: a failed engine is 70, every code documented")
struct ExitCodeTests {
    static let bike = Repository.trace("gpsbabel/bike.tcx")

    /// An engine that gives up at its first fix with a message meant to forge report lines.
    static let hostile = EngineUnderTest.custom(named: "hostile") { _ in
        GivingUpClient(message: "gave up\u{1B}[2J\r\nFAIL nothing <b>&</b> `x`")
    }

    static func run(_ arguments: [String], engine: EngineUnderTest = .builtIn) -> CommandResult {
        runCommand(arguments, engine: engine)
    }

    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tracesim-exit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func expectations(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("expect.json").path
        try Data(#"{"thresholds": [{"scenario": "always-precise", "metric": "collectionRatio", "min": 0.5}]}"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("check with a failing engine exits 70, not 1, and writes JUnit with an <error> and Markdown saying so")
    func checkWritesTheFailedRun() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("report.xml").path
        let markdown = folder.appendingPathComponent("report.md").path
        let result = Self.run(
            ["check", Self.bike, "--expect", try Self.expectations(in: folder), "--junit", junit, "--markdown", markdown],
            engine: Self.hostile)
        #expect(result.exitCode == 70, "\(result.error)")
        #expect(result.error.hasPrefix("error: engine hostile: gave up"), "\(result.error)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<testsuites name="tracesim check" tests="1" failures="0" errors="1">"#), "\(xml)")
        #expect(
            xml.contains(
                #"<error type="EngineFailure" message="engine hostile: gave up\u{1B}[2J\r\nFAIL nothing &lt;b&gt;&amp;&lt;/b&gt; `x`"/>"#),
            "\(xml)")
        #expect(!xml.contains("<failure"))
        // No control character reaches the XML: XML 1.0 allows them in no form.
        #expect(!xml.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        let text = try String(contentsOfFile: markdown, encoding: .utf8)
        #expect(
            text == "### tracesim check: error: the engine under test failed, so no threshold was checked\n\n"
                + "`` engine hostile: gave up\\u{1B}[2J\\r\\nFAIL nothing <b>&</b> `x` ``\n")
    }

    @Test("check with an engine command that exits at once: 70 and the JUnit error names the command")
    func checkWithSubprocessEngine() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("report.xml").path
        let result = runCommand([
            "check", Self.bike, "--expect", try Self.expectations(in: folder), "--junit", junit,
            "--engine-command", "exit 3",
        ])
        #expect(result.exitCode == 70, "\(result.error)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<testsuite name="engine 'exit 3'" tests="1" failures="0" errors="1">"#), "\(xml)")
        #expect(xml.contains(#"<error type="EngineFailure" message="engine 'exit 3': run "#), "\(xml)")
    }

    @Test("check with a failing engine and a report it cannot write: the report's code (73), both messages")
    func checkFailedRunAndUnwritableReport() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = Self.run(
            ["check", Self.bike, "--expect", try Self.expectations(in: folder), "--junit", folder.path],
            engine: Self.hostile)
        #expect(result.exitCode == 73)
        #expect(result.error.contains("cannot write: it is a directory"), "\(result.error)")
        #expect(result.error.contains("error: engine hostile: gave up"), "\(result.error)")
    }

    @Test(
        "replay, matrix and tune exit 70 when the engine fails, as check does",
        arguments: [
            ["replay", bike, "--scenario", "always-precise"], ["matrix", bike, "--scenarios", "always-precise"],
            ["matrix", bike, "--scenarios", "always-precise", "--format", "jsonl"],
        ])
    func failedRunIs70(arguments: [String]) {
        let result = Self.run(arguments, engine: Self.hostile)
        #expect(result.exitCode == 70, "\(result.error)")
        #expect(result.error.hasPrefix("error: engine hostile: gave up"), "\(result.error)")
    }

    @Test("tune with an engine that takes its settings and fails exits 70")
    func tuneFailedRun() {
        let engine = EngineUnderTest.custom(named: "hostile", honoursEngineSettings: true) { _ in
            GivingUpClient(message: "gave up")
        }
        let result = Self.run(["tune", Self.bike, "--sweep", "distanceFilter=10"], engine: engine)
        #expect(result.exitCode == 70, "\(result.error)")
        #expect(result.error == "error: engine hostile: gave up\n")
    }

    @Test("check --junit to a folder that does not exist yet is 73, never an undocumented code")
    func junitToNewFolder() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("newdir").path
        for path in [missing + "/", missing + "/report.xml"] {
            let result = runCommand(["check", Self.bike, "--expect", try Self.expectations(in: folder), "--junit", path])
            #expect(result.exitCode == 73, "\(path): \(result.error)")
            #expect(result.error.hasPrefix("error: \(path): cannot write: "), "\(result.error)")
        }
    }

    @Test("tune --write-scenario with no row meeting the constraints exits 1, as its help says, and writes nothing")
    func tuneNoRowMeetsConstraints() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = folder.appendingPathComponent("chosen.json").path
        let result = runCommand([
            "tune", Self.bike, "--sweep", "distanceFilter=10", "--require", "recordedFixes>=1e9",
            "--write-scenario", scenario,
        ])
        #expect(result.exitCode == 1)
        #expect(result.error == "error: --write-scenario: no row meets every constraint; nothing written\n")
        #expect(!FileManager.default.fileExists(atPath: scenario))
        let help = runCommand(["help", "tune"]).output.replacingOccurrences(of: "\n  ", with: " ")
        #expect(help.contains("1 no row meets every --require constraint, so --write-scenario wrote nothing"))
    }

    @Test("every command that replays an engine documents 70 in its help", arguments: ["replay", "matrix", "check", "tune"])
    func documentedInHelp(command: String) throws {
        let help = runCommand(["help", command]).output
        let exitStatus = try #require(help.components(separatedBy: "EXIT STATUS:").last)
        #expect(
            exitStatus.replacingOccurrences(of: "\n  ", with: " ").contains(
                "70 the engine under test crashed, hung or broke the protocol"))
    }

    @Test("the README's table lists 70 and 130/143")
    func documented() throws {
        let readme = try String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("\n| 70 | a run failed: the engine under test crashed, hung or broke the protocol"))
        #expect(readme.contains("\n| 130, 143 | "))
    }
}

/// Starts background updates and gives up, with `message`, at its first location.
private struct GivingUpClient: RecordingClient {
    let message: String
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
        if !locations.isEmpty, failure == nil { failure = EngineFailure(message) }
    }

    func finish(at now: SimInstant) {}
}
