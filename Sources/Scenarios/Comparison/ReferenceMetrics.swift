/// What the ideal run a matrix run is compared with measured, beyond the sums a run already
/// carries (`Metrics.idealAcceptedFixes` and its neighbours): enough to print the ideal rows of
/// the degradation table from saved runs alone (`tracesim summarize`), exactly as the matrix
/// prints them.
public struct ReferenceMetrics: Sendable, Equatable {
    /// `ideal`, or `ideal for SCENARIO` when the first scenario compared with this ideal run has
    /// engine settings that give it an ideal run of its own.
    public var name: String
    /// The ideal run's longest stretch without an accepted fix, seconds.
    public var maxGapSeconds: Double
    /// Fixes the accuracy gate rejected in the ideal run.
    public var rejectedFixes: Int
    /// Whether the ideal run departed (recorded a fix while moving).
    public var departed: Bool

    /// A reference as saved runs carry it.
    public init(name: String, maxGapSeconds: Double, rejectedFixes: Int, departed: Bool) {
        self.name = name
        self.maxGapSeconds = maxGapSeconds
        self.rejectedFixes = rejectedFixes
        self.departed = departed
    }

    /// What `ideal` measured against itself.
    package init(name: String, ideal: ScenarioRun) {
        let metrics = Metrics(ideal, ideal: ideal)
        self.init(
            name: name, maxGapSeconds: metrics.maxGapSeconds,
            rejectedFixes: metrics.rejectedByReason.reduce(0) { $0 + $1.count },
            departed: metrics.departureDelaySeconds != nil)
    }
}
