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
/// Ratios are averaged over the traces where they exist (the ideal run had something); the gap
/// is the median of each trace's longest gap; departure delay is averaged over traces where
/// both runs departed; rejections are summed.
public struct MetricsSummary: Sendable, Equatable {
    /// Mean collection ratio.
    public var collected: Double?
    /// Mean time coverage.
    public var coverage: Double?
    /// Mean distance ratio.
    public var distance: Double?
    /// Mean GPS time against the ideal run's.
    public var gpsVsIdeal: Double?
    /// Median over traces of the longest gap, seconds.
    public var medianLongestGapSeconds: Double
    /// Mean departure delay, seconds.
    public var departureDelaySeconds: Double?
    /// Rejections over all traces.
    public var rejected: Int

    /// Summarises one scenario's per-trace metrics.
    public init(_ metrics: [Metrics]) {
        func mean(_ values: [Double]) -> Double? { values.isEmpty ? nil : values.reduce(0, +) / Double(values.count) }
        collected = mean(metrics.compactMap(\.collectionRatio))
        coverage = mean(metrics.map(\.timeCoverage))
        distance = mean(metrics.compactMap(\.distanceRatio))
        gpsVsIdeal = mean(metrics.filter { $0.idealGpsOnSeconds > 0 }.map { $0.gpsOnSeconds / $0.idealGpsOnSeconds })
        let gaps = metrics.map(\.maxGapSeconds).sorted()
        medianLongestGapSeconds =
            gaps.isEmpty
            ? 0 : gaps.count % 2 == 1 ? gaps[gaps.count / 2] : (gaps[gaps.count / 2 - 1] + gaps[gaps.count / 2]) / 2
        departureDelaySeconds = mean(metrics.compactMap(\.departureDelaySeconds))
        rejected = metrics.reduce(0) { $0 + $1.rejectedByReason.reduce(0) { $0 + $1.count } }
    }
}
