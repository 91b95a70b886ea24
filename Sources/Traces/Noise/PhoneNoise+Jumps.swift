import SimulationCore

extension PhoneNoise {
    /// Rare single-fix outliers: a fix displaced about `distanceMeters` in a random direction,
    /// its accuracy left as recorded, so only a speed or outlier check can catch it.
    ///
    /// Jumps arrive as a Poisson process in recorded time; the distance is drawn uniformly
    /// within ±20 % of `distanceMeters`. Sources: far-away "spike" fixes on iPhones in every
    /// accuracy mode (transistorsoft/react-native-background-geolocation#1088, #809;
    /// transistorsoft/cordova-background-geolocation-lt#1271); 5 km is the size this project's
    /// issue 19 names, and 3.6 per hour is the benchmark drive's one in a thousand fixes at 1 Hz
    /// (Benchmarks/README.md).
    public struct Jumps: Sendable, Equatable {
        /// Jumps per hour of recording (0...3600).
        public var ratePerHour = 3.6
        /// Typical displacement, metres (1...100000).
        public var distanceMeters = 5000.0

        /// Jumps at the defaults above.
        public init() {}

        func apply(to fixes: inout [Fix], random: inout SplitMix64) {
            for index in fixes.indices {
                let elapsed = LocalOffset.elapsed(fixes, index, cap: 60)
                guard random.happens(ratePerHour: ratePerHour, within: elapsed) else { continue }
                let meters = distanceMeters * random.uniform(0.8...1.2)
                LocalOffset.move(&fixes[index], meters: meters, bearingRadians: random.uniform(0...(2 * Double.pi)))
            }
        }
    }
}
