import SimulationCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension PhoneNoise {
    /// Urban-canyon multipath: episodes during which every fix carries a correlated offset of
    /// tens of metres, while the reported accuracy grows by only a share of that error (an HDOP
    /// by that share over the standard UERE, so the gate sees the same growth in metres).
    ///
    /// Episodes start as a Poisson process (`ratePerHour`) and last an exponentially
    /// distributed time (`meanDurationSeconds`). Within one, the east and north offsets are
    /// each a first-order Gauss–Markov (Ornstein–Uhlenbeck) process of standard deviation
    /// `sigmaMeters` and correlation time `correlationSeconds`, started from its stationary
    /// distribution: o' = φ·o + σ·√(1−φ²)·w, φ = e^(−Δt/τ).
    ///
    /// Sources: reflected signals put city fixes on the wrong side of the street or the wrong
    /// block (Android Developers Blog, "Improving urban GPS accuracy for your app", Dec 2020):
    /// σ = 30 m. Phone GPS errors are time-correlated and an Ornstein–Uhlenbeck process fits
    /// them better than white noise (Sensors 2020, 20(21), 6050); their autocorrelation bends
    /// at about a minute (D. L. Wilson, "Correlation of errors", Garmin 12XL test): τ = 60 s.
    /// iOS reports 10–30 m accuracy for fixes 100 m or more off in poor conditions
    /// (sobri909/LocoKit#90): the reported accuracy grows by 0.3 of the offset. Episode rate
    /// and length are a modelling choice (one block-long canyon every quarter hour, a minute
    /// each); tune them to the city.
    public struct Multipath: Sendable, Equatable {
        /// Episodes per hour of recording (0...3600).
        public var ratePerHour = 4.0
        /// Mean episode length, seconds (1...86400).
        public var meanDurationSeconds = 60.0
        /// Standard deviation of each of the east and north offsets, metres (0...1000).
        public var sigmaMeters = 30.0
        /// Correlation time of the offsets, seconds (0.1...86400).
        public var correlationSeconds = 60.0
        /// How much of the offset's length is added to a measured accuracy (0...1).
        public var accuracyShare = 0.3

        /// Multipath at the defaults above.
        public init() {}

        func apply(to fixes: inout [Fix], random: inout SplitMix64) {
            var remainingSeconds = 0.0
            var east = 0.0
            var north = 0.0
            for index in fixes.indices {
                let elapsed = LocalOffset.elapsed(fixes, index, cap: 60)
                if remainingSeconds > 0 {
                    remainingSeconds -= elapsed
                    let phi = exp(-elapsed / correlationSeconds)
                    let step = sigmaMeters * (1 - phi * phi).squareRoot()
                    east = phi * east + step * random.standardNormal()
                    north = phi * north + step * random.standardNormal()
                }
                if remainingSeconds <= 0 {
                    remainingSeconds = 0
                    guard random.happens(ratePerHour: ratePerHour, within: elapsed) else { continue }
                    remainingSeconds = random.exponential(mean: meanDurationSeconds)
                    east = sigmaMeters * random.standardNormal()
                    north = sigmaMeters * random.standardNormal()
                }
                LocalOffset.move(&fixes[index], east: east, north: north)
                let error = (east * east + north * north).squareRoot()
                switch fixes[index].horizontalAccuracy {
                case .meters(let meters)?: fixes[index].horizontalAccuracy = .meters(meters + accuracyShare * error)
                case .dilution(let dilution)?:
                    // In the units the gate will read it in: HDOP × the standard UERE.
                    let uere = UserEquivalentRangeError.standard.horizontalMeters
                    fixes[index].horizontalAccuracy = .dilution(dilution + accuracyShare * error / uere)
                case nil: break
                }
            }
        }
    }
}
