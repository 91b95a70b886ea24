import Foundation
import TestSupport
import Testing

/// `tracesim calibrate`: usage errors in the fast tier; the full run (2,000 phones) in the slow
/// tier, with the calibration suite.
@Suite("tracesim calibrate")
struct CalibrateCommandTests {
    @Test(
        "arguments, a hostile or malformed seed and an unknown format are usage errors (64) that run nothing",
        arguments: [
            (["calibrate", "extra"], "calibrate takes no arguments, got 'extra'"),
            (["calibrate", "--seed", "-1"], "--seed"),
            (["calibrate", "--seed", "1.5"], "--seed"),
            (["calibrate", "--seed", ""], "--seed"),
            (["calibrate", "--seed", "18446744073709551616"], "--seed"),
            (["calibrate", "--format", "csv"], "--format"),
            (["calibrate", "--seed"], "--seed"),
        ])
    func usageErrors(arguments: [String], message: String) {
        let result = runCommand(arguments)
        #expect(result.exitCode == 64)
        #expect(result.output.isEmpty)
        #expect(result.error.contains(message), "\(result.error)")
    }

    @Test("--help lists the format and seed options and the exit status")
    func help() {
        let result = runCommand(["calibrate", "--help"])
        #expect(result.exitCode == 0)
        #expect(result.output.contains("--format <text|json>"))
        #expect(result.output.contains("--seed <n>"))
        #expect(result.output.contains("EXIT STATUS:"))
    }

    @Test("text and JSON print every figure with its source; the asserted ones pass (exit 0)", .enabled(if: TestTier.isSlow))
    func fullRun() throws {
        let text = runCommand(["calibrate"])
        #expect(text.exitCode == 0)
        #expect(text.output.hasPrefix("Calibration against published field measurements (seed 1)\n"))
        #expect(text.output.contains("P(trigger) within 750 m: simulated "))
        #expect(text.output.contains("Long Weekend Mobile (2010)"))
        #expect(text.output.hasSuffix("5 of 5 asserted figures within tolerance\n"))
        let json = runCommand(["calibrate", "--format", "json", "--seed", "1"])
        #expect(json.exitCode == 0)
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(object["passed"] as? Bool == true)
        #expect(object["seed"] as? String == "1")
        let figures = try #require(object["figures"] as? [[String: Any]])
        #expect(figures.count == 16)
        #expect(figures.filter { $0["asserted"] as? Bool == true }.count == 5)
        // Byte for byte the same on a second run.
        #expect(runCommand(["calibrate", "--format", "json", "--seed", "1"]).output == json.output)
    }
}
