/// Something about a run, or a row of runs, measured against the replayed trace that the ratios
/// against the ideal run hide: every report prints these loudly (text, JSON, an HTML banner).
///
/// An engine compared only with its own ideal run reads 100 % whether it keeps the whole trace
/// or nothing of it. The trace is the same for every engine, so these are read from the
/// "vs the trace" measures (`Metrics.tracePathRatio` and its neighbours). The model holds the
/// figures; the reports word them.
public struct TraceWarning: Sendable, Equatable {
    /// What is wrong; the raw value is the stable code the JSON writes.
    public enum Code: String, Sendable, Equatable, CaseIterable {
        /// The engine's ideal run kept no fix at all: every ratio against it is empty.
        case idealKeptNothing
        /// The engine's ideal run kept under `idealShareFloor` of the trace's path, so "100 %
        /// of ideal" is little of the trace.
        case idealKeptUnderHalf
        /// The run kept a longer path than the trace's, by more than `pathCeiling`: fixes off
        /// the trace (reduced-accuracy ones) were counted as kept.
        case pathBeyondTrace
        /// The kept fixes lie more than `errorCeilingMeters` from the trace at the median.
        case farFromTrace
    }

    /// The share of the trace's path below which an ideal run is suspect: an engine at its
    /// best that loses half of where the phone went is not a reference to be compared with.
    public static let idealShareFloor = 0.5
    /// The kept path ÷ the trace's path above which a run is suspect. A subset of a trace's
    /// fixes is never longer than the trace; smoothing and noise add a little, so 5 % is
    /// allowed. Field measurement (issue 30): reduced-accuracy fixes counted as collected gave
    /// 110.7 % pooled over the trial's traces and 500.9 % on one drive, as Apple documents a
    /// reduced fix "usually within 1–20 km of the actual location" (`kCLLocationAccuracyReduced`).
    public static let pathCeiling = 1.05
    /// The median distance from the trace above which kept fixes are suspect: a full-accuracy
    /// GPS fix is within tens of metres; a reduced one kilometres away
    /// (`kCLLocationAccuracyReduced`).
    public static let errorCeilingMeters = 100.0

    /// What is wrong.
    public var code: Code
    /// The row it is about: a scenario's name, `ideal` or `ideal for NAME`.
    public var subject: String
    /// The figure that crossed the line: a share of the trace's path (`idealKeptUnderHalf`,
    /// `pathBeyondTrace`), metres (`farFromTrace`), or 0 (`idealKeptNothing`). For a row of
    /// several runs, the pooled figure (the worst run's median for `farFromTrace`).
    public var value: Double
    /// How many runs of the row crossed the line, and of how many; both 1 for one run.
    public var runs: Int
    /// The row's runs.
    public var of: Int
    /// What `farFromTrace` measured the distance from: the trace, or the truth when one was given.
    public var reference = PositionErrorReference.trace

    /// A warning about `subject`.
    /// - Parameters:
    ///   - code: what is wrong.
    ///   - subject: the row it is about.
    ///   - value: the figure that crossed the line.
    ///   - runs: how many runs of the row crossed it.
    ///   - of: the row's runs.
    public init(_ code: Code, subject: String, value: Double, runs: Int = 1, of: Int = 1) {
        self.code = code
        self.subject = subject
        self.value = value
        self.runs = runs
        self.of = of
    }

    /// The warnings of one run (its ideal run's share of the trace, then its own row).
    /// - Parameters:
    ///   - metrics: the run measured against its ideal run and the trace.
    ///   - scenario: the run's scenario, the subject of its row's warnings.
    ///   - ideal: the name of its ideal run's row (`ideal`, or `ideal for NAME`).
    /// - Returns: the warnings, the ideal run's first; empty when nothing crossed a line.
    public static func warnings(run metrics: Metrics, scenario: String, ideal: String = "ideal") -> [TraceWarning] {
        var warnings = idealWarnings(
            subject: ideal, keptNothing: metrics.idealAcceptedFixes == 0,
            share: share(metrics.idealKeptPathMeters, metrics.tracePathMeters), runs: 1)
        warnings += rowWarnings(ScenarioMetrics(scenario: scenario, metrics: [metrics]))
        return warnings
    }

    /// The warnings of a table: its ideal rows (an ideal run that keeps little of the trace)
    /// and its scenario rows (paths beyond the trace, fixes far from it), rows in order.
    /// - Parameters:
    ///   - ideal: the reference rows, each ideal run measured against itself.
    ///   - scenarios: a row per scenario, its runs over the traces.
    /// - Returns: the ideal rows' warnings, then the scenario rows'.
    public static func warnings(ideal: [ScenarioMetrics], scenarios: [ScenarioMetrics]) -> [TraceWarning] {
        let idealRows = ideal.flatMap { row in
            idealWarnings(
                subject: row.scenario, keptNothing: row.metrics.allSatisfy { $0.acceptedFixes == 0 },
                share: MetricsSummary(row.metrics).tracePath, runs: row.metrics.count)
        }
        return idealRows + scenarios.flatMap(rowWarnings)
    }

    /// An ideal row's warning: nothing kept, or under `idealShareFloor` of the trace's path.
    private static func idealWarnings(subject: String, keptNothing: Bool, share: Double?, runs: Int)
        -> [TraceWarning]
    {
        if keptNothing { return [TraceWarning(.idealKeptNothing, subject: subject, value: 0, runs: runs, of: runs)] }
        guard let share, share < idealShareFloor else { return [] }
        return [TraceWarning(.idealKeptUnderHalf, subject: subject, value: share, runs: runs, of: runs)]
    }

    /// A scenario row's warnings: its pooled path beyond `pathCeiling` (or any run's), and runs
    /// whose median error exceeds `errorCeilingMeters`.
    private static func rowWarnings(_ row: ScenarioMetrics) -> [TraceWarning] {
        var warnings: [TraceWarning] = []
        let beyond = row.metrics.filter { ($0.tracePathRatio ?? 0) > pathCeiling }
        let pooled = MetricsSummary(row.metrics).tracePath ?? 0
        if !beyond.isEmpty || pooled > pathCeiling {
            warnings.append(
                TraceWarning(
                    .pathBeyondTrace, subject: row.scenario, value: pooled, runs: beyond.count, of: row.metrics.count))
        }
        let far = row.metrics.filter { ($0.positionErrorMedianMeters ?? 0) > errorCeilingMeters }
        if let worst = far.max(by: { ($0.positionErrorMedianMeters ?? 0) < ($1.positionErrorMedianMeters ?? 0) }) {
            var warning = TraceWarning(
                .farFromTrace, subject: row.scenario, value: worst.positionErrorMedianMeters ?? 0, runs: far.count,
                of: row.metrics.count)
            warning.reference = worst.positionErrorReference ?? .trace
            warnings.append(warning)
        }
        return warnings
    }

    private static func share(_ part: Double, _ whole: Double) -> Double? { whole > 0 ? part / whole : nil }
}
