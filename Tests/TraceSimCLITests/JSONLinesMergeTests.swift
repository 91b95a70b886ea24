import Foundation
import TestSupport
import Testing

/// One matrix of bundled traces saved as JSON Lines, shared by the merge and summarize tests
/// (a matrix is the slow part of each).
enum SavedRuns {
    static let traces = [
        "mapbox-navigation-ios/tunnel.json", "gpsbabel/bike.tcx", "gpsd/haicom-305N.log", "gnss_lib_py/pixel6.nmea",
    ].map(Repository.trace)

    /// `matrix TRACES... --format jsonl`, unsharded.
    static let whole: String = {
        let result = runCommand(["matrix"] + traces + ["--format", "jsonl"])
        precondition(result.exitCode == 0, result.error)
        return result.output
    }()

    /// Writes the parts of `count` shards into `folder`, named `part-K.jsonl`.
    static func parts(_ count: Int, in folder: MergeIdentityTests.Folder, arguments: [String] = traces) throws
        -> [String]
    {
        try (1...count).map { index in
            let result = runCommand(["matrix"] + arguments + ["--format", "jsonl", "--shard", "\(index)/\(count)"])
            #expect(result.exitCode == 0, "\(result.error)")
            return try folder.write(result.output, "part-\(index).jsonl")
        }
    }
}

/// `tracesim merge` of JSON Lines parts: the unsharded bytes, read a line at a time.
@Suite("tracesim merge: JSON Lines parts")
struct JSONLinesMergeTests {
    private func firstLine(_ text: String) -> String { String(text.split(separator: "\n").first ?? "") }

    @Test("the parts of 1, 2, 3 and 7 shards merge to the unsharded JSON Lines, given in any order", arguments: [1, 2, 3, 7])
    func mergeIsUnsharded(count: Int) throws {
        let folder = try MergeIdentityTests.Folder()
        let parts = try SavedRuns.parts(count, in: folder)
        let merged = runCommand(["merge"] + parts.reversed())
        #expect(merged.exitCode == 0, "\(merged.error)")
        #expect(merged.error.isEmpty)
        #expect(merged.output == SavedRuns.whole)
        // The header, 4 traces × 17 scenarios, and the closing record.
        #expect(SavedRuns.whole.split(separator: "\n").count == 1 + 4 * 17 + 1)
        if count == 7 {
            // Shards 5 to 7 hold no input: a header and a closing record of no input each.
            let empty = try String(contentsOfFile: parts[6], encoding: .utf8).split(separator: "\n")
            #expect(empty.count == 2)
            #expect(empty.last == #"{"kind":"tracesim-runs-end","inputs":0,"read":0,"traces":0,"skipped":[],"failed":[]}"#)
        }
    }

    @Test("a missing input fails its part, which merge refuses; --allow-partial merges to the unsharded output")
    func missingInput() throws {
        let folder = try MergeIdentityTests.Folder()
        let arguments = [SavedRuns.traces[0], folder.path("not-there.gpx"), SavedRuns.traces[2], "--scenarios", "denied,ideal"]
        let whole = runCommand(["matrix"] + arguments + ["--format", "jsonl"])
        #expect(whole.exitCode == 66)
        let parts = try (1...2).map { index in
            try folder.write(
                runCommand(["matrix"] + arguments + ["--format", "jsonl", "--shard", "\(index)/2"]).output,
                "p\(index).jsonl")
        }
        let refused = runCommand(["merge"] + parts)
        #expect(refused.exitCode == 65)
        #expect(
            firstLine(refused.error)
                == "error: \(parts[1]):2: $.failed: input 2 '\(folder.path("not-there.gpx"))' failed in the run that "
                + "wrote this part (no such file), so its runs are missing. Fix it and run the part again, or pass "
                + "--allow-partial to read the rest")
        #expect(!refused.output.contains("tracesim-runs-end"))
        let merged = runCommand(["merge", "--allow-partial"] + parts)
        #expect(merged.exitCode == 0, "\(merged.error)")
        #expect(merged.output == whole.output)
        #expect(merged.output.split(separator: "\n").count == 1 + 2 * 2 + 1)
        #expect(merged.error.contains("warning: --allow-partial: \(parts[1]): input 2 "), "\(merged.error)")
    }

    @Test("written by the binary, through its own standard output, the merge is the same bytes")
    func binary() throws {
        let folder = try MergeIdentityTests.Folder()
        let parts = try SavedRuns.parts(2, in: folder)
        let merged = try runBinary(["merge"] + parts)
        #expect(merged.exitCode == 0, "\(merged.error)")
        #expect(merged.output == SavedRuns.whole)
    }

    @Test("JSON and JSON Lines parts are not mixed")
    func mixedFormats() throws {
        let folder = try MergeIdentityTests.Folder()
        let base = ["matrix", SavedRuns.traces[0], SavedRuns.traces[2], "--scenarios", "denied"]
        let lines = try folder.write(runCommand(base + ["--format", "jsonl", "--shard", "1/2"]).output, "a.jsonl")
        let json = try folder.write(runCommand(base + ["--format", "json", "--shard", "2/2"]).output, "b.json")
        let result = runCommand(["merge", json, lines])
        #expect(result.exitCode == 65)
        #expect(
            firstLine(result.error)
                == "error: \(lines) is JSON Lines (--format jsonl) and \(json) is JSON (--format json): "
                + "merge the parts of one run, written in one format")
    }

    @Test("parts of different runs, a shard twice or missing, and a whole run among parts are refused")
    func refusals() throws {
        let folder = try MergeIdentityTests.Folder()
        func part(_ arguments: [String], _ shard: String, _ name: String) throws -> String {
            let result = runCommand(["matrix"] + arguments + ["--format", "jsonl", "--shard", shard])
            #expect(result.exitCode == 0, "\(result.error)")
            return try folder.write(result.output, name)
        }
        let tunnel = SavedRuns.traces[0]
        let bike = SavedRuns.traces[1]
        let one = try part([tunnel, bike, "--scenarios", "denied"], "1/2", "a1.jsonl")
        let two = try part([tunnel, tunnel, "--scenarios", "denied"], "2/2", "b2.jsonl")
        let traces = runCommand(["merge", one, two])
        #expect(traces.exitCode == 65)
        #expect(
            firstLine(traces.error)
                == "error: \(two): not a shard of the same matrix as \(one): trace 2 is '\(tunnel)' here and '\(bike)' there")

        let seeded = try part([tunnel, bike, "--scenarios", "denied", "--seed", "9"], "2/2", "seeded.jsonl")
        let seed = runCommand(["merge", one, seeded])
        #expect(
            firstLine(seed.error)
                == "error: \(seeded): not a shard of the same matrix as \(one): --seed is '9' here and not given there")

        let twice = runCommand(["merge", one, one])
        #expect(twice.exitCode == 65)
        #expect(firstLine(twice.error) == "error: shard 1 given twice: \(one) and \(one)")

        let missing = runCommand(["merge", one])
        #expect(missing.exitCode == 65)
        #expect(firstLine(missing.error) == "error: shards of 2 are needed once each; missing: 2")

        let whole = try folder.write(
            runCommand(["matrix", tunnel, bike, "--scenarios", "denied", "--format", "jsonl"]).output, "whole.jsonl")
        let mixed = runCommand(["merge", one, whole])
        #expect(mixed.exitCode == 65)
        #expect(firstLine(mixed.error).hasPrefix("error: \(whole): a whole run, not a shard"), "\(mixed.error)")
        #expect(runCommand(["merge", folder.path("absent.jsonl")]).exitCode == 66)
    }

    @Test("a killed run (a part cut mid-line) is refused, naming the part and the line")
    func killedRun() throws {
        let folder = try MergeIdentityTests.Folder()
        let parts = try SavedRuns.parts(2, in: folder)
        let text = try String(contentsOfFile: parts[1], encoding: .utf8)
        // Cut in the middle of the fifth line, as a matrix stopped while writing it leaves it.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let kept = lines.prefix(4).joined(separator: "\n") + "\n" + lines[4].prefix(lines[4].count / 2)
        let cut = try folder.write(kept, "cut.jsonl")
        let result = runCommand(["merge", parts[0], cut])
        #expect(result.exitCode == 65)
        #expect(
            firstLine(result.error)
                == "error: \(cut):5: the last line ends without a line break: the file was cut short (a matrix "
                + "stopped before it finished?); run it again")
        let summary = runCommand(["summarize", parts[0], cut])
        #expect(summary.exitCode == 65)
        #expect(firstLine(summary.error) == firstLine(result.error))
        #expect(summary.output.isEmpty)
    }

    @Test("a run out of place is refused at its line")
    func runOutOfPlace() throws {
        let folder = try MergeIdentityTests.Folder()
        let parts = try SavedRuns.parts(2, in: folder)
        var lines = try String(contentsOfFile: parts[0], encoding: .utf8).split(separator: "\n").map(String.init)
        lines.swapAt(2, 3)
        let swapped = try folder.write(lines.joined(separator: "\n") + "\n", "swapped.jsonl")
        let result = runCommand(["merge", swapped, parts[1]])
        #expect(result.exitCode == 65)
        #expect(
            firstLine(result.error)
                == "error: \(swapped):3: $: scenario 'provisional-always' where 'always-approximate' comes next",
            "\(result.error)")
    }
}
