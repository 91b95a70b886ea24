import Device
import Foundation

/// Whether and when the app may use location. Models `CLAuthorizationStatus`, with Apple's
/// `Int32` raw values.
public enum CLAuthorizationStatus: Int32, Sendable {
    /// The person has not been asked yet.
    case notDetermined = 0
    /// Parental controls or a profile forbid location; the person cannot change it.
    case restricted = 1
    /// The person said no, or turned Location Services off.
    case denied = 2
    /// At any time, including in the background.
    case authorizedAlways = 3
    /// While the app is in use.
    case authorizedWhenInUse = 4

    /// The macOS name of `authorizedAlways` (the same raw value, 3); unavailable on iOS.
    @available(*, deprecated, renamed: "authorizedAlways")
    public static var authorized: CLAuthorizationStatus { .authorizedAlways }

    init(_ status: AuthorizationStatus) {
        switch status {
        case .notDetermined: self = .notDetermined
        case .restricted: self = .restricted
        case .denied: self = .denied
        case .authorizedAlways: self = .authorizedAlways
        case .authorizedWhenInUse: self = .authorizedWhenInUse
        }
    }
}

/// Precise or approximate location. Models `CLAccuracyAuthorization`.
public enum CLAccuracyAuthorization: Int, Sendable {
    /// Precise locations.
    case fullAccuracy = 0
    /// Approximate locations, a few an hour.
    case reducedAccuracy = 1

    init(_ accuracy: AccuracyAuthorization) {
        self = accuracy == .fullAccuracy ? .fullAccuracy : .reducedAccuracy
    }
}

/// What the app tracks, a hint for automatic pausing. Models `CLActivityType`. Stored only:
/// the simulated phone does not tune its pausing by activity type.
public enum CLActivityType: Int, Sendable {
    /// Unknown, the default.
    case other = 1
    /// Driving navigation.
    case automotiveNavigation = 2
    /// Walking, running, cycling.
    case fitness = 3
    /// Other navigation: boats, trains, planes.
    case otherNavigation = 4
    /// Flight.
    case airborne = 5
}

/// Where the device is with respect to a region. Models `CLRegionState`.
public enum CLRegionState: Int, Sendable {
    /// Not known (no location yet).
    case unknown = 0
    /// Inside the region.
    case inside = 1
    /// Outside the region.
    case outside = 2
}

/// A building floor. Models `CLFloor`; the simulated phone reports no floors, so a location's
/// `floor` is always `nil`.
open class CLFloor: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    /// The floor, 0 the ground floor, negative below it.
    open var level: Int { storedLevel }
    private let storedLevel: Int

    package init(level: Int) {
        storedLevel = level
        super.init()
    }

    /// Decodes a floor encoded by `encode(with:)`.
    public required init?(coder: NSCoder) {
        storedLevel = coder.decodeInteger(forKey: "level")
        super.init()
    }

    /// Floors are encoded securely.
    public class var supportsSecureCoding: Bool { true }

    /// Encodes the level.
    open func encode(with coder: NSCoder) { coder.encode(storedLevel, forKey: "level") }

    /// The floor itself: floors are immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// Floors on the same level are equal.
    open override func isEqual(_ object: Any?) -> Bool { (object as? CLFloor)?.level == level }

    /// The level's hash.
    open override var hash: Int { level.hashValue }
}
