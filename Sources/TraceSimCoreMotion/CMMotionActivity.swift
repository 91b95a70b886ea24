import Foundation
import SimulationCore
import Traces

/// How sure Core Motion is of an activity. Models `CMMotionActivityConfidence` (Apple's raw
/// values).

public enum CMMotionActivityConfidence: Int, Sendable {
    /// Low confidence.
    case low = 0
    /// Medium confidence.
    case medium = 1
    /// High confidence.
    case high = 2
}

/// Whether the app may read motion data. Models `CMAuthorizationStatus` (Apple's raw values).

public enum CMAuthorizationStatus: Int, Sendable {
    /// The person has not been asked yet.
    case notDetermined = 0
    /// Parental controls or device management forbid it.
    case restricted = 1
    /// The person refused.
    case denied = 2
    /// The person allowed it.
    case authorized = 3
}

/// One motion activity update. Models `CMMotionActivity`: the flags are not exclusive (a car
/// waiting at a light can be `automotive` and `stationary`), and `startDate` is when the
/// activity began, which may be before the update arrives.
open class CMMotionActivity: NSObject, @unchecked Sendable {
    /// When the activity began.
    open private(set) var startDate: Date
    /// How sure the classifier is.
    open private(set) var confidence: CMMotionActivityConfidence
    /// The device is not moving.
    open private(set) var stationary: Bool
    /// The person is walking.
    open private(set) var walking: Bool
    /// The person is running.
    open private(set) var running: Bool
    /// The device is in a vehicle.
    open private(set) var automotive: Bool
    /// The person is cycling.
    open private(set) var cycling: Bool
    /// The activity could not be determined.
    open private(set) var unknown: Bool
    /// When the update was made: `CMLogItem.timestamp`, seconds since the device booted. The
    /// simulated phone booted at the Unix epoch, so it equals `startDate`'s seconds since 1970.
    open private(set) var timestamp: TimeInterval

    /// The activity a trace's motion sample reports.
    package init(_ sample: MotionSample) {
        startDate = Date(timeIntervalSince1970: sample.timestamp.secondsSinceEpoch)
        timestamp = sample.timestamp.secondsSinceEpoch
        confidence =
            switch sample.confidence {
            case .low: .low
            case .medium: .medium
            case .high: .high
            }
        stationary = sample.activity.contains(.stationary)
        walking = sample.activity.contains(.walking)
        running = sample.activity.contains(.running)
        automotive = sample.activity.contains(.automotive)
        cycling = sample.activity.contains(.cycling)
        unknown = sample.activity.contains(.unknown)
        super.init()
    }

    /// An activity with every flag off, starting at the reference date, for test doubles
    /// (Apple's class has no public initializer beyond `NSObject`'s).
    public override init() {
        startDate = Date(timeIntervalSinceReferenceDate: 0)
        timestamp = 0
        confidence = .low
        stationary = false
        walking = false
        running = false
        automotive = false
        cycling = false
        unknown = false
        super.init()
    }

    open override var description: String {
        let flags = [
            ("stationary", stationary), ("walking", walking), ("running", running), ("automotive", automotive),
            ("cycling", cycling), ("unknown", unknown),
        ].filter(\.1).map(\.0)
        return "CMMotionActivity(\(flags.joined(separator: ", ")), confidence \(confidence.rawValue), "
            + "start \(startDate.timeIntervalSince1970))"
    }
}
