import Device
import Geometry
import Traces

/// Distance between consecutive fixes: an equirectangular approximation with the cosine of
/// the mean latitude, within a centimetre of haversine up to a few kilometres (tested), at a
/// fraction of its cost.
public enum LocalDistance {
    /// Metres between two nearby coordinates.
    @inlinable
    public static func meters(_ a: Coordinate, _ b: Coordinate) -> Double {
        let radians = Double.pi / 180
        let meanLatitude = (a.latitude + b.latitude) / 2 * radians
        let x = (b.longitude - a.longitude) * radians * cos(meanLatitude)
        let y = (b.latitude - a.latitude) * radians
        return Geodesy.earthRadiusMeters * (x * x + y * y).squareRoot()
    }
}

extension LocalDistance {
    /// `meters(a, b) < limit`, mostly without the cosine (`DistanceCheck`).
    @inline(__always)
    static func isBelow(_ a: Coordinate, _ b: Coordinate, _ limit: Double) -> Bool {
        switch DistanceCheck.isFlatDistance(a, b, below: limit) {
        case true?: true
        case false?: false
        case nil: meters(a, b) < limit
        }
    }

    /// `meters(a, b) >= limit`, mostly without the cosine (`DistanceCheck`).
    @inline(__always)
    static func isAtLeast(_ a: Coordinate, _ b: Coordinate, _ limit: Double) -> Bool {
        switch DistanceCheck.isFlatDistance(a, b, below: limit) {
        case true?: false
        case false?: true
        case nil: meters(a, b) >= limit
        }
    }
}

/// Sums distance over accepted fixes accurate enough for it (`odometerAccuracyThreshold`,
/// 20 m by default: Transistorsoft v5 runtime default, fact sheet b1).
public struct Odometer: Sendable, Equatable {
    /// Fixes worse than this (in metres, estimated or measured) do not add distance.
    public var accuracyThresholdMeters = 20.0
    /// Metres so far.
    public private(set) var meters = 0.0
    private var last: Coordinate?

    /// Creates an odometer.
    public init() {}

    /// Adds the step to this fix when it is accurate enough.
    public mutating func add(_ fix: Fix, accuracyMeters: Double?) {
        if let accuracyMeters, accuracyMeters > accuracyThresholdMeters { return }
        let point = Coordinate(latitude: fix.latitude, longitude: fix.longitude)
        if let last {
            let step = LocalDistance.meters(last, point)
            // Beyond a few kilometres the flat approximation drifts; use the great circle.
            meters += step < 5000 ? step : Geodesy.distanceMeters(last, point)
        }
        last = point
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
