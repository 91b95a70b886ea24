import Device
import Scenarios
import SimulationCore
import Testing
import Traces

/// Issue 31 §1: a span with no input for over 600 s is unobserved, and every time-based metric
/// leaves it out past the last input plus the grace.
@Suite("Unobserved time")
struct UnobservedTimeTests {
    private static let start = SimInstant(nanosecondsSinceEpoch: 1_700_000_000_000_000_000)
    private static func at(_ seconds: Double) -> SimInstant { start.advanced(bySeconds: seconds) }

    /// Fixes at `seconds`, each `metresApart` east of the one before, and `motion` samples.
    private static func trace(_ seconds: [Double], metresApart: Double = 0, motion: [Double] = []) -> Trace {
        let fixes = seconds.enumerated().map { index, second in
            // 1° of longitude at the equator is about 111.3 km.
            Fix(
                timestamp: at(second), latitude: 0, longitude: Double(index) * metresApart / 111_320,
                horizontalAccuracy: .meters(5), provider: .gps)
        }
        let samples = motion.map { MotionSample(timestamp: at($0), activity: .stationary, confidence: .high) }
        return Trace(fixes: fixes, motionSamples: samples, provenance: TraceProvenance(format: .jsonLines))
    }

    @Test("A gap of exactly 600 s is observed; one a millisecond longer is not")
    func thresholdBoundary() {
        #expect(UnobservedTime(Self.trace([0, 600]), graceSeconds: 300).spans.isEmpty)
        let spans = UnobservedTime(Self.trace([0, 600.001]), graceSeconds: 300).spans
        #expect(spans.count == 1)
        #expect(spans.first?.start == Self.at(0))
        #expect(spans.first?.end == Self.at(600.001))
    }

    @Test("A motion sample is an input: it splits a long gap between fixes")
    func motionSampleIsInput() {
        #expect(UnobservedTime(Self.trace([0, 1000]), graceSeconds: 0).spans.count == 1)
        #expect(UnobservedTime(Self.trace([0, 1000], motion: [500]), graceSeconds: 0).spans.isEmpty)
        // A sample ending the drive at 100 s: the span runs from it, not from the fix before it.
        let fromSample = UnobservedTime(Self.trace([0, 1000], motion: [100]), graceSeconds: 0)
        #expect(fromSample.spans.map(\.start) == [Self.at(100)])
        // Samples outside the fixes' time are not the run's inputs.
        #expect(UnobservedTime(Self.trace([0, 500], motion: [-2000, 3000]), graceSeconds: 0).spans.isEmpty)
    }

    @Test("The grace is kept and the rest of the span is left out")
    func leftOutAfterGrace() {
        let time = UnobservedTime(Self.trace([0, 100, 1000]), graceSeconds: 300)
        #expect(time.leftOut.map(\.start) == [Self.at(400)])
        #expect(time.leftOut.map(\.end) == [Self.at(1000)])
        #expect(time.observedSeconds(span: 1000, since: Self.start) == 400)
        // A grace longer than the span leaves nothing out.
        #expect(UnobservedTime(Self.trace([0, 100, 1000]), graceSeconds: 900).leftOut.isEmpty)
    }

    @Test("The grace: the engine's stop timeout against the automatic pause; the pause alone for a custom engine")
    func grace() {
        #expect(UnobservedTime.graceSeconds(stopTimeoutSeconds: 300, automaticPauseSeconds: 900) == 300)
        #expect(UnobservedTime.graceSeconds(stopTimeoutSeconds: 86_400, automaticPauseSeconds: 900) == 900)
        #expect(UnobservedTime.graceSeconds(stopTimeoutSeconds: nil, automaticPauseSeconds: 900) == 900)
        #expect(UnobservedTime.graceSeconds(stopTimeoutSeconds: -5, automaticPauseSeconds: 900) == 0)
    }

    @Test("Ends more than 1 km apart: the phone travelled unobserved")
    func travelled() {
        let still = UnobservedTime(Self.trace([0, 1000], metresApart: 990), graceSeconds: 0)
        #expect(still.spans.map(\.isTravelled) == [false])
        #expect(still.travelledSeconds == 0)
        let moved = UnobservedTime(Self.trace([0, 1000], metresApart: 1010), graceSeconds: 0)
        #expect(moved.spans.map(\.isTravelled) == [true])
        #expect(moved.travelledSeconds == 1000)
    }

    @Test("GPS that started before a span counts until the last input plus the grace")
    func gpsClipped() {
        let time = UnobservedTime(Self.trace([0, 100, 1000, 1100]), graceSeconds: 300)
        let gps = [GPSOnTime.Interval(start: Self.at(50), end: Self.at(1050))]
        // 1000 s on, of which 400…1000 is left out.
        #expect(time.observedGPSSeconds(gps, closingAt: Self.at(1100)) == 400)
        // An open interval closes at the run's end; one starting inside the window counts after it.
        let open = [GPSOnTime.Interval(start: Self.at(700), end: nil)]
        #expect(time.observedGPSSeconds(open, closingAt: Self.at(1100)) == 100)
    }

    @Test("Covered seconds and the longest gap leave the left-out window out")
    func coverageAndGap() {
        let time = UnobservedTime(Self.trace([0, 100, 1000]), graceSeconds: 300)
        // Within 30 s of 0, 100 and 1000: 30 + 60 + 30, less the 30 s before 1000 that are left out.
        #expect(time.coveredSeconds(of: [0, 100, 1000], span: 1000, reach: 30, since: Self.start) == 90)
        let gap = time.longestGap([0, 100, 1000], span: 1000, since: Self.start)
        #expect(gap.seconds == 300)
        #expect(gap.start == 100)
        // Nothing left out: the whole-trace measures.
        let none = UnobservedTime()
        #expect(none.coveredSeconds(of: [0, 100, 1000], span: 1000, reach: 30, since: Self.start) == 120)
        #expect(none.longestGap([0, 100, 1000], span: 1000, since: Self.start).seconds == 900)
    }

    @Test("An empty trace has no unobserved time")
    func emptyTrace() {
        let time = UnobservedTime(Self.trace([]), graceSeconds: 300)
        #expect(time.spans.isEmpty)
        #expect(time.observedSeconds(span: 0, since: Self.start) == 0)
    }
}
