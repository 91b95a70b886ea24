/// One scenario's runs over several traces: a row of the degradation table and the heatmap.
public struct ScenarioMetrics: Sendable {
    /// The scenario's name.
    public var scenario: String
    /// Its runs' metrics, in trace order.
    public var metrics: [Metrics]

    public init(scenario: String, metrics: [Metrics]) {
        self.scenario = scenario
        self.metrics = metrics
    }
}

/// One scenario's metrics over several traces, as the matrix tables and heatmap show them.
///
/// Pooled, not averaged per trace, so a 30 s trace weighs what its fixes weigh and a long drive
/// is not outvoted by short ones (the article "The degradation table", `formulas`):
/// collected = Σ accepted ÷ Σ ideal accepted; distance = Σ distance ÷ Σ ideal distance;
/// beside distance, GPS and trace path, whose Σ one long trace can hold nearly alone, the median
/// over traces of each trace's ratio;
/// coverage = Σ covered seconds ÷ Σ ideal covered seconds; GPS = Σ GPS-on ÷ Σ ideal GPS-on;
/// the longest gap is the median over traces of each trace's longest gap; the departure delay is
/// the mean over the traces where both runs departed; rejections are summed. Against the trace:
/// trace path = Σ kept path ÷ Σ trace path; trace time = Σ covered seconds ÷ Σ the traces' own
/// covered seconds.
/// A ratio is `nil` when its denominator is zero (the ideal run had nothing, so there is nothing
/// to lose; a trace of no length).
public struct MetricsSummary: Sendable, Equatable {
    /// Σ accepted ÷ Σ the ideal runs' accepted.
    public var collected: Double?
    /// Σ covered seconds ÷ Σ the ideal runs' covered seconds (relative to ideal).
    public var coverage: Double?
    /// Σ distance ÷ Σ the ideal runs' distance.
    public var distance: Double?
    /// The median over traces of each trace's distance ÷ its ideal run's (traces whose ideal run
    /// went nowhere left out): one long export can hold nearly all of the pooled distance.
    public var medianDistance: Double?
    /// Σ GPS-on seconds ÷ Σ the ideal runs' GPS-on seconds, over observed time.
    public var gpsVsIdeal: Double?
    /// The median over traces of each trace's GPS-on ÷ its ideal run's GPS-on (traces whose
    /// ideal ran no GPS left out): beside the pooled ratio, so a reader sees when one trace's
    /// hours carry it.
    public var medianGpsVsIdeal: Double?
    /// Σ GPS-on seconds ÷ Σ observed seconds: GPS hours per observed hour.
    public var gpsHoursPerObservedHour: Double?
    /// Σ unobserved seconds left out of every time-based column (`Metrics.unobservedSeconds`).
    public var unobservedSeconds: Double
    /// Σ seconds of the unobserved spans the phone travelled (`Metrics.travelledUnobservedSeconds`).
    public var travelledUnobservedSeconds: Double
    /// Median over traces of the longest gap, seconds.
    public var medianLongestGapSeconds: Double
    /// Mean departure delay over the traces where both runs departed, seconds.
    public var departureDelaySeconds: Double?
    /// How many traces the departure delay is the mean of.
    public var departedTraces: Int
    /// Rejections over all traces.
    public var rejected: Int
    /// Σ path through accepted fixes ÷ Σ the traces' paths: against the trace, not the ideal run.
    public var tracePath: Double?
    /// The median over traces of each trace's kept path ÷ its path (traces of no length left
    /// out), beside `tracePath` for the same reason as `medianDistance`.
    public var medianTracePath: Double?
    /// Σ seconds within 30 s of an accepted fix ÷ Σ seconds within 30 s of a trace fix.
    public var traceTime: Double?

    /// The formulas, one line each, for the footer of every table that shows a summary.
    public static let formulas = [
        "collected = Σ accepted fixes ÷ Σ ideal accepted fixes",
        "coverage = Σ seconds within 30 s of an accepted fix ÷ the same Σ for the ideal runs",
        "distance = Σ odometer distance ÷ Σ ideal odometer distance; median = median over traces of each trace's ratio",
        "longest gap = median over traces of each trace's longest stretch without an accepted fix",
        "departure = mean over traces where both runs departed of (first fix recorded while moving − ideal's)",
        "GPS vs ideal = Σ seconds GPS ran for the app ÷ Σ ideal GPS seconds; median = median over traces of each trace's ratio",
        "GPS h/h = Σ seconds GPS ran for the app ÷ Σ observed seconds (1.00 is GPS on all the time)",
        "rejected = Σ fixes the engine rejected (the built-in engine's accuracy gate, or the rejections an engine of your own reports)",
        "trace path = Σ path through accepted fixes ÷ Σ path of the replayed traces (vs the trace, not the ideal run); "
            + "median as above",
        "trace time = Σ seconds within 30 s of an accepted fix ÷ Σ seconds within 30 s of a trace fix",
        "every time column leaves out unobserved time: each span of over 10 min with no fix or motion sample, "
            + "from its last input + min(stop timeout, automatic pause) to its end, for every run and its ideal run alike",
    ]

    /// Summarises one scenario's per-trace metrics.
    public init(_ metrics: [Metrics]) {
        func pooled(_ part: (Metrics) -> Double, _ whole: (Metrics) -> Double) -> Double? {
            let denominator = metrics.reduce(0) { $0 + whole($1) }
            return denominator > 0 ? metrics.reduce(0) { $0 + part($1) } / denominator : nil
        }
        collected = pooled({ Double($0.acceptedFixes) }, { Double($0.idealAcceptedFixes) })
        coverage = pooled(\.coveredSeconds, \.idealCoveredSeconds)
        distance = pooled(\.distanceMeters, \.idealDistanceMeters)
        medianDistance = Self.median(
            metrics.filter { $0.idealDistanceMeters > 0 }.map { $0.distanceMeters / $0.idealDistanceMeters })
        gpsVsIdeal = pooled(\.gpsOnSeconds, \.idealGpsOnSeconds)
        medianGpsVsIdeal = Self.median(
            metrics.filter { $0.idealGpsOnSeconds > 0 }.map { $0.gpsOnSeconds / $0.idealGpsOnSeconds })
        gpsHoursPerObservedHour = pooled(\.gpsOnSeconds, \.observedSeconds)
        unobservedSeconds = metrics.reduce(0) { $0 + $1.unobservedSeconds }
        travelledUnobservedSeconds = metrics.reduce(0) { $0 + $1.travelledUnobservedSeconds }
        medianLongestGapSeconds = Self.median(metrics.map(\.maxGapSeconds)) ?? 0
        let delays = metrics.compactMap(\.departureDelaySeconds)
        departedTraces = delays.count
        departureDelaySeconds = delays.isEmpty ? nil : delays.reduce(0, +) / Double(delays.count)
        rejected = metrics.flatMap { $0.rejectedByReason.map(\.count) }.saturatingSum()
        tracePath = pooled(\.keptPathMeters, \.tracePathMeters)
        medianTracePath = Self.median(
            metrics.filter { $0.tracePathMeters > 0 }.map { $0.keptPathMeters / $0.tracePathMeters })
        traceTime = pooled(\.coveredSeconds, \.traceCoveredSeconds)
    }

    /// The median of `values`: the middle one, or the mean of the middle two; `nil` for none.
    private static func median(_ values: [Double]) -> Double? {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return nil }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
