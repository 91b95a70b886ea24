/// One figure of a field experiment beside TraceSim's figure for the same experiment, replayed
/// synthetically the way the published one was run (`tracesim calibrate`).
///
/// A figure is asserted when it has a `tolerance`: the calibration suite in CI's slow tier fails
/// when the simulated value leaves `published ± tolerance`, so a later rule change that breaks
/// the calibration is caught. Figures without a published value, or whose sources disagree,
/// are printed for the reader and never asserted.
public struct CalibrationFigure: Sendable, Equatable {
    /// The experiment, for example `significant change`.
    public var experiment: String
    /// What is measured, for example `P(trigger) after 750 m`.
    public var quantity: String
    /// The unit of `simulated` and `published` (`%`, `s`, `m`).
    public var unit: String
    /// TraceSim's figure from the synthetic replay.
    public var simulated: Double
    /// The published figure, or `nil` when the source gives none for this point.
    public var published: Double?
    /// How far `simulated` may stray from `published` before the calibration fails; `nil` for a
    /// figure that is printed and not asserted.
    public var tolerance: Double?
    /// The citation: who measured it, when, on what, and where it is published.
    public var source: String
    /// What a reader should know: the iOS era of the measurement, or why it is not asserted.
    public var note: String

    /// A figure as printed by `tracesim calibrate`.
    /// - Parameters:
    ///   - experiment: the experiment's name.
    ///   - quantity: what is measured.
    ///   - unit: the unit of both values.
    ///   - simulated: TraceSim's figure.
    ///   - published: the field figure, if any.
    ///   - tolerance: the asserted tolerance, if asserted.
    ///   - source: the citation.
    ///   - note: the era of the measurement or why it is not asserted.
    public init(
        experiment: String, quantity: String, unit: String, simulated: Double, published: Double?,
        tolerance: Double?, source: String, note: String
    ) {
        self.experiment = experiment
        self.quantity = quantity
        self.unit = unit
        self.simulated = simulated
        self.published = published
        self.tolerance = tolerance
        self.source = source
        self.note = note
    }

    /// Whether the figure is asserted and within its tolerance; `nil` when it is not asserted.
    public var withinTolerance: Bool? {
        guard let published, let tolerance else { return nil }
        return abs(simulated - published) <= tolerance
    }
}
