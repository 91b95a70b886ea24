import Geometry
import SimulationCore
import Traces

/// Derives motion activity from speed for traces that recorded none (fact sheet a7 #4):
/// a change is reported only after an onset latency drawn from the seeded generator, and a
/// stop after driving sometimes reads `automotive` and `stationary` together, as Core Motion
/// does at red lights. Thresholds are simulator parameters.
struct MotionDeriver: Sendable, Equatable {
    private var reported: MotionActivity?
    private var pending: (activity: MotionActivity, effectiveAt: SimInstant)?
    private var previousFix: Fix?

    static func == (lhs: MotionDeriver, rhs: MotionDeriver) -> Bool {
        lhs.reported == rhs.reported && lhs.pending?.activity == rhs.pending?.activity
            && lhs.pending?.effectiveAt == rhs.pending?.effectiveAt && lhs.previousFix == rhs.previousFix
    }

    /// The derived samples that become due by this fix.
    /// Inlined into the device's per-fix step, which otherwise copies all of `DeviceParameters`
    /// (some 300 bytes) to pass it.
    @inline(__always)
    mutating func observe(_ fix: Fix, parameters: DeviceParameters, random: inout SplitMix64) -> [MotionSample] {
        defer { previousFix = fix }
        let target = Self.activity(forSpeed: speed(at: fix), parameters: parameters)
        var samples: [MotionSample] = []
        if let due = pending, due.effectiveAt <= fix.timestamp {
            pending = nil
            var activity = due.activity
            if activity == .stationary, reported == .automotive,
                random.uniform(0...1) < parameters.motionStopFlickerProbability
            {
                activity.insert(.automotive)
            }
            reported = due.activity
            samples.append(
                MotionSample(timestamp: due.effectiveAt, activity: activity, confidence: .medium, isDerived: true))
        }
        if target != reported, target != pending?.activity {
            let latency = random.uniform(
                DeviceParameters.span(
                    parameters.motionOnsetLatencyMinimumSeconds, parameters.motionOnsetLatencyMaximumSeconds))
            pending = (target, fix.timestamp.advanced(bySeconds: latency))
        } else if target == reported {
            pending = nil
        }
        return samples
    }

    private func speed(at fix: Fix) -> Double {
        if let speed = fix.speedMetersPerSecond { return Double(speed) }
        guard let previous = previousFix else { return 0 }
        let seconds = fix.timestamp.seconds(since: previous.timestamp)
        guard seconds > 0 else { return 0 }
        let distance = Geodesy.distanceMeters(
            Coordinate(latitude: previous.latitude, longitude: previous.longitude),
            Coordinate(latitude: fix.latitude, longitude: fix.longitude))
        return distance / seconds
    }

    static func activity(forSpeed speed: Double, parameters: DeviceParameters) -> MotionActivity {
        switch speed {
        case parameters.motionAutomotiveSpeedMetersPerSecond...: .automotive
        case parameters.motionRunningSpeedMetersPerSecond...: .running
        case parameters.motionWalkingSpeedMetersPerSecond...: .walking
        default: .stationary
        }
    }
}
