import Foundation
import TestSupport
import Testing

/// `matrix --bands` and `--sensitivity` on the command line, and the bands in `tracesim rules`.
/// Fast tier: the 9-minute pixel 6 walk, two scenarios.
@Suite("tracesim matrix --bands")
struct MatrixBandsCommandTests {
    static let walk = Repository.trace("gnss_lib_py/pixel6.nmea")

    @Test(
        "band options that cannot work are usage errors naming the conflict",
        arguments: [
            (["--sensitivity"], "--sensitivity reads the bands' runs; add --bands"),
            (["--bands", "--format", "jsonl"], "--bands prints a pooled table, not runs"),
            (["--bands", "--format", "json", "--shard", "1/2"], "a shard's part cannot carry them"),
            (["--bands", "--per-trace"], "--bands and --per-trace cannot be combined"),
            (["--bands", "--sensitivity", "--format", "csv"], "--sensitivity is for text, markdown and json, not csv"),
            (["--bands", "--sensitivity", "--format", "html"], "--sensitivity is for text, markdown and json, not html"),
            (["--bands=yes"], "bands"),
        ])
    func usageErrors(_ options: [String], _ message: String) {
        let result = runCommand(["matrix", Self.walk, "--scenarios", "denied"] + options)
        #expect(result.exitCode == 64, "\(options)")
        #expect(result.error.contains(message), "\(result.error)")
        #expect(result.output.isEmpty)
    }

    @Test("every format prints the banded table; JSON carries value, corners and range per figure")
    func formats() throws {
        let arguments = ["matrix", Self.walk, "--scenarios", "always-precise,denied", "--bands"]
        let text = runCommand(arguments + ["--sensitivity"])
        #expect(text.exitCode == 0, "\(text.error)")
        #expect(text.output.contains("ranges over 11 disputed bands"))
        #expect(text.output.contains("SENSITIVITY: the band that moves collected most"))
        #expect(text.output.contains("band forceQuitRelaunch: pessimistic regionRelaunchAfterForceQuit false"))
        let json = runCommand(arguments + ["--format", "json", "--sensitivity"])
        #expect(json.exitCode == 0, "\(json.error)")
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(object["kind"] as? String == "tracesim-bands")
        let rows = try #require(object["rows"] as? [[String: Any]])
        #expect(rows.compactMap { $0["scenario"] as? String } == ["always-precise", "denied"])
        let figures = try #require(rows[1]["figures"] as? [String: [String: Any]])
        // Denied collects nothing at every end of every band: a firm verdict.
        #expect(figures["collected"]?["value"] as? Double == 0 && figures["collected"]?["high"] as? Double == 0)
        #expect(Set(figures["collected"]?.keys.map { $0 } ?? []) == ["value", "pessimistic", "optimistic", "low", "high"])
        #expect((rows[0]["sensitivity"] as? [[String: Any]])?.count == 11)
        let csv = runCommand(arguments + ["--format", "csv"])
        #expect(csv.output.hasPrefix("scenario,collected,collected.pessimistic,collected.optimistic,collected.low,"))
        #expect(csv.output.split(separator: "\n").count == 3)
        let markdown = runCommand(arguments + ["--format", "markdown"])
        #expect(markdown.output.hasPrefix("| scenario | collected |"))
        let html = runCommand(arguments + ["--format", "html"])
        #expect(html.output.contains("<h1>Degradation table with bands</h1>"))
    }

    @Test("without --bands the matrix prints what it always has")
    func plainUnchanged() {
        let plain = runCommand(["matrix", Self.walk, "--scenarios", "always-precise,denied"])
        #expect(plain.exitCode == 0)
        #expect(!plain.output.contains("disputed bands") && !plain.output.contains("–"))
    }

    @Test("rules lists every band with the source and evidence of each end (text and JSON)")
    func rulesListBands() throws {
        let json = runCommand(["rules", "--format", "json"])
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(object["schemaVersion"] as? Int == 1)
        let bands = try #require(object["bands"] as? [[String: Any]])
        #expect(bands.count == 11)
        let cutoff = try #require(bands.first { $0["name"] as? String == "whenInUseCutoff" })
        for end in ["pessimistic", "default", "optimistic"] {
            let bound = try #require(cutoff[end] as? [String: Any], "\(end)")
            #expect(!((bound["source"] as? String) ?? "").isEmpty && bound["evidence"] is String)
        }
        let settings = { (end: String) in
            ((cutoff[end] as? [String: Any])?["settings"] as? [[String: Any]])?.first?["value"] as? Double
        }
        #expect([settings("pessimistic"), settings("default"), settings("optimistic")] == [13, 70, 1_200])
        let relaunch = try #require(bands.first { $0["name"] as? String == "forceQuitRelaunch" })
        let defaults = (relaunch["default"] as? [String: Any])?["settings"] as? [[String: Any]]
        #expect(defaults?.first?["value"] as? String == "profile")
        let text = runCommand(["rules"])
        #expect(text.output.contains("BANDS (11;"))
        #expect(text.output.contains("  pessimistic  whenInUseLockCutoffSeconds 13"))
    }
}
