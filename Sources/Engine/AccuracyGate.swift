import Geometry
import SimulationCore
import Traces

/// Why the gate rejected a fix. The raw values are stable report codes.
public enum RejectionReason: String, Sendable, CaseIterable, Comparable {
    /// Horizontal accuracy worse than the threshold (estimated metres count as metres here,
    /// but are never mistaken for measured ones).
    case lowAccuracy
    /// Reaching this fix would take more than the maximum speed (a teleport).
    case impliedSpeed
    /// Older than the maximum age when delivered (cached or stale).
    case stale
    /// The first fix of a session contradicted by the next one (iOS's cached first fix).
    case staleFirstFix
    /// Same timestamp as the previous fix.
    case duplicate
    /// Earlier than the previous fix.
    case outOfOrder
    /// Negative or non-finite accuracy.
    case invalidAccuracy
    /// Rejected by the conservative smoother as an outlier.
    case outlier

    /// Orders by code, for stable reports.
    public static func < (lhs: RejectionReason, rhs: RejectionReason) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The accuracy gate: a value-type stage that accepts or rejects each delivered fix.
///
/// Defaults: `trackingAccuracyThreshold` 100 m and `maxImpliedSpeed` 60 m/s (Transistorsoft
/// v5, fact sheet b1), maximum age 15 s (Apple's archived sample, a5 #4).
public struct AccuracyGate: Sendable {
    /// The gate's settings.
    public struct Configuration: Sendable, Equatable {
        /// Reject worse than this, in metres.
        public var maximumAccuracyMeters = 100.0
        /// Reject a fix that implies more than this speed from the last accepted one.
        public var maximumImpliedSpeedMetersPerSecond = 60.0
        /// Reject a fix older than this when delivered.
        public var maximumAgeSeconds = 15.0
        /// Hold the first fix until the next confirms it, rejecting it when they disagree.
        public var confirmsFirstFix = true
        /// How dilution-only accuracy becomes (estimated) metres. The simulated phone already
        /// delivers metres (issue 30); this serves fixes handed to the gate from elsewhere.
        public var uere = UserEquivalentRangeError.standard

        public init() {}
    }

    /// What the gate did with one fix.
    public enum Decision: Sendable, Equatable {
        /// Pass these fixes on, in order (the held first fix may come out with the second).
        case accept(Fix, held: Fix?)
        /// The fix is rejected.
        case reject(RejectionReason)
        /// The first fix is held until the next one confirms it.
        case hold
        /// The held first fix was rejected as stale; the new one is held in its place.
        case rejectHeld(RejectionReason)
    }

    /// The settings.
    public var configuration: Configuration
    /// The fix later fixes are judged against: the last accepted one, or the held first fix.
    /// Only its time and position matter, so only they are kept.
    private var referenceTime = SimInstant(nanosecondsSinceEpoch: 0)
    private var referencePosition = Coordinate(latitude: 0, longitude: 0)
    private var hasAccepted = false
    private var held: Fix?
    /// A reference exists once a fix was held or accepted.
    private var hasReference: Bool { hasAccepted || held != nil }
    private var impliedSpeed = ImpliedSpeedCheck()

    /// Creates a gate.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// What the gate did with one fix, as the engine reads it: the fix itself is the caller's,
    /// so an acceptance (every fix, nearly) carries nothing back; only a released first fix does.
    enum Verdict {
        /// Pass the fix on.
        case accept
        /// Pass the held first fix on, then this one.
        case acceptReleasing(Fix)
        /// The fix is rejected.
        case reject(RejectionReason)
        /// The first fix is held until the next one confirms it.
        case hold
        /// The held first fix was rejected; the new one is held in its place.
        case rejectHeld(RejectionReason)
    }

    /// Judges a fix delivered at `deliveredAt`.
    /// - Parameters:
    ///   - fix: the fix as delivered.
    ///   - deliveredAt: when the app received it.
    /// - Returns: what to do with it.
    /// - Complexity: O(1), no allocation.
    public mutating func evaluate(_ fix: Fix, deliveredAt: SimInstant) -> Decision {
        switch judge(fix, deliveredAt: deliveredAt) {
        case .accept: .accept(fix, held: nil)
        case .acceptReleasing(let held): .accept(fix, held: held)
        case .reject(let reason): .reject(reason)
        case .hold: .hold
        case .rejectHeld(let reason): .rejectHeld(reason)
        }
    }

    /// `evaluate` without copying the fix into its answer: the engine's per-fix call.
    /// - Complexity: O(1), no allocation.
    mutating func judge(_ fix: Fix, deliveredAt: SimInstant) -> Verdict {
        if let figure = fix.storedHorizontalAccuracyFigure {
            // The figure as given (metres from the phone; HDOP only from a fix that did not pass
            // through it): negative or non-finite is invalid.
            if !figure.isFinite || figure < 0 { return .reject(.invalidAccuracy) }
            let meters =
                fix.horizontalAccuracyKind == .dilution ? figure * configuration.uere.horizontalMeters : figure
            if meters > configuration.maximumAccuracyMeters { return .reject(.lowAccuracy) }
        }
        if deliveredAt.seconds(since: fix.timestamp) > configuration.maximumAgeSeconds { return .reject(.stale) }
        let position = Coordinate(latitude: fix.latitude, longitude: fix.longitude)
        if hasReference {
            if fix.timestamp == referenceTime { return .reject(.duplicate) }
            if fix.timestamp < referenceTime { return .reject(.outOfOrder) }
            let seconds = fix.timestamp.seconds(since: referenceTime)
            if impliedSpeed.exceeds(
                from: referencePosition, to: position, seconds: seconds,
                limit: configuration.maximumImpliedSpeedMetersPerSecond)
            {
                if !hasAccepted, held != nil {
                    // The first fix disagrees with the second: it was the cached one.
                    held = fix
                    makeReference(fix, position)
                    return .rejectHeld(.staleFirstFix)
                }
                return .reject(.impliedSpeed)
            }
        } else if configuration.confirmsFirstFix {
            held = fix
            makeReference(fix, position)
            return .hold
        }
        makeReference(fix, position)
        if hasAccepted { return .accept }
        hasAccepted = true
        guard let released = held else { return .accept }
        held = nil
        return .acceptReleasing(released)
    }

    private mutating func makeReference(_ fix: Fix, _ position: Coordinate) {
        referenceTime = fix.timestamp
        referencePosition = position
    }
}
