import Foundation
import Synchronization
import TestSupport
import Testing

/// A part that did not finish is never taken as whole: JSON Lines end with a closing record
/// accounting for every input, and `merge` and `summarize` refuse a part without one, or with
/// an input that failed, naming the part and the first input missing. Inputs with no record at
/// all are skipped; inputs whose records cannot be read or timed fail at the end.
@Suite("Part completeness: closing records, skipped and failed inputs")
struct PartCompletenessTests {
    static let tunnel = Repository.trace("mapbox-navigation-ios/tunnel.json")
    static let bike = Repository.trace("gpsbabel/bike.tcx")
    static let haicom = Repository.trace("gpsd/haicom-305N.log")
    static let pixel6 = Repository.trace("gnss_lib_py/pixel6.nmea")
    /// GGA alone: no date anywhere, so no timed fix without --date.
    static let undated = Repository.trace("gps-measurement-tools/MTV.Local1.SPAN.20200206-181434.gga")
    static let scenarios = ["--scenarios", "denied,ideal"]

    private func firstLine(_ text: String) -> String { String(text.split(separator: "\n").first ?? "") }
    private func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    private func matrix(_ arguments: [String]) -> CommandResult {
        runCommand(["matrix"] + arguments + Self.scenarios + ["--format", "jsonl"])
    }

    // MARK: The three ways a part lost traces

    @Test("a part cut between traces, as a stopped matrix leaves it, is refused naming the first input missing")
    func stoppedPart() throws {
        let folder = try MergeIdentityTests.Folder()
        let whole = matrix([Self.tunnel, Self.bike, Self.haicom, "--shard", "1/1"])
        #expect(whole.exitCode == 0, "\(whole.error)")
        // What a matrix stopped after its first trace leaves: the header and that trace's runs.
        let cut = try folder.write(lines(whole.output).prefix(3).map { $0 + "\n" }.joined(), "p.jsonl")
        let expected =
            "error: \(cut): ends at line 3 without the closing record that says its run finished (the run that "
            + "wrote it was stopped, or its engine failed): input 2 '\(Self.bike)' is the first it does not account "
            + "for. Run it again, or pass --allow-partial to read what it holds"
        let merged = runCommand(["merge", cut])
        #expect(merged.exitCode == 65)
        #expect(firstLine(merged.error) == expected)
        #expect(!merged.output.contains("tracesim-runs-end"))
        let summary = runCommand(["summarize", cut])
        #expect(summary.exitCode == 65)
        #expect(firstLine(summary.error) == expected)
        #expect(summary.output.isEmpty)

        // Read on purpose: the runs it holds, a warning naming what is missing, and no closing
        // record in what merge writes, so that is never taken as whole either.
        let warning =
            "warning: --allow-partial: \(cut): ends at line 3 without its closing record (its run did not finish); "
            + "input 2 '\(Self.bike)' is the first it does not account for: what follows holds only the runs it has"
        let partial = runCommand(["merge", "--allow-partial", cut])
        #expect(partial.exitCode == 0, "\(partial.error)")
        #expect(firstLine(partial.error) == warning)
        #expect(lines(partial.output).count == 3)
        #expect(!partial.output.contains("tracesim-runs-end"))
        let mergedFile = try folder.write(partial.output, "merged.jsonl")
        #expect(runCommand(["summarize", mergedFile]).exitCode == 65)
        let table = runCommand(["summarize", "--allow-partial", cut])
        #expect(table.exitCode == 0, "\(table.error)")
        #expect(table.output.hasPrefix("1 trace × 2 scenarios"), "\(table.output)")
        #expect(firstLine(table.error) == warning)
    }

    @Test("an engine that fails leaves a part of its header alone, with no closing record, which is refused")
    func engineFailure() throws {
        let folder = try MergeIdentityTests.Folder()
        let engine = Repository.path("Tests/EngineProtocolTests/Engines/misbehaving.py")
        let failed = runCommand(
            ["matrix", Self.pixel6, "--scenarios", "ideal", "--format", "jsonl", "--engine-command", "python3 \(engine) exit"])
        #expect(![0, 65].contains(failed.exitCode), "\(failed.error)")
        #expect(lines(failed.output).count == 1, "\(failed.output)")
        #expect(failed.output.hasPrefix(#"{"kind":"tracesim-runs","#))
        let part = try folder.write(failed.output, "h.jsonl")
        for command in ["summarize", "merge"] {
            let result = runCommand([command, part])
            #expect(result.exitCode == 65, "\(command)")
            #expect(
                firstLine(result.error).contains("ends at line 1 without the closing record")
                    && firstLine(result.error).contains("input 1 '\(Self.pixel6)' is the first it does not account for"),
                "\(command): \(result.error)")
        }
    }

    @Test("a part whose input failed (65) keeps its closing record, and merge refuses it naming the input")
    func failedInput() throws {
        let folder = try MergeIdentityTests.Folder()
        let inputs = [Self.tunnel, Self.undated, Self.haicom]
        let whole = matrix(inputs)
        #expect(whole.exitCode == 65)
        let parts = try (1...2).map { index in
            let part = matrix(inputs + ["--shard", "\(index)/2"])
            #expect(part.exitCode == (index == 2 ? 65 : 0), "\(part.error)")
            return try folder.write(part.output, "part-\(index).jsonl")
        }
        let refused = runCommand(["merge"] + parts.reversed())
        #expect(refused.exitCode == 65)
        #expect(
            firstLine(refused.error)
                == "error: \(parts[1]):2: $.failed: input 2 '\(Self.undated)' failed in the run that wrote this part "
                + "(no timed fixes to replay), so its runs are missing. Fix it and run the part again, or pass "
                + "--allow-partial to read the rest")
        #expect(!refused.output.contains("tracesim-runs-end"))
        let summary = runCommand(["summarize", try folder.write(whole.output, "whole.jsonl")])
        #expect(summary.exitCode == 65)
        #expect(firstLine(summary.error).contains("input 2 '\(Self.undated)' failed"), "\(summary.error)")
        // On purpose: exactly what the unsharded run wrote, and a warning on every use.
        let merged = runCommand(["merge", "--allow-partial"] + parts)
        #expect(merged.exitCode == 0)
        #expect(merged.output == whole.output)
        #expect(
            firstLine(merged.error)
                == "warning: --allow-partial: \(parts[1]): input 2 '\(Self.undated)' failed in its run (no timed fixes "
                + "to replay): what follows leaves it out")
    }

    // MARK: One rule for inputs that give no fix

    @Test("a recording with no record in a fleet folder is noted and skipped with exit 0, and listed as skipped")
    func noRecordsSkipped() throws {
        let folder = try MergeIdentityTests.Folder()
        try FileManager.default.copyItem(atPath: Self.tunnel, toPath: folder.path("a.json"))
        let empty = try folder.write("time,lat,lon\n", "b-empty.csv")
        let result = runCommand(["matrix", folder.url.path, "--scenarios", "denied", "--format", "jsonl"])
        #expect(result.exitCode == 0, "\(result.error)")
        #expect(result.error == "note: \(empty): no records (a header alone?); skipped\n")
        #expect(
            lines(result.output).last
                == #"{"kind":"tracesim-runs-end","inputs":2,"read":1,"traces":1,"skipped":[{"input":2,"path":""#
                + empty + #"","reason":"no records"}],"failed":[]}"#)
        let runs = try folder.write(result.output, "runs.jsonl")
        let summary = runCommand(["summarize", runs])
        #expect(summary.exitCode == 0, "\(summary.error)")
        #expect(summary.output.hasPrefix("1 trace × 1 scenario"))
        #expect(runCommand(["matrix", folder.url.path, "--scenarios", "denied"]).exitCode == 0)
        #expect(runCommand(["matrix", folder.url.path, "--scenarios", "denied", "--quiet"]).error.isEmpty)
        // The help says what the code does.
        let help = runCommand(["matrix", "--help"]).output
        #expect(help.contains("no record at all (a header alone) is noted and skipped"), "\(help)")
        #expect(help.contains("reported, the others still run, and matrix exits 65 at the end."), "\(help)")
    }

    @Test("an input whose records cannot be timed fails at the end: the others ran, exit 65, listed as failed")
    func untimedFails() throws {
        let result = runCommand(["matrix", Self.undated, Self.tunnel, "--scenarios", "denied", "--format", "jsonl"])
        #expect(result.exitCode == 65)
        #expect(firstLine(result.error) == "error: \(Self.undated): no timed fixes to replay")
        let all = lines(result.output)
        #expect(all.count == 3)
        #expect(all[1].hasPrefix(#"{"trace":"\#(Self.tunnel)","scenario":"denied""#))
        #expect(
            all.last
                == #"{"kind":"tracesim-runs-end","inputs":2,"read":1,"traces":1,"skipped":[],"failed":[{"input":1,"path":""#
                + Self.undated + #"","reason":"no timed fixes to replay"}]}"#)
        // Timed, it is read like any other.
        let dated = runCommand(
            ["matrix", Self.undated, Self.tunnel, "--scenarios", "denied", "--format", "jsonl", "--date", "2020-02-06"])
        #expect(dated.exitCode == 0, "\(dated.error)")
        #expect(lines(dated.output).last?.contains(#""inputs":2,"read":2,"traces":2,"skipped":[],"failed":[]"#) == true)
    }

    // MARK: JSON parts

    @Test("a --format json part cut anywhere fails to parse and is refused (65), naming the part")
    func cutJSONPart() throws {
        let folder = try MergeIdentityTests.Folder()
        let base = ["matrix", Self.tunnel, Self.bike, "--scenarios", "denied,ideal", "--format", "json"]
        let one = runCommand(base + ["--shard", "1/2"]).output
        let two = try folder.write(runCommand(base + ["--shard", "2/2"]).output, "two.json")
        #expect(one.hasSuffix(#""skipped":[],"failed":[]}}"# + "\n"))
        let text = Array(one.utf8)
        func offset(after marker: String) throws -> Int {
            try #require(one.range(of: marker)).upperBound.utf16Offset(in: one)
        }
        let cuts = [
            text.count / 2,  // inside a run
            try offset(after: #""deliveredNotKept":0}}"#),  // after a whole run (its deliveries end it)
            try offset(after: #"}}]"#),  // after the runs
            try offset(after: #""end":{"#),  // inside the end
            text.count - 2,  // all but the last brace
        ]
        for cut in cuts {
            let part = try folder.write(String(decoding: text.prefix(cut), as: UTF8.self), "cut-\(cut).json")
            let result = runCommand(["merge", part, two])
            #expect(result.exitCode == 65, "cut at \(cut)")
            #expect(firstLine(result.error).hasPrefix("error: \(part):1:"), "cut at \(cut): \(result.error)")
            #expect(result.output.isEmpty)
        }
        #expect(runCommand(["merge", try folder.write(one, "one.json"), two]).exitCode == 0)
    }

    @Test("a --format json part whose input failed is refused; --allow-partial merges to the unsharded JSON")
    func failedJSONPart() throws {
        let folder = try MergeIdentityTests.Folder()
        let missing = folder.path("missing.gpx")
        let base = ["matrix", Self.tunnel, missing, Self.haicom, "--scenarios", "denied", "--format", "json"]
        let whole = runCommand(base)
        #expect(whole.exitCode == 66)
        let parts = try (1...2).map { try folder.write(runCommand(base + ["--shard", "\($0)/2"]).output, "p\($0).json") }
        #expect(try String(contentsOfFile: parts[1], encoding: .utf8).contains(#""failed":[{"input":2,"path":"#))
        let refused = runCommand(["merge"] + parts)
        #expect(refused.exitCode == 65)
        #expect(
            firstLine(refused.error)
                == "error: \(parts[1]): input 2 '\(missing)' failed in the run that wrote this part (no such file), so its "
                + "runs are missing. Fix it and run the part again, or pass --allow-partial to merge the rest")
        let merged = runCommand(["merge", "--allow-partial"] + parts)
        #expect(merged.exitCode == 0, "\(merged.error)")
        #expect(merged.output == whole.output)
        #expect(firstLine(merged.error).hasPrefix("warning: --allow-partial: \(parts[1]): input 2 '\(missing)' failed"))
    }

    @Test("parts of schema versions 2, 3 and 4 are refused with a message to run them again")
    func previousVersion() throws {
        let folder = try MergeIdentityTests.Folder()
        let jsonl = matrix([Self.tunnel, "--shard", "1/1"]).output
        let json = runCommand(["matrix", Self.tunnel, "--scenarios", "denied", "--format", "json", "--shard", "1/1"])
        let messages = [
            2: "runs of schema version 2, written before runs ended with a closing record, so nothing says whether "
                + "their run finished; this tracesim reads version 5: run the matrix again with it",
            3: "runs of schema version 3, written before runs were measured against the replayed trace, so they lack "
                + "the trace figures the tables show; this tracesim reads version 5: run the matrix again with it",
            4: "runs of schema version 4, written before unobserved time was left out of the time figures, so their "
                + "GPS, coverage and gaps count hours no input observed; this tracesim reads version 5: run the matrix "
                + "again with it",
        ]
        for (version, message) in messages.sorted(by: { $0.key < $1.key }) {
            let old = try folder.write(
                lines(jsonl).dropLast().joined(separator: "\n").replacingOccurrences(
                    of: #""schemaVersion":5"#, with: #""schemaVersion":\#(version)"#) + "\n", "old\(version).jsonl")
            let oldJSON = try folder.write(
                json.output.replacingOccurrences(of: #""schemaVersion":5"#, with: #""schemaVersion":\#(version)"#),
                "old\(version).json")
            for (command, part) in [("merge", old), ("summarize", old), ("merge", oldJSON)] {
                let result = runCommand([command, part])
                #expect(result.exitCode == 65)
                #expect(firstLine(result.error).hasPrefix("error: \(part):1:"), "\(result.error)")
                #expect(firstLine(result.error).hasSuffix("$.schemaVersion: " + message), "\(result.error)")
            }
        }
    }

    // MARK: Reading bounded

    @Test("merge and summarize of /dev/zero stop at its first NUL byte, in bounded time and memory")
    func devZero() throws {
        for command in ["merge", "summarize"] {
            let result = try Self.bounded([command, "/dev/zero"])
            #expect(result.exitCode == 65, "\(command): \(result.error)")
            #expect(
                result.error == "error: /dev/zero:1:1: NUL byte, which no JSON line holds (is this a binary file?)\n",
                "\(command)")
        }
    }

    @Test("40 parts merge and summarize under a limit of 32 open files, hard or soft, as the unsharded run")
    func openFileLimit() throws {
        let folder = try MergeIdentityTests.Folder()
        let inputs = [Self.tunnel, Self.haicom, Self.pixel6]
        let whole = matrix(inputs)
        #expect(whole.exitCode == 0, "\(whole.error)")
        let parts = try (1...40).map { try folder.write(matrix(inputs + ["--shard", "\($0)/40"]).output, "part-\($0).jsonl") }
        for limit in ["-n 32", "-S -n 32"] {
            let merged = try Self.bounded(["merge"] + parts, limits: limit)
            #expect(merged.exitCode == 0, "\(limit): \(merged.error)")
            #expect(merged.output == whole.output, "\(limit)")
            let summary = try Self.bounded(["summarize"] + parts, limits: limit)
            #expect(summary.exitCode == 0, "\(limit): \(summary.error)")
            #expect(summary.output == runCommand(["matrix"] + inputs + Self.scenarios).output, "\(limit)")
        }
    }

    /// Runs the built `tracesim` under `ulimit` `limits`, a 2 GiB address space and a 30 s
    /// timeout, so a read that grows without bound fails the test instead of the machine.
    static func bounded(_ arguments: [String], limits: String = "") throws -> CommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        let limited = "ulimit -v 2097152 && " + (limits.isEmpty ? "" : "ulimit \(limits) && ")
        process.arguments =
            ["-c", limited + #"exec timeout 30 "$0" "$@""#, BuiltTracesim.path]
            + arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Both pipes at once: a child filling one while the other is drained would stall.
        let errorData = Mutex(Data())
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let data = error.fileHandleForReading.readDataToEndOfFile()
            errorData.withLock { $0 = data }
            done.signal()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        done.wait()
        process.waitUntilExit()
        return CommandResult(
            exitCode: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            error: errorData.withLock { String(decoding: $0, as: UTF8.self) })
    }
}
