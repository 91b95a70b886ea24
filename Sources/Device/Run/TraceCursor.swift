import SimulationCore
import Traces

/// Where a replay is in a trace's two dense streams, fixes and motion samples, each already
/// sorted by time: indices, never copies, so the fixes before the start are skipped by index.
public struct TraceCursor: Sendable, Equatable {
    /// The next fix to record.
    public var fixIndex = 0
    /// The next motion sample to record.
    public var sampleIndex = 0

    /// At the start of nothing.
    public init() {}

    /// At the first fix and sample of `trace` not before `start` (all of them without one).
    public init(_ trace: Trace, from start: SimInstant?) {
        guard let start else { return }
        fixIndex = trace.fixes.firstIndex { !($0.timestamp < start) } ?? trace.fixes.endIndex
        sampleIndex = trace.motionSamples.firstIndex { !($0.timestamp < start) } ?? trace.motionSamples.endIndex
    }
}
