import Foundation
import TestSupport
import Testing
import Synchronization
import TraceSimCLI

/// `--quiet` is accepted by every command and does what its help says everywhere: no notes and
/// no progress bar; warnings and errors are still printed.
@Suite("--quiet")
struct QuietFlagTests {
    /// A TraceSim CSV with two records skipped for an impossible field, which earns a note.
    private static func noted() throws -> String {
        let rows =
            "time,lat,lon\n2024-05-01T10:00:00Z,48,11\n2024-05-01T10:00:01Z,95,11\n2024-05-01T10:00:02Z,x,11\n"
            + "2024-05-01T10:00:03Z,48.0001,11\n"
        return try TemporaryFile.write("noted.csv", rows, prefix: "quiet")
    }

    @Test(
        "--quiet drops the note every trace command prints about skipped records",
        arguments: [
            ["track"], ["replay", "--scenario", "ideal"], ["matrix", "--scenarios", "always-precise"],
            ["tune", "--sweep", "gate.horizontalAccuracy=10:20:10"],
        ])
    func notesDropped(command: [String]) throws {
        let path = try Self.noted()
        let loud = runCommand(command + [path])
        #expect(loud.error.contains("note: \(path): 2 records with an impossible field skipped"))
        let quiet = runCommand(command + [path, "--quiet"])
        #expect(quiet.exitCode == loud.exitCode)
        #expect(quiet.output == loud.output)
        #expect(!quiet.error.contains("note:"))
    }

    @Test("--quiet keeps errors and their exit codes")
    func errorsKept() throws {
        let missing = "/nonexistent-\(UUID()).gpx"
        let result = runCommand(["track", missing, "--quiet"])
        #expect(result.exitCode == 66)
        #expect(result.error.hasPrefix("error: "))
        let usage = runCommand(["matrix", "--quiet"])
        #expect(usage.exitCode == 64)
        #expect(usage.error.contains("matrix needs at least one trace file"))
    }

    @Test("--quiet keeps warnings: what the output lost")
    func warningsKept() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("quiet-\(UUID()).csv").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let result = runCommand(["convert", "--quiet", Repository.trace("gpsbabel/2013_JUNE.json"), output])
        #expect(result.error.hasPrefix("warning: 301 motion samples not written"))
    }

    @Test("no progress bar under --quiet, even on a terminal")
    func noProgress() throws {
        let path = try Self.noted()
        let error = Mutex("")
        var console = Console(output: { _ in }, error: { text in error.withLock { $0 += text } }, errorIsTerminal: true)
        #expect(TraceSimCommandLine.run(["matrix", path, "--scenarios", "always-precise,denied"], console: console) == 0)
        #expect(error.withLock { $0 }.contains("replays"))
        error.withLock { $0 = "" }
        console = Console(output: { _ in }, error: { text in error.withLock { $0 += text } }, errorIsTerminal: true)
        #expect(TraceSimCommandLine.run(["matrix", path, "--scenarios", "always-precise,denied", "--quiet"], console: console) == 0)
        #expect(error.withLock { $0 }.isEmpty)
    }

    @Test(
        "every command accepts --quiet and lists it in its help",
        arguments: [
            "inspect", "convert", "rules", "permissions", "track", "scenarios", "replay", "matrix", "check", "merge", "tune",
        ])
    func acceptedEverywhere(name: String) {
        #expect(runCommand(["help", name]).output.contains("\n  --quiet "))
        #expect(!runCommand([name, "--quiet"]).error.contains("unknown option"))
    }
}
