import Device
import Geometry
import SimulationCore
import Traces

/// Stationary or moving, in the anchor SDK's way (Transistorsoft, fact sheet b1): motion
/// activity starts and stops tracking; after `stopTimeout` of stillness GPS goes off and a
/// stationary region is left around the last fix, whose exit is the backup way to notice a
/// departure (the only one without motion permission).
public struct MotionStateMachine: Sendable {
    /// The two states.
    public enum State: String, Sendable {
        case stationary, moving
    }

    /// How a stop is decided.
    public enum StopRule: Sendable, Equatable {
        /// Still (by motion activity, or by speed without it) for `stopTimeoutSeconds`.
        case stopTimeout
        /// Radar's rule (b3): within `stopDistanceMeters` of where the device last moved, for
        /// `stopDurationSeconds`.
        case radar(stopDistanceMeters: Double, stopDurationSeconds: Double)

        /// Radar's defaults: 70 m, 140 s.
        public static let radarDefault = StopRule.radar(stopDistanceMeters: 70, stopDurationSeconds: 140)
    }

    /// The settings; each default names its source.
    public struct Configuration: Sendable, Equatable {
        /// Stillness before stopping: 5 min (Transistorsoft `stopTimeout`, b1).
        public var stopTimeoutSeconds = 300.0
        /// The stationary region's configured radius: 25 m (Transistorsoft iOS `stationaryRadius`,
        /// b1); the device's cushion makes the effective exit about 200 m.
        public var stationaryRadiusMeters = 25.0
        /// Minimum confidence for a moving activity to count (Transistorsoft's 70 % ≈ medium).
        public var minimumConfidence = MotionConfidence.medium
        /// Without motion activity, slower than this counts as still [SIM].
        public var stillSpeedMetersPerSecond = 0.5
        public var stopRule = StopRule.stopTimeout

        public init() {}
    }

    /// A timer the machine asks for.
    public struct StopTimer: Sendable, Equatable {
        /// Stale when the machine's generation moved on.
        public var generation: Int
    }

    /// What happened to the machine, in the past tense.
    public enum Event: Sendable, Equatable {
        case motionActivityReceived(MotionSample)
        case fixAccepted(Fix)
        case stationaryRegionExited
        case stopTimerFired(StopTimer)
        /// The app declared the device moving (Transistorsoft's `changePace(true)`).
        case paceChangedToMoving
        /// iOS paused location updates (`locationManagerDidPauseLocationUpdates`): the SDK takes
        /// it as a stop, as Transistorsoft does when it leaves pausing to iOS (b1).
        case locationUpdatesPaused
    }

    /// What the machine does.
    public enum Action: Sendable, Equatable {
        case startGPS
        case stopGPS
        case monitorStationaryRegion(center: Coordinate, radiusMeters: Double)
        case removeStationaryRegion
        case departed
        case arrived
        case schedule(StopTimer, at: SimInstant)
    }

    /// The settings.
    public let configuration: Configuration
    /// Whether motion activity is available and authorized; without it, speed decides.
    public var usesMotionActivity: Bool
    /// The current state.
    public private(set) var state = State.stationary
    /// Where the last accepted fix was: the centre of the next stationary region.
    private var lastPosition: Coordinate?
    private var stopPendingSince: SimInstant?
    private var generation = 0
    private var lastMovedPosition: Coordinate?
    private var lastMovedAt: SimInstant?

    /// Creates a machine, stationary until the first evidence of movement.
    public init(configuration: Configuration = Configuration(), usesMotionActivity: Bool) {
        self.configuration = configuration
        self.usesMotionActivity = usesMotionActivity
    }

    /// Applies an event.
    /// - Parameters:
    ///   - event: what happened.
    ///   - now: when.
    /// - Returns: what to do, in order; usually nothing.
    /// - Complexity: O(1), no allocation.
    public mutating func handle(_ event: Event, at now: SimInstant) -> Actions {
        switch (state, event) {
        case (.stationary, .motionActivityReceived(let sample)):
            return usesMotionActivity && isMoving(sample) ? depart(at: now) : Actions()
        case (.stationary, .stationaryRegionExited), (.stationary, .paceChangedToMoving):
            return depart(at: now)
        case (_, .fixAccepted(let fix)):
            return fixAccepted(fix, at: now)
        case (.moving, .motionActivityReceived(let sample)):
            guard usesMotionActivity, configuration.stopRule == .stopTimeout else { return Actions() }
            if isMoving(sample) {
                cancelStop()
                return Actions()
            }
            return sample.activity.contains(.stationary) ? beginStop(at: now) : Actions()
        case (.moving, .locationUpdatesPaused):
            return arrive(at: now)
        case (.moving, .stopTimerFired(let timer)):
            guard timer.generation == generation, stopPendingSince != nil else { return Actions() }
            return arrive(at: now)
        case (.stationary, .stopTimerFired), (.moving, .stationaryRegionExited), (.moving, .paceChangedToMoving),
            (.stationary, .locationUpdatesPaused):
            // A stale stop timer, or departure evidence while already moving: nothing to do.
            return Actions()
        }
    }

    /// `handle(.fixAccepted(fix), at: now)`, the engine's call on every accepted fix, without
    /// wrapping the fix in an event first.
    mutating func fixAccepted(_ fix: Fix, at now: SimInstant) -> Actions {
        let position = Self.position(fix)
        switch state {
        case .stationary:
            // The first fix after starting: leave the stationary region around it.
            let isFirst = lastPosition == nil
            lastPosition = position
            guard isFirst else { return Actions() }
            var actions = Actions()
            actions.append(.stopGPS)
            actions.append(
                .monitorStationaryRegion(center: position, radiusMeters: configuration.stationaryRadiusMeters))
            return actions
        case .moving:
            lastPosition = position
            return observeMovingFix(fix, at: now)
        }
    }

    private mutating func observeMovingFix(_ fix: Fix, at now: SimInstant) -> Actions {
        switch configuration.stopRule {
        case .radar(let stopDistance, let stopDuration):
            let position = Self.position(fix)
            guard let anchor = lastMovedPosition, let anchorTime = lastMovedAt,
                DistanceCheck(anchor, position).isAtMost(stopDistance)
            else {
                lastMovedPosition = position
                lastMovedAt = fix.timestamp
                return Actions()
            }
            return fix.timestamp.seconds(since: anchorTime) >= stopDuration ? arrive(at: now) : Actions()
        case .stopTimeout:
            guard !usesMotionActivity else { return Actions() }
            let speed = Double(fix.speedMetersPerSecond ?? 0)
            if speed < configuration.stillSpeedMetersPerSecond { return beginStop(at: now) }
            cancelStop()
            return Actions()
        }
    }

    private func isMoving(_ sample: MotionSample) -> Bool {
        let moving: MotionActivity = [.walking, .running, .cycling, .automotive]
        return !sample.activity.isDisjoint(with: moving)
            && sample.confidence.rawValue >= configuration.minimumConfidence.rawValue
    }

    private mutating func beginStop(at now: SimInstant) -> Actions {
        guard stopPendingSince == nil else { return Actions() }
        stopPendingSince = now
        generation += 1
        var actions = Actions()
        actions.append(
            .schedule(StopTimer(generation: generation), at: now.advanced(bySeconds: configuration.stopTimeoutSeconds)))
        return actions
    }

    private mutating func cancelStop() {
        guard stopPendingSince != nil else { return }
        stopPendingSince = nil
        generation += 1
    }

    private mutating func depart(at now: SimInstant) -> Actions {
        state = .moving
        stopPendingSince = nil
        generation += 1
        lastMovedPosition = lastPosition
        lastMovedAt = now
        return Actions(.removeStationaryRegion, .startGPS, .departed)
    }

    private mutating func arrive(at now: SimInstant) -> Actions {
        state = .stationary
        stopPendingSince = nil
        generation += 1
        var actions = Actions()
        actions.append(.stopGPS)
        if let lastPosition {
            actions.append(
                .monitorStationaryRegion(center: lastPosition, radiusMeters: configuration.stationaryRadiusMeters))
        }
        actions.append(.arrived)
        return actions
    }

    private static func position(_ fix: Fix) -> Coordinate {
        Coordinate(latitude: fix.latitude, longitude: fix.longitude)
    }
}
