import Foundation
import TestSupport
import Testing

/// Paths and values that reach a message from a file name, a part's header or closing record,
/// or the command line have their control characters escaped: none reaches standard error raw.
@Suite("Control characters in quoted paths and values")
struct ControlCharacterMessageTests {
    static let tunnel = Repository.trace("mapbox-navigation-ios/tunnel.json")
    /// GGA alone: no date anywhere, so no timed fix without --date.
    static let undated = Repository.trace("gps-measurement-tools/MTV.Local1.SPAN.20200206-181434.gga")
    /// A name that would clear the screen and rewrite the line if printed raw.
    static let hostile = "x\u{1B}[2J\rFAIL"
    static let escaped = #"x\u{1B}[2J\rFAIL"#

    private func expectNoControls(_ text: String, _ comment: String = "") {
        #expect(!text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\r" }, "\(comment): \(text.debugDescription)")
    }

    /// A fleet folder with a good trace, an undated one and a header-only one, the last two
    /// under hostile names.
    private func fleet() throws -> MergeIdentityTests.Folder {
        let folder = try MergeIdentityTests.Folder()
        try FileManager.default.copyItem(atPath: Self.tunnel, toPath: folder.path("a.json"))
        try FileManager.default.copyItem(atPath: Self.undated, toPath: folder.path("b-\(Self.hostile).gga"))
        _ = try folder.write("time,lat,lon\n", "c-\(Self.hostile).csv")
        return folder
    }

    @Test("walked names in matrix's notes, errors and closing record; summarize and merge quote the header's paths")
    func walkedNames() throws {
        let folder = try fleet()
        let result = runCommand(["matrix", folder.url.path, "--scenarios", "denied", "--format", "jsonl"])
        #expect(result.exitCode == 65, "\(result.error)")
        expectNoControls(result.error, "matrix")
        #expect(result.error.contains("note: \(folder.path("c-\(Self.escaped).csv")): no records"), "\(result.error)")
        #expect(result.error.contains("error: \(folder.path("b-\(Self.escaped).gga")): no timed fixes"), "\(result.error)")
        // The closing record keeps the reason without the file's name, however the name is quoted.
        let closing = try #require(result.output.split(separator: "\n").last)
        #expect(closing.contains(#""reason":"no timed fixes to replay""#), "\(closing)")
        #expect(closing.contains(#""reason":"no records""#), "\(closing)")

        let runs = try folder.write(result.output, "runs.jsonl")
        let summary = runCommand(["summarize", runs])
        #expect(summary.exitCode == 65)
        expectNoControls(summary.error, "summarize")
        #expect(summary.error.contains("input 2 '\(folder.path("b-\(Self.escaped).gga"))' failed"), "\(summary.error)")
        let merged = runCommand(["merge", "--allow-partial", runs])
        expectNoControls(merged.error, "merge")

        // Cut before its closing record: the first input missing is named from the header.
        let cut = result.output.split(separator: "\n").dropLast().joined(separator: "\n") + "\n"
        let stopped = runCommand(["summarize", try folder.write(cut, "cut.jsonl")])
        #expect(stopped.exitCode == 65)
        expectNoControls(stopped.error, "cut")
        #expect(stopped.error.contains(Self.escaped), "\(stopped.error)")
    }

    @Test("a closing record's reason with control characters is escaped in summarize's and merge's messages")
    func closingReason() throws {
        let folder = try fleet()
        let result = runCommand(["matrix", folder.url.path, "--scenarios", "denied", "--format", "jsonl"])
        let edited = result.output.replacingOccurrences(
            of: #""reason":"no timed fixes to replay""#, with: #""reason":"ok\u001b[2J\r### FAIL""#)
        #expect(edited != result.output)
        let runs = try folder.write(edited, "runs.jsonl")
        for command in [["summarize", runs], ["merge", runs], ["merge", "--allow-partial", runs]] {
            let outcome = runCommand(command)
            expectNoControls(outcome.error, "\(command)")
            #expect(outcome.error.contains(#"ok\u{1B}[2J\r### FAIL"#), "\(command): \(outcome.error)")
        }
    }

    @Test("a file that cannot be opened is named escaped")
    func unopenable() throws {
        let folder = try MergeIdentityTests.Folder()
        let missing = folder.path("gone-\(Self.hostile).jsonl")
        for command in [["summarize", missing], ["merge", missing]] {
            let outcome = runCommand(command)
            #expect(outcome.exitCode == 66, "\(command): \(outcome.error)")
            expectNoControls(outcome.error, "\(command)")
            #expect(outcome.error.contains(folder.path("gone-\(Self.escaped).jsonl")), "\(outcome.error)")
        }
    }

    @Test("a part, runs file or scenario file under a hostile name with bad content is named escaped")
    func badContent() throws {
        let folder = try MergeIdentityTests.Folder()
        let part = try folder.write(#"{"x":1}"#, "p-\(Self.hostile).json")
        let runs = try folder.write("nope\n", "r-\(Self.hostile).jsonl")
        let scenario = try folder.write("{", "s-\(Self.hostile).json")
        for command in [["merge", part], ["summarize", runs], ["replay", Self.tunnel, "--scenario", scenario]] {
            let outcome = runCommand(command)
            #expect(outcome.exitCode == 65, "\(command): \(outcome.error)")
            expectNoControls(outcome.error, "\(command)")
            #expect(outcome.error.hasPrefix("error: \(folder.path(""))"), "\(outcome.error)")
            #expect(outcome.error.contains(Self.escaped), "\(command): \(outcome.error)")
        }
    }

    @Test(
        "a typed --scenario or --sweep value is escaped in its usage error",
        arguments: [
            ["replay", tunnel, "--scenario", hostile], ["matrix", tunnel, "--scenarios", "denied,\(hostile)"],
            ["tune", tunnel, "--sweep", "distanceFilter=\(hostile)"], ["tune", tunnel, "--sweep", "\(hostile)=1"],
            ["tune", tunnel, "--require", "recordedFixes>=\(hostile)"], ["tune", tunnel, "--objective", hostile],
        ])
    func typedValues(arguments: [String]) {
        let outcome = runCommand(arguments)
        #expect(outcome.exitCode == 64, "\(arguments): \(outcome.error)")
        expectNoControls(outcome.error, "\(arguments)")
        #expect(outcome.error.contains(Self.escaped), "\(arguments): \(outcome.error)")
    }
}
