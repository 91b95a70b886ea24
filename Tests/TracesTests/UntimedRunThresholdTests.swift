import SimulationCore
import Testing
import Traces

/// The ten-record threshold of an untimed run, where the run ends in the middle of a file: a
/// record of another time closes it there, which is a different comparison from the one that
/// judges a run still open at the end of the file (`UntimedRunTests` puts its runs there).
@Suite("Untimed run threshold in the middle of a file")
struct UntimedRunThresholdTests {
    static let degreesPerMeter = 180 / Double.pi / 6_371_008.8

    /// JSON Lines: a timed fix on line 1, `count` records at the Unix epoch 100 m apart from
    /// line 2, then two timed fixes 15 and 16 seconds after the first.
    static func middleRun(_ count: Int, provider: String = "gps") -> String {
        func line(_ time: String, _ latitude: Double) -> String {
            "{\"time\":\"\(time)\",\"lat\":\(latitude),\"lon\":11.5,\"provider\":\"\(provider)\"}\n"
        }
        return line("2024-05-01T00:00:00Z", 47.9)
            + (0..<count).map { line("1970-01-01T00:00:00Z", 48.0 + Double($0) * 100 * degreesPerMeter) }.joined()
            + line("2024-05-01T00:00:15Z", 47.9) + line("2024-05-01T00:00:16Z", 47.9)
    }

    @Test("ten records of one time closed by a later record are an untimed run from line 2")
    func tenInTheMiddle() throws {
        let trace = try importText(Self.middleRun(10), name: "t.jsonl")
        #expect(trace.diagnostics.untimedRuns.runs.count == 1)
        #expect(trace.diagnostics.untimedRuns.runs.firstLines == [2])
        #expect(trace.diagnostics.untimedRuns.records == 10)
        #expect(trace.diagnostics.merged.count == 0)
        // The three timed fixes are kept; the run's records are left out, not merged into one.
        #expect(trace.fixes.count == 3)
    }

    @Test("nine records of one time in the middle stay merged as repeats of an epoch")
    func nineInTheMiddle() throws {
        let trace = try importText(Self.middleRun(9), name: "t.jsonl")
        #expect(trace.diagnostics.untimedRuns.records == 0)
        #expect(trace.diagnostics.merged.count == 8)
        #expect(trace.fixes.count == 4)
    }

    @Test("at 1 Hz the ten records in the middle are timed one second apart after the first fix")
    func tenInTheMiddleTimed() throws {
        var options = ImportOptions()
        options.assumedRate = 1
        let trace = try importText(Self.middleRun(10), name: "t.jsonl", options: options)
        #expect(trace.diagnostics.untimedRuns.timed == 10)
        #expect(trace.fixes.count == 13)
        #expect(trace.diagnostics.untimedRuns.runs.firstLines == [2])
    }
}
