import Foundation
import TestSupport
import Testing

/// One rule for the inputs of a fleet, in every command that walks one: an input with no
/// record at all is noted and skipped; one whose records cannot be read or timed fails at the
/// end; and a whole run in which no input gave a trace is not a result (66), though what it
/// wrote still accounts for every input.
@Suite("The fleet's rule for inputs with no records: tune, matrix, summarize")
struct FleetNoRecordsRuleTests {
    static let tunnel = Repository.trace("mapbox-navigation-ios/tunnel.json")
    /// GGA alone: no date anywhere, so no timed fix without --date.
    static let undated = Repository.trace("gps-measurement-tools/MTV.Local1.SPAN.20200206-181434.gga")
    static let headerOnly = "time,lat,lon\n"

    private func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    @Test("tune walking a folder with a header-only file skips it with a note and exits 0, as matrix does")
    func tuneSkipsHeaderOnly() throws {
        let folder = try MergeIdentityTests.Folder()
        try FileManager.default.copyItem(atPath: Self.tunnel, toPath: folder.path("a.json"))
        let empty = try folder.write(Self.headerOnly, "b-empty.csv")
        let tune = runCommand(["tune", folder.url.path, "--sweep", "distanceFilter=0,10", "--format", "csv"])
        #expect(tune.exitCode == 0, "\(tune.error)")
        #expect(tune.error == "note: \(empty): no records (a header alone?); skipped\n")
        // The table pools the one trace exactly as a run over that trace alone does.
        let alone = runCommand(["tune", folder.path("a.json"), "--sweep", "distanceFilter=0,10", "--format", "csv"])
        #expect(alone.exitCode == 0, "\(alone.error)")
        #expect(!tune.output.isEmpty)
        #expect(tune.output == alone.output)
        // The help says what the code does.
        #expect(runCommand(["tune", "--help"]).output.contains("record at all (a header alone) is noted and skipped"))
    }

    @Test("tune still fails at the end (65) for an input whose records cannot be timed, after the others ran")
    func tuneUntimedFails() throws {
        let tune = runCommand(["tune", Self.undated, Self.tunnel, "--sweep", "distanceFilter=0,10", "--format", "csv"])
        #expect(tune.exitCode == 65)
        #expect(tune.error.hasPrefix("error: \(Self.undated): no timed fixes to replay"), "\(tune.error)")
        #expect(!tune.output.isEmpty)
    }

    @Test("tune over inputs that are all header-only prints no table and exits 66, naming why")
    func tuneAllSkipped() throws {
        let folder = try MergeIdentityTests.Folder()
        let first = try folder.write(Self.headerOnly, "a.csv")
        let second = try folder.write(Self.headerOnly, "b.csv")
        let tune = runCommand(["tune", folder.url.path, "--sweep", "distanceFilter=0,10"])
        #expect(tune.exitCode == 66)
        #expect(tune.output.isEmpty)
        #expect(
            tune.error
                == "note: \(first): no records (a header alone?); skipped\n"
                + "note: \(second): no records (a header alone?); skipped\n"
                + "error: tune: no trace among the inputs (every input held no records and was skipped)\n")
    }

    @Test("an unsharded matrix whose inputs are all header-only writes its closing record, then exits 66")
    func matrixAllSkipped() throws {
        let folder = try MergeIdentityTests.Folder()
        let first = try folder.write(Self.headerOnly, "a.csv")
        let second = try folder.write(Self.headerOnly, "b.csv")
        let base = ["matrix", folder.url.path, "--scenarios", "denied"]
        let whole = runCommand(base + ["--format", "jsonl"])
        #expect(whole.exitCode == 66)
        #expect(
            lines(whole.output).last
                == #"{"kind":"tracesim-runs-end","inputs":2,"read":0,"traces":0,"skipped":[{"input":1,"path":""#
                + first + #"","reason":"no records"},{"input":2,"path":""# + second
                + #"","reason":"no records"}],"failed":[]}"#)
        #expect(
            lines(whole.error).last
                == "error: matrix: no trace among the inputs (every input held no records and was skipped)")
        #expect(runCommand(base).exitCode == 66)
        // A part whose inputs were all skipped is a valid part: the other parts may hold traces.
        let part = runCommand(base + ["--format", "jsonl", "--shard", "1/2"])
        #expect(part.exitCode == 0, "\(part.error)")
        #expect(lines(part.output).last?.hasPrefix(#"{"kind":"tracesim-runs-end""#) == true)

        // summarize of the whole run says there is nothing to tabulate and names the skipped
        // inputs, rather than print nothing.
        let runs = try folder.write(whole.output, "runs.jsonl.out")
        let summary = runCommand(["summarize", runs])
        #expect(summary.exitCode == 0, "\(summary.error)")
        #expect(summary.output.isEmpty)
        #expect(
            summary.error
                == "note: 2 inputs skipped: no records (\(first), \(second))\n"
                + "note: the runs hold no trace, so there is nothing to tabulate\n")
    }

    @Test("a header-only file named to check stays an error (65): a threshold on it could not apply")
    func checkRefusesHeaderOnly() throws {
        let folder = try MergeIdentityTests.Folder()
        let empty = try folder.write(Self.headerOnly, "empty.csv")
        let expectations = try folder.write(
            #"{"thresholds": [{"scenario": "ideal", "metric": "acceptedFixes", "min": 1}]}"#, "expect.json")
        let check = runCommand(["check", empty, Self.tunnel, "--expect", expectations])
        #expect(check.exitCode == 65)
        #expect(check.error == "error: \(empty): no timed fixes to replay\n")
    }

    @Test("summarize names the inputs the closing record lists as skipped, after matrix's own tables")
    func summarizeNotesSkipped() throws {
        let folder = try MergeIdentityTests.Folder()
        try FileManager.default.copyItem(atPath: Self.tunnel, toPath: folder.path("a.json"))
        let empty = try folder.write(Self.headerOnly, "b-empty.csv")
        let base = ["matrix", folder.url.path, "--scenarios", "denied"]
        let jsonl = runCommand(base + ["--format", "jsonl"])
        #expect(jsonl.exitCode == 0, "\(jsonl.error)")
        let text = runCommand(base)
        #expect(text.exitCode == 0, "\(text.error)")
        let runs = try folder.write(jsonl.output, "runs.jsonl.out")
        let summary = runCommand(["summarize", runs])
        #expect(summary.exitCode == 0, "\(summary.error)")
        #expect(!text.output.isEmpty)
        #expect(summary.output == text.output)
        #expect(summary.error == "note: 1 input skipped: no records (\(empty))\n")
    }
}
