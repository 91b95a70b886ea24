/// A seeded, platform-independent random generator (SplitMix64). Every random choice in a
/// replay draws from one of these, so the same seed gives the same run on every machine.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator from a seed.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A uniform `Double` in `range`, computed the same way on every platform (the standard
    /// library's `Double.random(in:using:)` does not promise a stable algorithm).
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        let unit = Double(next() >> 11) * 0x1.0p-53
        return range.lowerBound + unit * (range.upperBound - range.lowerBound)
    }
}
