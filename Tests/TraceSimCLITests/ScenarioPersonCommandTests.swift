import Foundation
import Scenarios
import Synchronization
import TestSupport
import Testing

@testable import TraceSimCLI

/// Issue 30 §3 and §9 on the command line: the drift mark in every format, scenario files with a
/// person, `--scenarios all,FILE.json`, the program's own name, and an engine that cannot start.
@Suite("Command line: the scenario's person, --scenarios mixes, program names, engines that cannot start")
struct ScenarioPersonCommandTests {
    /// A scratch folder removed with the value.
    final class Scratch {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tracesim-person-\(UUID().uuidString)")
            .path
        init() throws { try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: root) }

        func write(_ name: String, _ text: String) throws -> String {
            let path = root + "/" + name
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    static let walk = TestTier.shortTraces[0]
    static let asker = EngineUnderTest.custom(named: "asks-for-always") { _ in AuthorizationAskingClient() }

    /// When-In-Use, a person who accepts the Always upgrade, and the promise of When-In-Use.
    static let accepting = #"""
        {"name": "accepts",
         "device": {"authorization": {"location": "authorizedWhenInUse", "precise": true, "motion": "authorized"}},
         "authorization": {"user": {"answers": [{"prompt": "upgrade", "answer": "changeToAlwaysAllow"}]}},
         "expectedAuthorization": "authorizedWhenInUse"}
        """#

    private static let mark = "accepts → authorizedAlways, not the authorizedWhenInUse the scenario promises"

    @Test("a drifted run is marked in text, JSON and HTML")
    func driftMarkedInEveryFormat() throws {
        let scratch = try Scratch()
        let file = try scratch.write("accepts.json", Self.accepting)
        let arguments = ["replay", Self.walk, "--scenario", file]
        let text = runCommand(arguments, engine: Self.asker)
        #expect(text.exitCode == 0, "\(text.error)")
        #expect(text.output.contains("note: \(Self.mark) (from +2.0 s)"), "\(text.output)")
        let json = runCommand(arguments + ["--format", "json"], engine: Self.asker)
        #expect(
            json.output.contains(
                #""authorizationDrift":{"expected":"authorizedWhenInUse","final":"authorizedAlways","t":2}"#),
            "\(json.output)")
        let html = runCommand(arguments + ["--format", "html"], engine: Self.asker)
        #expect(html.output.contains(Self.mark), "no mark in the page")
    }

    @Test("the matrix counts the marked runs under its table, and summarize reads them back from JSON Lines")
    func matrixCountsMarkedRuns() throws {
        let scratch = try Scratch()
        let file = try scratch.write("accepts.json", Self.accepting)
        let arguments = ["matrix", Self.walk, TestTier.shortTraces[1], "--scenarios", "wheninuse-locked,\(file)"]
        let table = runCommand(arguments, engine: Self.asker)
        #expect(table.exitCode == 0, "\(table.error)")
        #expect(table.output.contains("note: \(Self.mark), in 2 runs"), "\(table.output)")
        #expect(!table.output.contains("wheninuse-locked →"))
        let lines = runCommand(arguments + ["--format", "jsonl"], engine: Self.asker)
        let saved = try scratch.write("runs.jsonl", lines.output)
        let summary = runCommand(["summarize", saved])
        #expect(summary.exitCode == 0, "\(summary.error)")
        #expect(summary.output == table.output)
    }

    @Test("a saved run whose authorizationDrift is malformed is refused, naming the member")
    func malformedSavedDrift() throws {
        let scratch = try Scratch()
        let file = try scratch.write("accepts.json", Self.accepting)
        let lines = runCommand(
            ["matrix", Self.walk, "--scenarios", file, "--format", "jsonl"], engine: Self.asker
        ).output
        #expect(lines.contains("\"authorizationDrift\""))
        let broken = lines.replacingOccurrences(of: #""final":"authorizedAlways""#, with: #""final":"sometimes""#)
        let summary = runCommand(["summarize", try scratch.write("runs.jsonl", broken)])
        #expect(summary.exitCode == 65)
        #expect(summary.error.contains("$.authorizationDrift.final"), "\(summary.error)")
    }

    @Test(
        "a scenario file with a bad user exits 65 naming the file and line",
        arguments: [
            #"{"name": "a",\#n "authorization": {"user": "nobody"}}"#,
            #"{"name": "a",\#n "authorization": {"user": {"answers": [{"prompt": "motion", "answer": "changeToAlwaysAllow"}]}}}"#,
            #"{"name": "a",\#n "authorization": {}}"#,
        ])
    func badUserExits65(text: String) throws {
        let scratch = try Scratch()
        let file = try scratch.write("bad.json", text)
        let result = runCommand(["replay", Self.walk, "--scenario", file])
        #expect(result.exitCode == 65)
        #expect(result.error.contains("bad.json:2:"), "\(result.error)")
    }

    @Test("--scenarios all,FILE.json runs every preset but ideal, then the file")
    func allAndAFile() throws {
        let scratch = try Scratch()
        let file = try scratch.write("accepts.json", Self.accepting)
        let chosen = try ReplayArguments.scenarios("all,\(file)", command: "matrix", console: Console.capturing)
        let names = chosen.map(\.scenario.name)
        #expect(names == Scenario.presets.dropFirst().map(\.name) + ["accepts"])
        let result = runCommand(["matrix", Self.walk, "--scenarios", "all,\(file)", "--format", "csv"])
        #expect(result.exitCode == 0, "\(result.error)")
        // A header and one row per scenario.
        #expect(result.output.split(separator: "\n").count == 1 + Scenario.presets.count)
    }

    @Test(
        "--scenarios refuses a mix with all that would print two rows of one name",
        arguments: [
            ("all,all", "--scenarios names 'all' more than once"),
            ("all,denied", "'denied' is already one of the presets 'all' runs"),
            ("all,,denied", "unknown scenario ''"),
            ("all,alll", "did you mean 'all'?"),
            ("all,denid", "did you mean 'denied'?"),
        ])
    func badMixes(list: String, message: String) {
        let result = runCommand(["matrix", Self.walk, "--scenarios", list])
        #expect(result.exitCode == 64)
        #expect(result.error.contains(message), "\(result.error)")
    }

    @Test("--scenarios all with a scenario file named like a preset is refused")
    func fileNamedLikeAPreset() throws {
        let scratch = try Scratch()
        let file = try scratch.write("denied.json", #"{"name": "denied"}"#)
        let result = runCommand(["matrix", Self.walk, "--scenarios", "all,\(file)"])
        #expect(result.exitCode == 64)
        #expect(result.error.contains("is named 'denied', a preset 'all' runs"), "\(result.error)")
    }

    /// Runs a command line as the program `name`.
    private func runAs(_ name: String, _ arguments: [String], engine: EngineUnderTest = .builtIn) -> CommandResult {
        let output = Mutex("")
        let error = Mutex("")
        var console = Console(
            output: { text in output.withLock { $0 += text } }, error: { text in error.withLock { $0 += text } })
        console.programName = name
        let code = TraceSimCommandLine.run(arguments, console: console, engine: engine)
        return CommandResult(exitCode: code, output: output.withLock { $0 }, error: error.withLock { $0 })
    }

    @Test("a user program's help and errors name that program")
    func programNameInHelpAndErrors() {
        let help = runAs("trip-tracker", ["help", "matrix"])
        #expect(help.output.contains("USAGE: trip-tracker matrix "))
        #expect(help.output.contains("'trip-tracker scenarios'"))
        #expect(!help.output.contains("tracesim "), "\(help.output)")
        #expect(help.output.contains("\"tracesim-runs\""), "a JSON Lines kind is not the program's name")
        let overview = runAs("trip-tracker", ["--help"])
        #expect(overview.output.contains("USAGE: trip-tracker <command>"))
        #expect(overview.output.contains("Run 'trip-tracker help <command>'"))
        let usage = runAs("trip-tracker", ["matrix", Self.walk, "--scenarios", "denid"])
        #expect(usage.exitCode == 64)
        #expect(usage.error.contains("see 'trip-tracker scenarios'"), "\(usage.error)")
        #expect(usage.error.hasSuffix("Run 'trip-tracker help matrix' for usage.\n"))
        let unknown = runAs("trip-tracker", ["matrx"])
        #expect(unknown.error.hasSuffix("Run 'trip-tracker --help' for usage.\n"))
        // The refusal of --engine-command points to TraceSim's own tool, which a user program is not.
        let refused = runAs(
            "trip-tracker", ["replay", Self.walk, "--scenario", "ideal", "--engine-command", "x"], engine: Self.asker)
        #expect(refused.error.contains("run 'tracesim' for a subprocess engine"), "\(refused.error)")
        #expect(runCommand(["help", "matrix"]).output.contains("USAGE: tracesim matrix "))
    }

    @Test("the program's name is the last path component it was started by")
    func programNameFromInvocation() {
        #expect(ProgramName.of(invocation: "/usr/local/bin/trip-tracker") == "trip-tracker")
        #expect(ProgramName.of(invocation: ".build/debug/tracesim") == "tracesim")
        #expect(ProgramName.of(invocation: "trip-tracker") == "trip-tracker")
        #expect(ProgramName.of(invocation: "") == "tracesim")
        #expect(ProgramName.of(invocation: nil) == "tracesim")
        #expect(ProgramName.rename("see `tracesim inspect` and tracesim-runs", to: "x") == "see `x inspect` and tracesim-runs")
    }

    @Test(
        "an engine that cannot start prints its error once, and TraceSim's once",
        arguments: ["sh missing-engine.sh", "nosuchprog-for-tracesim"])
    func engineThatCannotStart(command: String) throws {
        let result = try runBinary(["replay", Self.walk, "--scenario", "wheninuse-locked", "--engine-command", command])
        #expect(result.exitCode == 70)
        let lines = result.error.split(separator: "\n")
        #expect(lines.count == 2, "\(result.error)")
        #expect(lines.filter { $0.contains("missing-engine.sh") || $0.contains("nosuchprog") }.count == 2)
        #expect(lines.last?.hasPrefix("error: engine '\(command)'") == true, "\(result.error)")
    }
}

extension Console {
    /// A console that keeps nothing.
    fileprivate static var capturing: Console { Console(output: { _ in }, error: { _ in }) }
}
