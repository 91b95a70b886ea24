import Foundation
import Scenarios
import SimulationCore
import TestSupport
import Testing
import Traces

/// Issue 31 §1 on the export that once carried the pooled GPS column: `2013_JUNE.json` spans 17
/// days with 119 fixes, so its ideal run's GPS time was mostly guesswork inside gaps.
@Suite("Unobserved time in the Takeout export")
struct UnobservedTakeoutTests {
    private static let june = "gpsbabel/2013_JUNE.json"

    @Test("The ideal run on 2013_JUNE.json keeps no GPS time in its unobserved spans past the grace")
    func idealGPSHours() throws {
        let trace = try TraceImporter.load(path: Repository.trace(Self.june))
        let run = try ScenarioRunner.run(trace, try #require(Scenario.preset(named: "ideal")))
        let metrics = Metrics(run, ideal: run)
        let unobserved = run.againstTrace.unobserved
        // The receiver's whole time: 193 h before Takeout segments were closed (issue 31), 100 h
        // after; the rest of the drop is time inside spans of over 10 min without input.
        #expect(hours(run.gpsOn.seconds(closingAt: run.traceEnd)) == "100.28")
        #expect(unobserved.spans.count == 212)
        #expect(unobserved.graceSeconds == 300)
        #expect(hours(metrics.gpsOnSeconds) == "20.53")
        #expect(hours(metrics.idealGpsOnSeconds) == "20.53")
        #expect(hours(metrics.observedSeconds) == "31.24")
        #expect(hours(metrics.unobservedSeconds) == "384.49")
        #expect(hours(metrics.travelledUnobservedSeconds) == "360.07")
        // What is counted lies outside every left-out window: each interval, cut at the windows,
        // adds up to the figure, measured here interval by interval against each span.
        var counted = 0.0
        for interval in run.gpsOn.intervals {
            var from = interval.start
            let end = min(interval.end ?? run.traceEnd, run.traceEnd)
            for span in unobserved.spans where span.end > from && span.start < end {
                let cut = span.start.advanced(bySeconds: unobserved.graceSeconds)
                if cut > from { counted += min(cut, end).seconds(since: from) }
                from = max(from, span.end)
            }
            if end > from { counted += end.seconds(since: from) }
        }
        #expect(abs(counted - metrics.gpsOnSeconds) < 0.001)
    }

    @Test(
        "No median is carried by one trace: leaving out the Takeout export moves GPS, distance and trace path medians no more than another trace"
    )
    func mediansNotCarriedByOneTrace() throws {
        let options = ImportOptions(nmeaStartDate: CalendarDate("2020-02-07"))
        let scenario = try #require(Scenario.preset(named: "always-motion-denied"))
        var byTrace: [(path: String, metrics: Metrics)] = []
        for path in Repository.bundledTraces {
            let trace = try TraceImporter.load(path: Repository.trace(path), options: options)
            byTrace.append((path, try Comparison(trace: trace, scenario: scenario).metrics))
        }
        #expect(byTrace.count == 14)
        let all = MetricsSummary(byTrace.map(\.metrics))
        /// How far leaving out each trace moves `figure`, by trace.
        func moves(_ figure: (MetricsSummary) -> Double?) throws -> [String: Double] {
            let whole = try #require(figure(all))
            var moved: [String: Double] = [:]
            for left in byTrace.indices {
                let without = MetricsSummary(byTrace.enumerated().filter { $0.offset != left }.map(\.element.metrics))
                moved[byTrace[left].path] = abs(try #require(figure(without)) - whole)
            }
            return moved
        }
        let others = { (moved: [String: Double]) in moved.filter { $0.key != Self.june }.values.max() ?? 0 }
        // Each median: the Takeout export moves it no more than some other trace does.
        for (name, median) in [
            ("GPS", \MetricsSummary.medianGpsVsIdeal), ("distance", \.medianDistance), ("trace path", \.medianTracePath),
        ] {
            let moved = try moves { $0[keyPath: median] }
            #expect(try #require(moved[Self.june]) <= others(moved), "\(name): \(moved)")
        }
        #expect(Self.percent(all.medianGpsVsIdeal) == "81.1")
        #expect(Self.percent(all.medianDistance) == "90.5")
        #expect(Self.percent(all.medianTracePath) == "64.9")
        // The pooled ratios beside them still lean on the export: its grace hours (the ideal run
        // keeps GPS for 300 s after each of its 212 spans) and its 4,000 km between sparse fixes.
        // Without the export each moves far more than any other trace moves it. That is why the
        // medians are printed.
        for (name, pooled) in [
            ("GPS", \MetricsSummary.gpsVsIdeal), ("distance", \.distance), ("trace path", \.tracePath),
        ] {
            let moved = try moves { $0[keyPath: pooled] }
            #expect(try #require(moved[Self.june]) > 3 * others(moved), "\(name): \(moved)")
        }
    }

    private static func percent(_ share: Double?) -> String {
        share.map { String(format: "%.1f", $0 * 100) } ?? "-"
    }
}

/// Seconds as hours with two decimals, for pinning long durations.
private func hours(_ seconds: Double) -> String { String(format: "%.2f", seconds / 3600) }

@Suite("Unobserved time is left out of a run and its ideal run alike")
struct UnobservedAlikeTests {
    @Test("A scenario's run and its ideal run are measured over the same observed time")
    func sameWindows() throws {
        let trace = try TraceImporter.load(path: Repository.trace("gpsbabel/2013_JUNE.json"))
        let comparison = try Comparison(
            trace: trace, scenario: try #require(Scenario.preset(named: "always-motion-denied")))
        let idealAlone = Metrics(comparison.ideal, ideal: comparison.ideal)
        // The ideal run's own measure and the measure the scenario's run is compared with agree,
        // since both runs' engines have the same stop timeout, so the same grace.
        #expect(comparison.metrics.idealGpsOnSeconds == idealAlone.gpsOnSeconds)
        #expect(comparison.metrics.idealCoveredSeconds == idealAlone.coveredSeconds)
        #expect(comparison.metrics.observedSeconds == idealAlone.observedSeconds)
        #expect(comparison.metrics.unobservedSeconds > 0)
        // Far less than the receiver's whole time in the ideal run.
        #expect(
            comparison.metrics.idealGpsOnSeconds
                < comparison.ideal.gpsOn.seconds(closingAt: comparison.ideal.traceEnd) / 4)
    }
}
