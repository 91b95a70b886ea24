import Scenarios
import SimulationCore
import Traces

/// Replays through the whole pipeline and checks the counts hold together.
enum ReplayChecks {
    /// Fuzzed traces are small, but a replay still costs time per fix: longer ones are only
    /// imported, so the fuzzer keeps its pace.
    static let maximumReplayedFixes = 2_000

    static let ideal = Scenario.preset(named: "ideal")!

    /// A minute of walking, for fuzzed scenarios to run on.
    static let smallTrace: Trace = {
        let start = SimInstant(nanosecondsSinceEpoch: 1_700_000_000_000_000_000)
        let fixes = (0..<120).map { second in
            Fix(
                timestamp: start.advanced(byNanoseconds: Int64(second) * 1_000_000_000),
                latitude: 52.5 + Double(second) * 0.00001, longitude: 13.4,
                horizontalAccuracy: .meters(5), speedMetersPerSecond: 1.4, provider: .gps)
        }
        return Trace(fixes: fixes, provenance: TraceProvenance(format: .jsonLines))
    }()

    static func replay(_ trace: Trace, _ scenario: Scenario) {
        guard trace.fixes.count <= maximumReplayedFixes else { return }
        let run: ScenarioRun
        do {
            run = try ScenarioRunner.run(trace, scenario)
        } catch {
            fatalError("a replay without geofences failed: \(error)")
        }
        let recorder = run.recorder
        guard recorder.acceptedFixCount <= recorder.deliveredFixCount else {
            fatalError("accepted \(recorder.acceptedFixCount) of \(recorder.deliveredFixCount) delivered fixes")
        }
        guard run.odometerMeters.isFinite, run.odometerMeters >= 0 else {
            fatalError("odometer reads \(run.odometerMeters) m")
        }
        // The replay measures GPS-on time from the device: spans in order, only the last
        // open, and never longer in total than the replay itself.
        let spans = run.gpsOn.intervals
        for (earlier, later) in zip(spans, spans.dropFirst()) {
            guard let end = earlier.end, end <= later.start else {
                fatalError("GPS-on spans overlap or an inner one is open: \(earlier) then \(later)")
            }
        }
        let replayEnd = max(run.traceEnd, spans.last?.end ?? run.traceEnd)
        let onSeconds = run.gpsOn.seconds(closingAt: replayEnd)
        let replaySeconds = replayEnd.seconds(since: min(run.traceStart, spans.first?.start ?? run.traceStart))
        guard onSeconds >= 0, onSeconds <= replaySeconds + 1e-9 else {
            fatalError("GPS on for \(onSeconds) s of a \(replaySeconds) s replay")
        }
    }
}
