import Engine
import Geometry
import Traces

/// The replayed trace as the absolute reference of a run: where the phone was.
///
/// The ideal run is a relative reference: an engine compared only with its own ideal run reads
/// 100 % however little it keeps. The trace is the same for every engine, so a run is measured
/// against it too (`Metrics.tracePathRatio`, `Metrics.traceTimeCoverage`, and the position
/// errors when no ground truth was given).
///
/// What a run keeps is its accepted fixes: the fixes an engine reports as `accepted` ("the
/// engine kept a fix", in the subprocess protocol; `Recorder.accepted` for a Swift engine),
/// which every other metric of a run reads too. The recorded fixes are a subset of them (after
/// the built-in engine's distance filter) that a custom engine need not report.
public struct TraceReference: Sendable, Equatable {
    /// How far apart in time two trace fixes may be for a kept fix between them to be measured
    /// against the line joining them: the coverage's reach (30 s). Kept fixes are delivered
    /// at a trace fix's own timestamp, so this only matters for fixes an engine moved in time;
    /// a fix in a longer gap of the trace is not measured rather than measured against a guess.
    public static let interpolationReachSeconds = 30.0

    /// The length of the trace's path: the distance along its fixes in time order, every fix
    /// the replay delivers (the importer has already left out what it could not use), metres.
    public var pathMeters: Double = 0
    /// Seconds of the trace within 30 s of one of its own fixes: the time the trace knows where
    /// the phone was, and so the most a run can cover. A day-long export with hours between
    /// fixes spans far more time than this; a 1 Hz drive spans about as much. Left-out
    /// unobserved time (`unobserved`) is not counted.
    public var coveredSeconds: Double = 0
    /// The trace's unobserved spans, and what every time-based metric of a run measured against
    /// this trace leaves out.
    public var unobserved = UnobservedTime()
    /// The length of the path through the run's kept fixes in the order kept, metres: measured
    /// once per run, since a run serves as the ideal run of every scenario that shares it.
    public var keptPathMeters: Double = 0
    /// The median distance of the kept fixes from the trace at the same instant; `nil` when
    /// none could be measured.
    public var errorMedianMeters: Double?
    /// The 95th percentile of that distance.
    public var errorP95Meters: Double?

    /// Nothing measured: a trace of no length, no errors.
    public init() {}

    /// `recorder`'s kept fixes measured against `trace`.
    /// - Parameters:
    ///   - trace: the trace the run replayed.
    ///   - recorder: what the engine kept during that replay.
    ///   - unobserved: the trace's unobserved spans, left out of its covered seconds.
    /// - Complexity: O(the trace's fixes + the kept fixes × log of the kept fixes).
    public init(_ trace: Trace, kept recorder: Recorder, unobserved: UnobservedTime = UnobservedTime()) {
        self.unobserved = unobserved
        pathMeters = Tuning.pathLength(trace.fixes, every: 0)
        keptPathMeters = Self.pathMeters(recorder.acceptedPositions)
        if let first = trace.fixes.first?.timestamp, let last = trace.fixes.last?.timestamp {
            // Lazily: a long trace's times are never copied into an array of their own.
            let times = trace.fixes.lazy.map { $0.timestamp.seconds(since: first) }
            coveredSeconds = unobserved.coveredSeconds(
                of: times, span: last.seconds(since: first), reach: Metrics.coverageReachSeconds, since: first)
        }
        let errors = Tuning.errors(recorder, against: trace, reachSeconds: Self.interpolationReachSeconds).sorted()
        errorMedianMeters = Tuning.percentile(errors, 0.5)
        errorP95Meters = Tuning.percentile(errors, 0.95)
    }

    /// `recorder`'s kept fixes measured against the trace of `measures`, which holds what is the
    /// same for every run of that trace, over its unobserved time with `graceSeconds`.
    /// - Complexity: O(the kept fixes × log of the kept fixes), once the trace's covered seconds
    ///   for that grace are known; O(the trace's fixes) the first time.
    init(_ measures: TraceMeasures, kept recorder: Recorder, graceSeconds: Double) {
        unobserved = measures.unobserved(graceSeconds: graceSeconds)
        pathMeters = measures.pathMeters
        keptPathMeters = Self.pathMeters(recorder.acceptedPositions)
        coveredSeconds = measures.coveredSeconds(graceSeconds: graceSeconds)
        let errors = Tuning.errors(recorder, against: measures.trace, reachSeconds: Self.interpolationReachSeconds)
            .sorted()
        errorMedianMeters = Tuning.percentile(errors, 0.5)
        errorP95Meters = Tuning.percentile(errors, 0.95)
    }

    /// The length of the path through `positions` in order, metres.
    /// - Parameter positions: the positions, in time order.
    /// - Returns: the sum of the distances between consecutive positions; 0 for fewer than two.
    package static func pathMeters(_ positions: [Coordinate]) -> Double {
        var length = 0.0
        for index in positions.indices.dropFirst() {
            length += Geodesy.distanceMeters(positions[index - 1], positions[index])
        }
        return length
    }
}

/// What the position errors of a run were measured against.
public enum PositionErrorReference: String, Sendable, Equatable, CaseIterable {
    /// A ground-truth recording given with `--truth`.
    case truth
    /// The replayed trace itself, when no truth was given.
    case trace
}
