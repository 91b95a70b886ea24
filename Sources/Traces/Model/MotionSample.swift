import SimulationCore

/// The activities a motion sample reports. Not mutually exclusive: Core Motion may report
/// `automotive` and `stationary` together (a car waiting at a light).
///
/// Models `CMMotionActivity`'s boolean properties.
public struct MotionActivity: OptionSet, Sendable, Hashable {
    /// The flags as bits.
    public let rawValue: UInt8
    /// Creates a set from bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Models `CMMotionActivity.stationary`.
    public static let stationary = MotionActivity(rawValue: 1 << 0)
    /// Models `CMMotionActivity.walking`.
    public static let walking = MotionActivity(rawValue: 1 << 1)
    /// Models `CMMotionActivity.running`.
    public static let running = MotionActivity(rawValue: 1 << 2)
    /// Models `CMMotionActivity.cycling`.
    public static let cycling = MotionActivity(rawValue: 1 << 3)
    /// Models `CMMotionActivity.automotive`.
    public static let automotive = MotionActivity(rawValue: 1 << 4)
    /// Models `CMMotionActivity.unknown`.
    public static let unknown = MotionActivity(rawValue: 1 << 5)

    /// Every flag with its canonical token, in a fixed order for stable output.
    public static let named: [(flag: MotionActivity, name: String)] = [
        (.stationary, "stationary"), (.walking, "walking"), (.running, "running"),
        (.cycling, "cycling"), (.automotive, "automotive"), (.unknown, "unknown"),
    ]

    /// The flags' tokens in canonical order.
    public var names: [String] {
        Self.named.filter { contains($0.flag) }.map(\.name)
    }

    /// Reads one canonical token. Returns `nil` for an unknown token.
    public init?(name: some StringProtocol) {
        guard let match = Self.named.first(where: { $0.name == name }) else { return nil }
        self = match.flag
    }
}

/// How sure the classifier is. Models `CMMotionActivityConfidence`.
public enum MotionConfidence: UInt8, Sendable, CaseIterable {
    /// Models `CMMotionActivityConfidence.low`.
    case low
    /// Models `CMMotionActivityConfidence.medium`.
    case medium
    /// Models `CMMotionActivityConfidence.high`.
    case high

    /// The canonical token.
    public var name: String {
        switch self {
        case .low: "low"
        case .medium: "medium"
        case .high: "high"
        }
    }

    /// Reads a canonical token back.
    public init?(name: some StringProtocol) {
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }
}

/// One motion-activity observation. It holds from its timestamp until the next sample,
/// the way `CMMotionActivityManager` reports transitions.
public struct MotionSample: Sendable, Equatable {
    /// When the activity began.
    public var timestamp: SimInstant
    /// The activities observed.
    public var activity: MotionActivity
    /// The classifier's confidence.
    public var confidence: MotionConfidence
    /// `true` when the sample was reconstructed from coarse data (for example a Google
    /// Takeout activity segment spanning minutes) rather than sampled by a coprocessor.
    public var isCoarse: Bool
    /// `true` when the simulated device derived the sample from speed because the trace
    /// recorded no motion activity; never set by an importer.
    public var isDerived: Bool

    /// Creates a motion sample.
    public init(
        timestamp: SimInstant, activity: MotionActivity, confidence: MotionConfidence, isCoarse: Bool = false,
        isDerived: Bool = false
    ) {
        self.timestamp = timestamp
        self.activity = activity
        self.confidence = confidence
        self.isCoarse = isCoarse
        self.isDerived = isDerived
    }
}
