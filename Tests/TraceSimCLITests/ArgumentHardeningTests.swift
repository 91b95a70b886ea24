import Fleet
import Foundation
import Scenarios
import TestSupport
import Testing

@Suite("Argument hardening: sweeps that cannot be counted, options given twice")
struct ArgumentHardeningTests {
    static let bike = Repository.trace("gpsbabel/bike.tcx")

    private func firstLine(_ text: String) -> String {
        String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
    }

    @Test(
        "a sweep whose step is too small, or whose span too large, to count is a usage error, not a trap",
        arguments: ["0:10:1e-20", "0:10:1e-300", "0:10:5e-324", "0:1e300:1e-10", "0:1.7e308:1"])
    func uncountableSweep(range: String) {
        let spec = "distanceFilter=\(range)"
        let result = runCommand(["tune", Self.bike, "--sweep", spec])
        #expect(result.exitCode == 64)
        #expect(
            firstLine(result.error) == "error: --sweep: '\(spec)' has more than 1000 values (use a larger step)")
    }

    @Test("the library refuses the same sweeps without trapping")
    func uncountableSweepInLibrary() throws {
        for spec in ["distanceFilter=0:10:1e-20", "distanceFilter=0:1e300:1e-10", "distanceFilter=0:1000:1"] {
            guard case .failure = Tuning.Sweep.parse(spec) else {
                Issue.record("\(spec) was accepted")
                continue
            }
        }
        #expect(try Tuning.Sweep.parse("distanceFilter=0:999:1").get().values.count == 1000)
        #expect(try Tuning.Sweep.parse("distanceFilter=5:5:5e-324").get().values == [.number(5)])
    }

    @Test("seven sweeps of 1000 values cross to 10^21 combinations: refused by the limit, not an overflow trap")
    func combinationOverflow() {
        let settings = [
            "gate.horizontalAccuracy", "gate.maxImpliedSpeed", "gate.maxAge", "distanceFilter", "odometerAccuracy",
            "stopTimeout", "stationaryRadius",
        ]
        let result = runCommand(["tune", Self.bike] + settings.flatMap { ["--sweep", "\($0)=1:1000:1"] })
        #expect(result.exitCode == 64)
        #expect(
            firstLine(result.error) == "error: the sweeps cross to more than 10000 combinations (use larger steps)")
    }

    @Test("combination counts are checked: nil past the limit or on overflow, exact within it")
    func combinationCount() throws {
        let thousand = try Tuning.Sweep.parse("distanceFilter=0:999:1").get()
        let ten = try Tuning.Sweep.parse("stopTimeout=1:10:1").get()
        #expect(Tuning.combinationCount([thousand, ten], limit: 10_000) == 10_000)
        #expect(Tuning.combinationCount([thousand, ten, ten], limit: 10_000) == nil)
        #expect(Tuning.combinationCount(Array(repeating: thousand, count: 7), limit: .max) == nil)
        #expect(Tuning.combinationCount([], limit: 1) == 1)
    }

    @Test("the same setting swept twice is a usage error")
    func sweptTwice() {
        let result = runCommand([
            "tune", Self.bike, "--sweep", "distanceFilter=0:1:1", "--sweep", "distanceFilter=2:3:1",
        ])
        #expect(result.exitCode == 64)
        #expect(firstLine(result.error) == "error: --sweep: 'distanceFilter' is swept twice")
    }

    @Test(
        "a single-value option given twice is a usage error, in either spelling",
        arguments: [
            (["track", bike, "--format", "json", "--format", "text"], "format"),
            (["track", bike, "--seed", "1", "--seed=2"], "seed"),
            (["inspect", bike, "--format=json", "--format=json"], "format"),
            (["matrix", bike, "--jobs", "1", "--jobs", "2"], "jobs"),
            (["tune", bike, "--sweep", "distanceFilter=0:1:1", "--truth", bike, "--truth", bike], "truth"),
        ])
    func repeatedOption(arguments: [String], option: String) {
        let result = runCommand(arguments)
        #expect(result.exitCode == 64)
        #expect(firstLine(result.error) == "error: option '--\(option)' is given more than once")
    }

    @Test("--sweep stays repeatable: two settings cross")
    func sweepRepeats() {
        let result = runCommand([
            "tune", Self.bike, "--sweep", "distanceFilter=0:10:10", "--sweep", "stopTimeout=60:120:60",
            "--format", "json",
        ])
        #expect(result.exitCode == 0, "\(result.error)")
        let study = (try? JSONSerialization.jsonObject(with: Data(result.output.utf8))) as? [String: Any]
        #expect((study?["rows"] as? [Any])?.count == 4)
    }

    @Test(
        "a sweep that lists a value twice is refused: it would only repeat a row",
        arguments: [
            ("distanceFilter=5,5,5", "'distanceFilter=5,5,5' lists 5 twice; each value is one row, so give it once"),
            ("distanceFilter=5,10,5.0", "'distanceFilter=5,10,5.0' lists 5 twice; each value is one row, so give it once"),
            ("stopRule=radar,timeout,radar", "'stopRule=radar,timeout,radar' lists radar twice; each value is one row, so give it once"),
            ("preventSuspend=true,true", "'preventSuspend=true,true' lists true twice; each value is one row, so give it once"),
        ])
    func duplicateSweepValues(spec: String, message: String) {
        let result = runCommand(["tune", Self.bike, "--sweep", spec])
        #expect(result.exitCode == 64)
        #expect(firstLine(result.error) == "error: --sweep: " + message)
    }

    @Test("a range whose step is finer than the numbers can tell apart gives a value twice: refused")
    func rangeBelowPrecision() {
        guard case .failure(let error) = Tuning.Sweep.parse("stopTimeout=1:1.000000000000001:1e-16") else {
            Issue.record("accepted")
            return
        }
        #expect(error.description.hasSuffix("twice: the step is finer than the numbers can tell apart"), "\(error)")
    }

    @Test(
        "track says why it takes no --engine-command or --engine-timeout, and what to use instead",
        arguments: [
            (
                ["track", bike, "--engine-command", "python3 engine.py"],
                "track does not take --engine-command: it reports the built-in engine's inner states"
            ),
            (["track", bike, "--engine-timeout=5"], "track does not take --engine-timeout: it reports the built-in engine's inner states"),
        ])
    func engineOptionsRefused(arguments: [String], message: String) {
        let result = runCommand(arguments)
        #expect(result.exitCode == 64)
        #expect(firstLine(result.error).hasPrefix("error: " + message), "\(result.error)")
        #expect(firstLine(result.error).contains("'tracesim replay TRACE --scenario ideal --engine-command COMMAND'"))
        #expect(!result.error.contains("unknown option"))
    }
}
