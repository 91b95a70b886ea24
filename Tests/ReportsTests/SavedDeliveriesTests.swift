import Device
import Engine
import SimulationCore
import Testing

@testable import Reports
@testable import Scenarios

/// Issue 30 §6 in saved runs: schema 4 writes `derivedByDevice` and `deliveries` for every run,
/// so the reader requires both and checks their values, naming file, line and JSON path.
@Suite("Saved runs: derivedByDevice and deliveries")
struct SavedDeliveriesTests {
    /// A run as `matrix --format jsonl` writes it, with `derivedByDevice` ["course"] and
    /// `deliveries` of 3 calls.
    static func savedRun() -> String {
        let start = SimInstant(nanosecondsSinceEpoch: 1_600_000_000_000_000_000)
        var run = ScenarioRun(
            scenario: "x", seed: 0, traceStart: start, traceEnd: start.advanced(bySeconds: 60), flowSeconds: 0,
            recorder: Recorder(), gpsOn: GPSOnTime(), odometerMeters: 0, deliveryTimes: [], lifecycle: [],
            promptLog: [], wizardSteps: nil)
        run.deliveries.countCall(of: 2)
        run.deliveries.countCall(of: 1)
        run.deliveries.noteKept(1)
        run.deliveries.derivedByDevice = DerivedLocationFields.course
        return RunReport.jsonValue(
            trace: "t", run: run, metrics: Metrics(run, ideal: run),
            reference: ReferenceMetrics(name: "ideal", maxGapSeconds: 0, rejectedFixes: 0, departed: false)
        ).rendered
    }

    static let written: String =
        #""derivedByDevice":["course"],"deliveries":{"calls":2,"locations":3,"largestCall":2,"significantChanges":0,"#
        + #""heldWhenTraceEnded":0,"deliveredNotKept":2}"#

    @Test("the saved run reads back, with and without deliveredNotKept (an app that does not record)")
    func savedRunReads() throws {
        let line = Self.savedRun()
        #expect(line.contains(Self.written))
        for saved in [line, line.replacingOccurrences(of: #","deliveredNotKept":2"#, with: "")] {
            _ = try MatrixTable.Row(runJSON: Array(saved.utf8)[...], scenarioIndex: 0, file: "runs.jsonl", line: 4)
        }
    }

    @Test(
        "a missing, malformed, hostile or wrong-type member is an error naming file, line and path",
        arguments: [
            (#""derivedByDevice":["course"],"#, "", "derivedByDevice"),
            ("," + written.dropFirst(#""derivedByDevice":["course"],"#.count), "", "deliveries"),
            (#"["course"]"#, #""course""#, "$.derivedByDevice"),
            (#"["course"]"#, #"["altitude"]"#, "$.derivedByDevice[0]"),
            (#"["course"]"#, #"["course","course"]"#, "$.derivedByDevice[1]"),
            (#"["course"]"#, #"[""]"#, "$.derivedByDevice[0]"),
            (#"["course"]"#, #"["<script>"]"#, "$.derivedByDevice[0]"),
            (#"["course"]"#, #"[3]"#, "$.derivedByDevice[0]"),
            (#""calls":2"#, #""calls":"2""#, "$.deliveries.calls"),
            (#""calls":2"#, #""calls":-1"#, "$.deliveries.calls"),
            (#""calls":2"#, #""calls":2.5"#, "$.deliveries.calls"),
            (#""calls":2,"#, "", "calls"),
            (#""largestCall":2"#, #""largestCall":null"#, "$.deliveries.largestCall"),
            (#""deliveredNotKept":2"#, #""deliveredNotKept":true"#, "$.deliveries.deliveredNotKept"),
            (#""deliveredNotKept":2"#, #""deliveredNotKept":2,"extra":1"#, "extra"),
        ])
    func malformedRejected(original: String, replacement: String, named: String) throws {
        let line = Self.savedRun()
        let range = try #require(line.range(of: original))
        let saved = line.replacingCharacters(in: range, with: replacement)
        do {
            _ = try MatrixTable.Row(runJSON: Array(saved.utf8)[...], scenarioIndex: 0, file: "runs.jsonl", line: 4)
            Issue.record("read \(replacement)")
        } catch {
            let message = "\(error)"
            #expect(message.hasPrefix("runs.jsonl:4:"), "\(message)")
            #expect(message.contains(named), "\(message)")
        }
    }
}
