import SimulationCore

extension PhoneNoise {
    /// Horizontal accuracy reported smaller than the error: a share of fixes has its figure
    /// (metres or HDOP) multiplied by `factor`.
    ///
    /// Source: iOS reports 10–30 m for fixes 100 m or more off in poor conditions
    /// (sobri909/LocoKit#90), a factor of 0.3 or less. The share, a fifth of the fixes, is a
    /// modelling choice: the reports describe it as common indoors and in cities, not always.
    public struct AccuracyUnderReporting: Sendable, Equatable {
        /// What the reported accuracy is multiplied by (0.01...1).
        public var factor = 0.3
        /// The share of fixes affected (0...1).
        public var share = 0.2

        /// Under-reporting at the defaults above.
        public init() {}

        func apply(to fixes: inout [Fix], random: inout SplitMix64) {
            for index in fixes.indices {
                // One draw per fix whether or not it has an accuracy, so which fixes are hit
                // does not depend on the file's fields.
                guard random.uniform(0...1) < share else { continue }
                switch fixes[index].horizontalAccuracy {
                case .meters(let value)?: fixes[index].horizontalAccuracy = .meters(value * factor)
                case .dilution(let value)?: fixes[index].horizontalAccuracy = .dilution(value * factor)
                case nil: continue
                }
            }
        }
    }
}
