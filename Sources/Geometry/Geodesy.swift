#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A WGS-84 position in degrees.
public struct Coordinate: Sendable, Equatable {
    /// Latitude in degrees, -90...90.
    public var latitude: Double
    /// Longitude in degrees, -180...180.
    public var longitude: Double

    /// Creates a coordinate.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// Distances and bearings on a spherical Earth. At the scales TraceSim works at (metres to
/// tens of kilometres) the sphere is within 0.5 % of the ellipsoid, well inside GNSS error.
public enum Geodesy {
    /// The mean Earth radius (IUGG), in metres.
    public static let earthRadiusMeters = 6_371_008.8

    /// The great-circle distance between two coordinates, in metres (haversine).
    /// - Complexity: O(1), two sines, two cosines and an arcsine.
    @inlinable
    public static func distanceMeters(_ from: Coordinate, _ to: Coordinate) -> Double {
        let radians = Double.pi / 180
        let deltaLatitude = (to.latitude - from.latitude) * radians
        let deltaLongitude = (to.longitude - from.longitude) * radians
        let sinLatitude = sin(deltaLatitude / 2)
        let sinLongitude = sin(deltaLongitude / 2)
        let a =
            sinLatitude * sinLatitude
            + cos(from.latitude * radians) * cos(to.latitude * radians) * sinLongitude * sinLongitude
        return 2 * earthRadiusMeters * asin(min(1, a.squareRoot()))
    }

    /// The point `distanceMeters` away from `origin` along `bearingDegrees` (clockwise from
    /// true north), on the great circle.
    public static func destination(from origin: Coordinate, bearingDegrees: Double, distanceMeters: Double)
        -> Coordinate
    {
        let radians = Double.pi / 180
        let angular = distanceMeters / earthRadiusMeters
        let bearing = bearingDegrees * radians
        let latitude = origin.latitude * radians
        let longitude = origin.longitude * radians
        let destinationLatitude = asin(sin(latitude) * cos(angular) + cos(latitude) * sin(angular) * cos(bearing))
        let destinationLongitude =
            longitude
            + atan2(
                sin(bearing) * sin(angular) * cos(latitude), cos(angular) - sin(latitude) * sin(destinationLatitude))
        var longitudeDegrees = destinationLongitude / radians
        longitudeDegrees = (longitudeDegrees + 540).truncatingRemainder(dividingBy: 360) - 180
        return Coordinate(latitude: destinationLatitude / radians, longitude: longitudeDegrees)
    }
}
