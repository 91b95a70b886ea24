import Foundation
import TestSupport
import Testing
import Traces

@Suite("tracesim convert")
struct ConvertCommandTests {
    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("tracesim-\(UUID().uuidString)-\(name)").path
    }

    @Test("writes the format its output extension names, and re-imports to the same fixes", arguments: ["csv", "jsonl", "gpx"])
    func converts(format: String) throws {
        let output = Self.temporaryPath("out.\(format)")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let input = Repository.trace("gnss_lib_py/pixel6.txt")
        let result = runCommand(["convert", input, output])
        #expect(result.exitCode == 0)
        #expect(result.error == "wrote 243 fixes from gnsslogger to \(output)\n")
        #expect(try TraceImporter.load(path: output).fixes == TraceImporter.load(path: input).fixes)
    }

    @Test("warns when motion samples cannot travel in the chosen format")
    func motionWarning() throws {
        let output = Self.temporaryPath("takeout.csv")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let result = runCommand(["convert", "--quiet", Repository.trace("gpsbabel/2013_JUNE.json"), output])
        #expect(result.exitCode == 0)
        #expect(result.error == "warning: 301 motion samples not written: csv holds fixes only; convert to .jsonl to keep them\n")
    }

    @Test("an unknown output extension is a usage error; a bad input keeps its exit code")
    func errors() {
        #expect(runCommand(["convert", Repository.trace("gpsbabel/bike.tcx"), "out.kml"]).exitCode == 64)
        #expect(runCommand(["convert", Repository.trace("gpsbabel/bike.tcx")]).exitCode == 64)
        #expect(runCommand(["convert", "missing.tcx", Self.temporaryPath("x.csv")]).exitCode == 66)
        #expect(runCommand(["convert", Repository.trace("gpsbabel/bike.tcx"), "/nonexistent-dir/out.csv"]).exitCode == 73)
    }

    @Test("a trace whose every line was skipped is refused rather than written as an unreadable empty file")
    func nothingToConvert() throws {
        let input = Self.temporaryPath("bad-checksum.nmea")
        let output = Self.temporaryPath("out.jsonl")
        defer { for path in [input, output] { try? FileManager.default.removeItem(atPath: path) } }
        // Found by the detect fuzzing harness: one sentence, checksum wrong, so zero fixes.
        try Data("$GPGGA,bad*00\n".utf8).write(to: URL(fileURLWithPath: input))
        let result = runCommand(["convert", input, output])
        #expect(result.exitCode == 65)
        #expect(result.error == "error: \(input): no fixes to convert (`tracesim inspect` shows what was skipped)\n")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
