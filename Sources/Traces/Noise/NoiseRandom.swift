import SimulationCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The draws the noise effects need, built only on `SplitMix64.uniform`, whose algorithm is
/// fixed, so every platform draws the same numbers.
extension SplitMix64 {
    /// A standard normal draw (Box–Muller, one of the pair).
    mutating func standardNormal() -> Double {
        // 1 - u lies in (0, 1], so the logarithm is finite.
        let radius = (-2 * log(1 - uniform(0...1))).squareRoot()
        return radius * cos(2 * Double.pi * uniform(0...1))
    }

    /// An exponential draw with this mean.
    mutating func exponential(mean: Double) -> Double {
        -mean * log(1 - uniform(0...1))
    }

    /// Whether an event of a Poisson process at `ratePerHour` happens within `seconds`.
    mutating func happens(ratePerHour: Double, within seconds: Double) -> Bool {
        guard ratePerHour > 0, seconds > 0 else { return false }
        return uniform(0...1) < 1 - exp(-ratePerHour / 3600 * seconds)
    }
}

/// Moving a position by metres east and north, on a sphere of the mean Earth radius: exact
/// enough for offsets of metres to a few kilometres, which is all the noise needs.
enum LocalOffset {
    /// IUGG mean Earth radius, metres.
    static let earthRadiusMeters = 6_371_008.8

    /// `fix` moved `east` and `north` metres; the latitude is clamped to ±90° and the
    /// longitude wrapped into -180...180.
    static func move(_ fix: inout Fix, east: Double, north: Double) {
        let degreesPerMeter = 180 / (Double.pi * earthRadiusMeters)
        let latitude = min(max(fix.latitude + north * degreesPerMeter, -90), 90)
        let cosine = max(cos(fix.latitude * .pi / 180), 1e-6)
        var longitude = fix.longitude + east * degreesPerMeter / cosine
        if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        fix.latitude = latitude
        fix.longitude = min(max(longitude, -180), 180)
    }

    /// `fix` moved `meters` along `bearingRadians` (clockwise from north).
    static func move(_ fix: inout Fix, meters: Double, bearingRadians: Double) {
        move(&fix, east: meters * sin(bearingRadians), north: meters * cos(bearingRadians))
    }

    /// Seconds between two fixes for rate-based effects, capped so a long gap (receiver off)
    /// does not make an event certain.
    static func elapsed(_ fixes: [Fix], _ index: Int, cap: Double) -> Double {
        guard index > 0 else { return 0 }
        return min(max(fixes[index].timestamp.seconds(since: fixes[index - 1].timestamp), 0), cap)
    }
}
