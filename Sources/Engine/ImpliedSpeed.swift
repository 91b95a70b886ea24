import Geometry

/// Decides whether going between two fixes in a given time exceeds a speed, with exactly the
/// answer the haversine distance gives, but without its five transcendental functions in the
/// common case.
///
/// A flat (equirectangular) distance is within 0.5 % of the great circle for steps under
/// 10 km between latitudes ±70°, even with a cached cosine: the cache is refreshed when the
/// latitude moves 0.05°, so it is at most 0.1° from the step's mean latitude, under 0.5 % of
/// error at 70°; the flat projection itself adds under 10⁻⁵ at that size. So a flat speed
/// below 99 % of the limit is below it and one above 101 % is above it; only the 2 % band
/// between, long steps and polar ones need the haversine. Tested against the haversine
/// decision on random and near-limit steps.
///
/// `DistanceComparison` does the same for one-off comparisons with the exact cosine of the
/// mean latitude; this check runs on every fix in order, so it keeps the cosine between calls,
/// which makes the gate about 15 % faster at the price of the wider 0.5 % bound.
public struct ImpliedSpeedCheck: Sendable {
    private var cachedLatitude = Double.nan
    private var cachedCosine = 0.0

    /// Creates a check with an empty cache.
    public init() {}

    /// Whether `distance(from, to) / seconds > limit`, with `distance` the haversine.
    public mutating func exceeds(from: Coordinate, to: Coordinate, seconds: Double, limit: Double) -> Bool {
        if let flatSpeed = flatSpeed(from: from, to: to, seconds: seconds) {
            if flatSpeed < limit * 0.99 { return false }
            if flatSpeed > limit * 1.01 { return true }
        }
        return Geodesy.distanceMeters(from, to) / seconds > limit
    }

    /// The flat speed, or `nil` where the flat distance is not known to be within 0.5 %.
    private mutating func flatSpeed(from: Coordinate, to: Coordinate, seconds: Double) -> Double? {
        let latitude = from.latitude
        guard abs(latitude) <= 70, abs(to.latitude) <= 70, seconds > 0 else { return nil }
        let deltaLatitude = to.latitude - latitude
        let deltaLongitude = to.longitude - from.longitude
        // 0.09° of latitude is 10 km; a wider longitude step is longer than that anywhere
        // below 70° or crosses the antimeridian. Both take the exact path.
        guard abs(deltaLatitude) < 0.09, abs(deltaLongitude) < 0.26 else { return nil }
        if !(abs(latitude - cachedLatitude) <= 0.05) {
            // Also taken on the first call, when the cached latitude is NaN.
            cachedLatitude = latitude
            cachedCosine = cos(latitude * Double.pi / 180)
        }
        let radians = Double.pi / 180
        let x = deltaLongitude * radians * cachedCosine
        let y = deltaLatitude * radians
        let distance = Geodesy.earthRadiusMeters * (x * x + y * y).squareRoot()
        guard distance < 10_000 else { return nil }
        return distance / seconds
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
