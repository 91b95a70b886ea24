import Synchronization
import Traces

/// What every run of one trace is measured against and no run changes: the trace's own path
/// length, its unobserved spans, and the seconds it covers over observed time.
///
/// A matrix replays each trace through every scenario, and these measures are the same for
/// all of them; measured once per run they were a fifth of a whole replay's work (issue 32).
/// Make one per trace and pass it to `ScenarioRunner.run(_:_:fences:engine:traceName:)` for
/// each scenario. The covered seconds depend on the scenario's grace
/// (`UnobservedTime.graceSeconds`), so they are kept for each grace asked for.
///
/// Thread-safe: the runs of one trace may be replayed on several threads at once.
public final class TraceMeasures: Sendable {
    /// The trace these measures are of.
    public let trace: Trace
    /// The length of the trace's path along its fixes in time order, metres
    /// (`TraceReference.pathMeters`).
    public let pathMeters: Double
    /// The trace's unobserved spans with no grace; a scenario's grace only moves where each
    /// left-out window starts.
    private let spans: UnobservedTime
    /// Covered seconds by the bit pattern of the grace they were measured with.
    private let coveredByGrace = Mutex<[UInt64: Double]>([:])

    /// Measures `trace`.
    /// - Complexity: O(the trace's fixes + motion samples).
    public init(_ trace: Trace) {
        self.trace = trace
        pathMeters = Tuning.pathLength(trace.fixes, every: 0)
        spans = UnobservedTime(trace, graceSeconds: 0)
    }

    /// The trace's unobserved time as a scenario with `graceSeconds` measures it: the same
    /// value `UnobservedTime(trace, graceSeconds:)` computes, without walking the trace again.
    func unobserved(graceSeconds: Double) -> UnobservedTime {
        spans.withGrace(graceSeconds)
    }

    /// Seconds of the trace within `Metrics.coverageReachSeconds` of one of its fixes, less what
    /// its unobserved time with `graceSeconds` leaves out (`TraceReference.coveredSeconds`);
    /// measured once per grace.
    func coveredSeconds(graceSeconds: Double) -> Double {
        let unobserved = unobserved(graceSeconds: graceSeconds)
        let key = unobserved.graceSeconds.bitPattern
        if let known = coveredByGrace.withLock({ $0[key] }) { return known }
        let fixes = trace.fixes
        var covered = 0.0
        if let first = fixes.first?.timestamp, let last = fixes.last?.timestamp {
            // Lazily: a long trace's times are never copied into an array of their own.
            let times = fixes.lazy.map { $0.timestamp.seconds(since: first) }
            covered = unobserved.coveredSeconds(
                of: times, span: last.seconds(since: first), reach: Metrics.coverageReachSeconds, since: first)
        }
        coveredByGrace.withLock { $0[key] = covered }
        return covered
    }
}
