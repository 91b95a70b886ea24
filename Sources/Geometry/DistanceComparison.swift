/// The great-circle distance between two points compared with thresholds, with exactly the
/// answers `Geodesy.distanceMeters` gives, but usually without its five transcendental
/// functions.
///
/// Between latitudes ±70° and under 10 km, a flat (equirectangular) distance with the cosine
/// of the mean latitude is within 10⁻⁶ of the haversine (measured over random pairs; the tests
/// check the answers). So a flat distance under 99 % of a threshold is under it, and one over
/// 101 % is over it; in the band between, farther or nearer the poles, the haversine decides.
/// The simulated iPhone compares every fix with region, visit and pause radii this way.
public struct DistanceComparison {
    private let from: Coordinate
    private let to: Coordinate
    /// The flat distance, or NaN where it is not known to be that close to the haversine.
    private let flat: Double

    /// Prepares comparisons of the distance from `from` to `to`.
    public init(_ from: Coordinate, _ to: Coordinate) {
        self.from = from
        self.to = to
        let deltaLatitude = to.latitude - from.latitude
        let deltaLongitude = to.longitude - from.longitude
        guard abs(from.latitude) <= 70, abs(to.latitude) <= 70, abs(deltaLatitude) < 0.09,
            abs(deltaLongitude) < 0.26
        else {
            flat = .nan
            return
        }
        let radians = Double.pi / 180
        let x = deltaLongitude * radians * cos((from.latitude + to.latitude) / 2 * radians)
        let y = deltaLatitude * radians
        let distance = Geodesy.earthRadiusMeters * (x * x + y * y).squareRoot()
        flat = distance < 10_000 ? distance : .nan
    }

    /// Whether the haversine distance is at most `meters`.
    public func isAtMost(_ meters: Double) -> Bool {
        if flat < meters * 0.99 { return true }
        if flat > meters * 1.01 { return false }
        return Geodesy.distanceMeters(from, to) <= meters
    }

    /// Whether the haversine distance is at least `meters`.
    public func isAtLeast(_ meters: Double) -> Bool {
        if flat > meters * 1.01 { return true }
        if flat < meters * 0.99 { return false }
        return Geodesy.distanceMeters(from, to) >= meters
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
