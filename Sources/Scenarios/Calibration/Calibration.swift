/// The calibration suite: synthetic experiments built like published field measurements, each
/// giving `CalibrationFigure`s. `tracesim calibrate` prints them; the slow tier asserts those
/// with a tolerance.
public enum Calibration {
    /// Every experiment's figures, in a fixed order, from runs seeded by `seed`.
    /// - Parameter seed: the seed of every experiment's runs; the same seed gives the same figures.
    public static func figures(seed: UInt64) -> [CalibrationFigure] {
        let significantChange = SignificantChangeExperiment.figures(seed: seed)
        let whenInUseCutoff = WhenInUseCutoffExperiment.figures()
        // 1,000 trials rather than the field test's 100: the asserted miss rate's sampling error
        // (about 2.6 points at 100 trials) would otherwise let some seeds leave its ±5 points.
        let regionExit = RegionExitExperiment.figures(seed: seed, trials: 1_000)
        return significantChange + whenInUseCutoff + regionExit
    }
}
