import Foundation
import TestSupport
import Testing

/// `matrix --format jsonl`: a header line naming the run, then one run per line, exactly the
/// JSON's runs, then the closing record; and the streaming matrix's order and errors.
@Suite("tracesim matrix: JSON Lines and streaming")
struct MatrixJSONLinesTests {
    static let tunnel = Repository.trace("mapbox-navigation-ios/tunnel.json")
    static let bike = Repository.trace("gpsbabel/bike.tcx")
    static let drive = Repository.trace("gps-measurement-tools/MTV.Local1.ublox-F9K.20200206-181434.nmea")
    static let scenarios = ["--scenarios", "always-precise,wheninuse-locked,denied"]

    private func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    @Test("a header line, then the JSON's runs one per line, then the closing record, the same on 1 and 3 jobs")
    func linesAreTheJSONRuns() throws {
        let arguments = ["matrix", Self.tunnel, Self.bike, Self.drive] + Self.scenarios
        let jsonl = runCommand(arguments + ["--format", "jsonl", "--jobs", "1"])
        #expect(jsonl.exitCode == 0, "\(jsonl.error)")
        #expect(jsonl.output.hasSuffix("}\n"))
        let all = lines(jsonl.output)
        #expect(all.count == 1 + 3 * 3 + 1)
        #expect(all.last == #"{"kind":"tracesim-runs-end","inputs":3,"read":3,"traces":3,"skipped":[],"failed":[]}"#)
        let header = try #require(JSONSerialization.jsonObject(with: Data(all[0].utf8)) as? [String: Any])
        #expect(header["kind"] as? String == "tracesim-runs")
        #expect(header["schemaVersion"] as? Int == 5)
        #expect(header["shard"] == nil)
        let identity = try #require(header["identity"] as? [String: Any])
        let traces = try #require(identity["traces"] as? [[String: Any]])
        #expect(traces.map { $0["path"] as? String } == [Self.tunnel, Self.bike, Self.drive])
        // An unsharded run read every input, so each is fingerprinted.
        #expect(traces.allSatisfy { ($0["hash"] as? String)?.hasPrefix("fnv1a64:") == true })
        let json = runCommand(arguments + ["--format", "json"])
        #expect(
            json.output == "{\"schemaVersion\":5,\"seed\":null,\"runs\":[" + all.dropFirst().dropLast().joined(separator: ",")
                + "]}\n")
        #expect(runCommand(arguments + ["--format", "jsonl", "--jobs", "3"]).output == jsonl.output)
        // Runs in input order, then scenario order, each with its reference.
        let runs = try all.dropFirst().dropLast().map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(
            runs.map { $0["trace"] as? String } == [
                Self.tunnel, Self.tunnel, Self.tunnel, Self.bike, Self.bike, Self.bike, Self.drive, Self.drive, Self.drive,
            ])
        #expect(runs.map { $0["scenario"] as? String }.prefix(3) == ["always-precise", "wheninuse-locked", "denied"])
        let reference = try #require(runs[0]["reference"] as? [String: Any])
        #expect(reference["name"] as? String == "ideal")
        #expect(Set(reference.keys) == ["name", "maxGapSeconds", "rejectedFixes", "departed"])
    }

    @Test("a shard's lines carry its shard, fingerprint its own inputs, and hold only its traces")
    func shardLines() throws {
        let arguments = ["matrix", Self.tunnel, Self.bike, Self.drive] + Self.scenarios + ["--format", "jsonl"]
        let second = runCommand(arguments + ["--shard", "2/2"])
        #expect(second.exitCode == 0, "\(second.error)")
        let all = lines(second.output)
        #expect(all.count == 1 + 3 + 1)
        #expect(all[0].contains(#""shard":{"index":2,"count":2}"#))
        #expect(all[0].components(separatedBy: "\"hash\":").count - 1 == 1)
        #expect(all.dropFirst().dropLast().allSatisfy { $0.hasPrefix("{\"trace\":\"\(Self.bike)\"") })
        // The part accounts for its own input alone.
        #expect(all.last == #"{"kind":"tracesim-runs-end","inputs":1,"read":1,"traces":1,"skipped":[],"failed":[]}"#)
    }

    @Test("an input that cannot be read is reported in its place and skipped; the others are written")
    func unreadableInputInTheMiddle() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString).gpx").path
        let result = runCommand(["matrix", Self.tunnel, missing, Self.bike] + Self.scenarios + ["--format", "jsonl"])
        #expect(result.exitCode == 66)
        #expect(lines(result.output).count == 1 + 2 * 3 + 1)
        #expect(result.error.contains(missing))
        #expect(lines(result.output)[0].contains("{\"path\":\"\(missing)\"}"))
        // The closing record says why its runs are missing.
        #expect(
            lines(result.output).last
                == #"{"kind":"tracesim-runs-end","inputs":3,"read":2,"traces":2,"skipped":[],"failed":[{"input":2,"path":""#
                + missing + #"","reason":"no such file"}]}"#)
    }

    @Test("--per-trace and --shard say which formats they need")
    func usage() throws {
        let perTrace = runCommand(["matrix", Self.tunnel, "--format", "jsonl", "--per-trace"])
        #expect(perTrace.exitCode == 64)
        #expect(perTrace.error.contains("--per-trace is for text, markdown and html; jsonl already has one entry per run"))
        let shard = runCommand(["matrix", Self.tunnel, "--shard", "1/2"])
        #expect(shard.exitCode == 64)
        #expect(shard.error.contains("add --format jsonl (or json)"))
    }

    @Test("a directory of traces: its traces in byte order of their paths, other files noted and skipped")
    func directoryInput() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tracesim-fleet-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("b"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.bike, toPath: folder.appendingPathComponent("b/bike.tcx").path)
        try FileManager.default.copyItem(atPath: Self.tunnel, toPath: folder.appendingPathComponent("a.json").path)
        try Data("notes\n".utf8).write(to: folder.appendingPathComponent("README.md"))
        let result = runCommand(["matrix", folder.path, "--scenarios", "denied", "--format", "jsonl"])
        #expect(result.exitCode == 0, "\(result.error)")
        let traces = lines(result.output).dropFirst().dropLast().map { $0.components(separatedBy: "\"")[3] }
        #expect(traces == [folder.appendingPathComponent("a.json").path, folder.appendingPathComponent("b/bike.tcx").path])
        #expect(result.error.contains("README.md: not a trace any importer recognises; skipped"))
    }
}
