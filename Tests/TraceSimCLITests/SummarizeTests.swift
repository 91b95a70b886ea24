import Foundation
import TestSupport
import Testing

/// `tracesim summarize`: the tables of a matrix from the runs it saved, byte for byte.
@Suite("tracesim summarize")
struct SummarizeTests {
    private func firstLine(_ text: String) -> String { String(text.split(separator: "\n").first ?? "") }

    @Test(
        "summarize prints what matrix printed, in every format, with and without --per-trace",
        arguments: [
            ["--format", "text"], ["--format", "markdown"], ["--format", "csv"], ["--format", "html"], [],
            ["--format", "text", "--per-trace"], ["--format", "markdown", "--per-trace"],
            ["--format", "html", "--per-trace"],
        ])
    func sameAsMatrix(options: [String]) throws {
        let folder = try MergeIdentityTests.Folder()
        let runs = try folder.write(SavedRuns.whole, "runs.jsonl")
        let matrix = runCommand(["matrix"] + SavedRuns.traces + options)
        #expect(matrix.exitCode == 0, "\(matrix.error)")
        let summary = runCommand(["summarize", runs] + options)
        #expect(summary.exitCode == 0, "\(summary.error)")
        #expect(summary.error.isEmpty)
        #expect(summary.output == matrix.output)
        #expect(summary.output.count > 1_000)
    }

    @Test("the parts of a sharded run summarise as the merged file does", arguments: [["--format", "text"], ["--format", "csv"]])
    func partsAsMerged(options: [String]) throws {
        let folder = try MergeIdentityTests.Folder()
        let parts = try SavedRuns.parts(3, in: folder)
        let merged = runCommand(["merge"] + parts)
        #expect(merged.output == SavedRuns.whole)
        let mergedFile = try folder.write(merged.output, "merged.jsonl")
        let fromParts = runCommand(["summarize"] + parts.shuffled() + options)
        #expect(fromParts.exitCode == 0, "\(fromParts.error)")
        let fromMerged = runCommand(["summarize", mergedFile] + options)
        #expect(fromParts.output == fromMerged.output)
        #expect(!fromParts.output.isEmpty)
    }

    @Test("'-' reads the runs from standard input")
    func standardInput() throws {
        let matrix = runCommand(["matrix"] + SavedRuns.traces + ["--format", "markdown"])
        let result = try runBinary(["summarize", "-", "--format", "markdown"], standardInput: .bytes(Array(SavedRuns.whole.utf8)))
        #expect(result.exitCode == 0, "\(result.error)")
        #expect(result.output == matrix.output)
        #expect(runCommand(["summarize", "-", "-"]).exitCode == 64)
    }

    /// The saved runs with the first run's line edited by `edit`.
    private func edited(_ edit: (String) -> String) throws -> (path: String, folder: MergeIdentityTests.Folder) {
        let folder = try MergeIdentityTests.Folder()
        var lines = SavedRuns.whole.split(separator: "\n").map(String.init)
        lines[1] = edit(lines[1])
        return (try folder.write(lines.joined(separator: "\n") + "\n", "edited.jsonl"), folder)
    }

    @Test(
        "a run the tables cannot trust is refused at its line, naming the key",
        arguments: [
            (#""gpsOnSeconds":"#, #""gpsOnSecondz":"#, "$.metrics.gpsOnSecondz: unknown key"),
            (#""acceptedFixes":[0-9]+"#, #""acceptedFixes":"1""#, "$.metrics.acceptedFixes: expected a number"),
            (#""departed":(true|false)"#, #""departed":1"#, "$.reference.departed: expected true or false"),
            (#""reference":\{"#, #""reference":{"extra":2,"#, "$.reference.extra: unknown key"),
            (#""flowSeconds":[0-9.]+"#, #""flowSeconds":"x""#, "$.flowSeconds: expected a number"),
        ])
    func strictRuns(original: String, replacement: String, problem: String) throws {
        let (path, folder) = try edited { line in
            guard let range = line.range(of: original, options: .regularExpression) else {
                Issue.record("'\(original)' is not in the run")
                return line
            }
            return line.replacingCharacters(in: range, with: replacement)
        }
        _ = folder
        let result = runCommand(["summarize", path])
        #expect(result.exitCode == 65)
        #expect(firstLine(result.error).hasPrefix("error: \(path):2:"), "\(result.error)")
        #expect(firstLine(result.error).contains(": \(problem)"), "\(result.error)")
        #expect(result.output.isEmpty)
        #expect(!result.error.contains("\n\n"))
    }

    @Test("a run without a metric the tables need is refused, naming the key")
    func missingMetric() throws {
        let (path, folder) = try edited { line in
            line.replacingOccurrences(of: #","idealGpsOnSeconds":"#, with: #","unused":"#)
        }
        _ = folder
        let result = runCommand(["summarize", path])
        #expect(result.exitCode == 65)
        #expect(firstLine(result.error).contains("$.metrics.unused: unknown key"), "\(result.error)")
        let (removed, other) = try edited { line in
            line.replacingOccurrences(of: #""reference":{"name":"ideal","#, with: #""reference":{"#)
        }
        _ = other
        let missing = runCommand(["summarize", removed])
        #expect(firstLine(missing.error).hasPrefix("error: \(removed):2:"), "\(missing.error)")
        #expect(firstLine(missing.error).hasSuffix("$.reference: missing required key 'name'"), "\(missing.error)")
    }

    @Test("a matrix JSON, an other schema version, a missing file and usage errors are each named")
    func wrongInputs() throws {
        let folder = try MergeIdentityTests.Folder()
        let json = try folder.write(
            runCommand(["matrix", SavedRuns.traces[0], "--scenarios", "denied", "--format", "json"]).output, "m.json")
        let result = runCommand(["summarize", json])
        #expect(result.exitCode == 65)
        #expect(
            firstLine(result.error)
                == "error: \(json):1:1: $: no 'kind': this is a matrix JSON (--format json), not JSON Lines (--format jsonl)")
        let future = try folder.write(
            SavedRuns.whole.replacingOccurrences(of: #""schemaVersion":5,"identity""#, with: #""schemaVersion":6,"identity""#),
            "future.jsonl")
        let version = runCommand(["summarize", future])
        #expect(version.exitCode == 65)
        #expect(
            firstLine(version.error)
                == "error: \(future):1:41: $.schemaVersion: runs of schema version 6; this tracesim reads version 5: "
                + "read them with the tracesim that wrote them")
        #expect(runCommand(["summarize", folder.path("absent.jsonl")]).exitCode == 66)
        #expect(runCommand(["summarize"]).exitCode == 64)
        #expect(runCommand(["summarize", future, "--format", "csv", "--per-trace"]).exitCode == 64)
        #expect(runCommand(["summarize", future, "--format", "jsonl"]).exitCode == 64)
    }

    @Test("a header alone is refused; with --allow-partial it prints what a matrix of no trace prints, and warns")
    func headerOnly() throws {
        let folder = try MergeIdentityTests.Folder()
        let header = String(SavedRuns.whole.prefix { $0 != "\n" }) + "\n"
        let path = try folder.write(header, "header.jsonl")
        let refused = runCommand(["summarize", path])
        #expect(refused.exitCode == 65)
        #expect(refused.output.isEmpty)
        #expect(firstLine(refused.error).contains("input 1 '\(SavedRuns.traces[0])' is the first it does not account for"))
        let text = runCommand(["summarize", path, "--allow-partial"])
        #expect(text.exitCode == 0, "\(text.error)")
        #expect(text.output.isEmpty)
        #expect(firstLine(text.error).hasPrefix("warning: --allow-partial: \(path): ends at line 1 without its closing record"))
        let csv = runCommand(["summarize", path, "--format", "csv", "--allow-partial"])
        #expect(csv.output.hasPrefix("trace,scenario,seed,") && csv.output.split(separator: "\n").count == 1)
    }
}
