import Geometry
import SimulationCore
import Traces

/// The optional smoothing stage after the gate (Transistorsoft v5 `LocationFilter.policy`,
/// fact sheet b1): pass fixes through, adjust them with a constant-velocity Kalman filter, or
/// additionally reject outliers the filter finds implausible (conservative).
public enum SmoothingPolicy: String, Sendable, CaseIterable {
    /// No change.
    case passThrough
    /// Kalman-smoothed positions.
    case adjust
    /// Kalman-smoothed positions, and fixes more than three sigma from the prediction rejected.
    case conservative
}

/// A constant-velocity Kalman filter per axis in a local east/north frame (metres).
public struct KalmanSmoother: Sendable {
    /// Acceleration noise, m/s² (how fast velocity may change between fixes).
    public var accelerationNoise = 3.0
    private var origin: Coordinate?
    private var cosineOrigin = 1.0
    // Per axis: position, velocity, covariance [p00, p01, p11].
    private var east = (position: 0.0, velocity: 0.0, p00: 0.0, p01: 0.0, p11: 0.0)
    private var north = (position: 0.0, velocity: 0.0, p00: 0.0, p01: 0.0, p11: 0.0)
    private var lastTime: SimInstant?

    /// Creates a filter.
    public init() {}

    /// The smoothed fix, or `nil` when `rejectOutliers` and the fix is further than three
    /// sigma from the prediction.
    public mutating func smooth(_ fix: Fix, accuracyMeters: Double, rejectOutliers: Bool) -> Fix? {
        let point = Coordinate(latitude: fix.latitude, longitude: fix.longitude)
        guard let origin, let lastTime else {
            self.origin = point
            cosineOrigin = cos(point.latitude * .pi / 180)
            let variance = accuracyMeters * accuracyMeters
            east = (0, 0, variance, 0, 100)
            north = (0, 0, variance, 0, 100)
            self.lastTime = fix.timestamp
            return fix
        }
        let metersPerDegree = Geodesy.earthRadiusMeters * .pi / 180
        let measuredEast = (point.longitude - origin.longitude) * metersPerDegree * cosineOrigin
        let measuredNorth = (point.latitude - origin.latitude) * metersPerDegree
        let dt = max(fix.timestamp.seconds(since: lastTime), 1e-3)
        let q = accelerationNoise * accelerationNoise
        let r = max(accuracyMeters * accuracyMeters, 1)
        func predict(_ axis: inout (position: Double, velocity: Double, p00: Double, p01: Double, p11: Double)) {
            axis.position += axis.velocity * dt
            let p00 = axis.p00 + dt * (2 * axis.p01 + dt * axis.p11) + q * dt * dt * dt * dt / 4
            let p01 = axis.p01 + dt * axis.p11 + q * dt * dt * dt / 2
            let p11 = axis.p11 + q * dt * dt
            axis.p00 = p00
            axis.p01 = p01
            axis.p11 = p11
        }
        predict(&east)
        predict(&north)
        let innovationEast = measuredEast - east.position
        let innovationNorth = measuredNorth - north.position
        let sigma = (east.p00 + r).squareRoot()
        if rejectOutliers,
            (innovationEast * innovationEast + innovationNorth * innovationNorth).squareRoot() > 3 * sigma * 1.4142
        {
            return nil
        }
        func update(
            _ axis: inout (position: Double, velocity: Double, p00: Double, p01: Double, p11: Double),
            _ innovation: Double
        ) {
            let s = axis.p00 + r
            let k0 = axis.p00 / s
            let k1 = axis.p01 / s
            axis.position += k0 * innovation
            axis.velocity += k1 * innovation
            let p00 = (1 - k0) * axis.p00
            let p01 = (1 - k0) * axis.p01
            let p11 = axis.p11 - k1 * axis.p01
            axis.p00 = p00
            axis.p01 = p01
            axis.p11 = p11
        }
        update(&east, innovationEast)
        update(&north, innovationNorth)
        self.lastTime = fix.timestamp
        var smoothed = fix
        smoothed.latitude = origin.latitude + north.position / metersPerDegree
        smoothed.longitude = origin.longitude + east.position / (metersPerDegree * cosineOrigin)
        return smoothed
    }
}

/// The elastic distance filter: record a fix only once the device has moved far enough
/// from the last recorded one, further at higher speed.
public struct DistanceFilter: Sendable, Equatable {
    /// How the threshold grows with speed.
    public enum Elasticity: Sendable, Equatable {
        /// Transistorsoft (b1, the default): `ceil(speed / 5 m/s) × distanceFilter × multiplier`,
        /// never below `distanceFilter`; its own example: 27 m/s with 50 m gives 300 m.
        case transistorsoft(multiplier: Double)
        /// mauron85 (b2): `(5 × round(speed / 5))² + distanceFilter` below 100 m/s, at most 1000 m;
        /// its example: 7.7 m/s with 30 m gives 130 m.
        case mauron85
        /// No elasticity.
        case none
    }

    /// The base threshold in metres (Transistorsoft default 10 m).
    public var distanceFilterMeters = 10.0
    /// The elasticity rule.
    public var elasticity = Elasticity.transistorsoft(multiplier: 1)

    /// Creates a filter with the defaults.
    public init() {}

    /// The threshold at a speed.
    public func thresholdMeters(speedMetersPerSecond speed: Double) -> Double {
        switch elasticity {
        case .none:
            return distanceFilterMeters
        case .transistorsoft(let multiplier):
            return max(distanceFilterMeters, (speed / 5).rounded(.up) * distanceFilterMeters * multiplier)
        case .mauron85:
            guard speed < 100 else { return distanceFilterMeters }
            let rounded = 5 * (speed / 5).rounded()
            return min(rounded * rounded + distanceFilterMeters, 1000)
        }
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
