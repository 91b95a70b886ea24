import Geometry
import SimulationCore
import Traces

/// What Core Location delivers under reduced accuracy: a few fixes an hour, each displaced
/// 1-20 km with a large accuracy (fact sheet a2 #3-#6). The displacement is drawn from the
/// replay's seeded generator and held for a while, like iOS's sticky nearby point.
struct ReducedAccuracyFilter: Sendable, Equatable {
    private var lastDeliveredAt: SimInstant?
    private var offsetDrawnAt: SimInstant?
    private var offsetBearingDegrees = 0.0
    private var offsetMeters = 0.0

    /// The reduced fix to deliver, or `nil` when the rate limit holds it back.
    mutating func reduce(_ fix: Fix, parameters: DeviceParameters, random: inout SplitMix64) -> Fix? {
        let now = fix.timestamp
        let period = 3600 / max(parameters.reducedFixesPerHour, 1e-9)
        if let last = lastDeliveredAt, now.seconds(since: last) < period { return nil }
        lastDeliveredAt = now
        return coarsen(fix, parameters: parameters, random: &random)
    }

    /// `fix` as a reduced-accuracy service reports it: displaced by the displacement that holds
    /// now, with the reduced accuracy and no speed, course or altitude. Significant changes use
    /// it without the standard updates' rate limit: their own 500 m / 5 min rule already spaces
    /// them, and the place they report changes only as often as the held displacement (a2 #7).
    mutating func coarsen(_ fix: Fix, parameters: DeviceParameters, random: inout SplitMix64) -> Fix {
        let now = fix.timestamp
        let displaced = displace(
            Coordinate(latitude: fix.latitude, longitude: fix.longitude), at: now, parameters: parameters,
            random: &random)
        return Fix(
            timestamp: now, latitude: displaced.latitude, longitude: displaced.longitude,
            horizontalAccuracy: .meters(parameters.reducedHorizontalAccuracyMeters), provider: fix.provider)
    }

    /// `position` moved by the displacement that holds at `now`, drawing a new one when the
    /// last has been held long enough. Visits use it without the rate limit: a visit carries
    /// its own dates, and Apple documents visits under reduced accuracy (a2 #8).
    mutating func displace(
        _ position: Coordinate, at now: SimInstant, parameters: DeviceParameters, random: inout SplitMix64
    ) -> Coordinate {
        if offsetDrawnAt.map({ now.seconds(since: $0) >= parameters.reducedDisplacementHoldSeconds }) ?? true {
            offsetDrawnAt = now
            offsetBearingDegrees = random.uniform(0...360)
            offsetMeters = random.uniform(
                DeviceParameters.span(
                    parameters.reducedDisplacementMinimumMeters, parameters.reducedDisplacementMaximumMeters))
        }
        return Geodesy.destination(from: position, bearingDegrees: offsetBearingDegrees, distanceMeters: offsetMeters)
    }
}

/// Tracks whether the device has stayed put long enough for `pausesLocationUpdatesAutomatically`.
struct AutoPauseTracker: Sendable, Equatable {
    private var anchor: Coordinate?
    private var anchorTime: SimInstant?

    mutating func reset() {
        anchor = nil
        anchorTime = nil
    }

    /// Whether updates should pause now.
    /// Inlined into the device's per-fix step, which otherwise copies all of `DeviceParameters`
    /// (some 300 bytes) to pass it.
    @inline(__always)
    mutating func shouldPause(after fix: Fix, parameters: DeviceParameters) -> Bool {
        let position = Coordinate(latitude: fix.latitude, longitude: fix.longitude)
        guard let anchor, let anchorTime,
            DistanceCheck(anchor, position).isAtMost(parameters.autoPauseStationaryRadiusMeters)
        else {
            self.anchor = position
            self.anchorTime = fix.timestamp
            return false
        }
        return fix.timestamp.seconds(since: anchorTime) >= parameters.autoPauseAfterStationarySeconds
    }
}
