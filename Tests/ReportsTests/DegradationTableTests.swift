import Device
import Engine
@testable import Reports
@testable import Scenarios
import SimulationCore
import Testing

/// The degradation table's cells that are not a plain percentage: the signed departure delay.
@Suite("Degradation table")
struct DegradationTableTests {
    static func metrics(departure: Double?) -> Metrics {
        let instant = SimInstant(nanosecondsSinceEpoch: 0)
        let run = ScenarioRun(
            scenario: "x", seed: 0, traceStart: instant, traceEnd: instant, flowSeconds: 0, recorder: Recorder(),
            gpsOn: GPSOnTime(), odometerMeters: 0, deliveryTimes: [], lifecycle: [], promptLog: [], wizardSteps: nil)
        var metrics = Metrics(run, ideal: run)
        metrics.departureDelaySeconds = departure
        return metrics
    }

    @Test("a departure delay prints with its own sign: -10 s, +10 s, +0 s, and - when no run departed")
    func signedDeparture() {
        let rows = [("early", -10.0), ("late", 10.0), ("same", -0.4), ("never", nil)].map {
            ScenarioMetrics(scenario: $0.0, metrics: [Self.metrics(departure: $0.1)])
        }
        let table = RunReport.table(rows)
        let lines = table.split(separator: "\n").dropFirst(2)
        #expect(
            zip(lines, ["  -10 s  ", "  +10 s  ", "  +0 s  ", "  -  "]).allSatisfy { $0.contains($1) }, "\(table)")
        #expect(!table.contains("+-"))
        #expect(Formatting.signed(-0.4, 0) == "+0" && Formatting.signed(-10, 0) == "-10")
    }

    @Test("a departure of an hour or more prints in hours and minutes, like the gap beside it")
    func longDeparture() {
        #expect(Formatting.signedDelay(3599) == "+3599 s")
        #expect(Formatting.signedDelay(3600) == "+1 h 00 min")
        #expect(Formatting.signedDelay(69_808) == "+19 h 23 min")
        #expect(Formatting.signedDelay(-7200) == "-2 h 00 min")
        let table = RunReport.table([ScenarioMetrics(scenario: "late", metrics: [Self.metrics(departure: 69_808)])])
        #expect(table.contains("+19 h 23 min"), "\(table)")
    }
}
