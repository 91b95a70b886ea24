import Device
import Foundation
import Geometry

/// An area the app asks the system to watch. Models `CLRegion`, the abstract base of
/// `CLCircularRegion` and `CLBeaconRegion`; only circular regions can be monitored here.
open class CLRegion: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    /// The app's name for the region; registering another region with the same identifier
    /// replaces this one.
    public let identifier: String
    /// Whether entering produces `didEnterRegion` (default true).
    open var notifyOnEntry = true
    /// Whether leaving produces `didExitRegion` (default true).
    open var notifyOnExit = true

    package init(identifier: String) {
        self.identifier = identifier
        super.init()
    }

    /// Decodes a region `encode(with:)` wrote; `nil` without an identifier.
    public required init?(coder: NSCoder) {
        guard let identifier = coder.decodeObject(forKey: "identifier") as? String else { return nil }
        self.identifier = identifier
        notifyOnEntry = coder.decodeBool(forKey: "notifyOnEntry")
        notifyOnExit = coder.decodeBool(forKey: "notifyOnExit")
        super.init()
    }

    /// Regions are encoded securely.
    public class var supportsSecureCoding: Bool { true }

    /// Encodes the identifier and the notification switches.
    open func encode(with coder: NSCoder) {
        coder.encode(identifier as NSString, forKey: "identifier")
        coder.encode(notifyOnEntry, forKey: "notifyOnEntry")
        coder.encode(notifyOnExit, forKey: "notifyOnExit")
    }

    /// A copy with the same identifier and switches.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = CLRegion(identifier: identifier)
        copy.notifyOnEntry = notifyOnEntry
        copy.notifyOnExit = notifyOnExit
        return copy
    }

    /// Regions with the same identifier are the same region to the system (it keys them so).
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CLRegion else { return false }
        return type(of: other) == type(of: self) && other.identifier == identifier
    }

    /// The identifier's hash.
    open override var hash: Int { identifier.hashValue }
}

/// A circle on the ground. Models `CLCircularRegion`.
open class CLCircularRegion: CLRegion, @unchecked Sendable {
    /// The centre.
    public let center: CLLocationCoordinate2D
    /// The radius in metres. The device widens small radii for entry, as iOS does.
    public let radius: CLLocationDistance

    /// A circle of `radius` metres around `center`.
    public init(center: CLLocationCoordinate2D, radius: CLLocationDistance, identifier: String) {
        self.center = center
        self.radius = radius
        super.init(identifier: identifier)
    }

    /// Decodes a region `encode(with:)` wrote.
    public required init?(coder: NSCoder) {
        center = CLLocationCoordinate2D(
            latitude: coder.decodeDouble(forKey: "latitude"), longitude: coder.decodeDouble(forKey: "longitude"))
        radius = coder.decodeDouble(forKey: "radius")
        super.init(coder: coder)
    }

    /// Circular regions are encoded securely.
    public override class var supportsSecureCoding: Bool { true }

    /// Encodes the circle as well.
    open override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(center.latitude, forKey: "latitude")
        coder.encode(center.longitude, forKey: "longitude")
        coder.encode(radius, forKey: "radius")
    }

    /// A copy with the same circle, identifier and switches.
    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = CLCircularRegion(center: center, radius: radius, identifier: identifier)
        copy.notifyOnEntry = notifyOnEntry
        copy.notifyOnExit = notifyOnExit
        return copy
    }

    /// Whether `coordinate` is within `radius` of `center` by great-circle distance.
    open func contains(_ coordinate: CLLocationCoordinate2D) -> Bool {
        Geodesy.distanceMeters(
            Coordinate(latitude: center.latitude, longitude: center.longitude),
            Coordinate(latitude: coordinate.latitude, longitude: coordinate.longitude)) <= radius
    }

    var monitored: MonitoredRegion {
        MonitoredRegion(
            identifier: identifier, center: Coordinate(latitude: center.latitude, longitude: center.longitude),
            radiusMeters: radius)
    }
}

/// A Bluetooth beacon's identity. Models `CLBeaconIdentityConstraint`; beacons are not
/// simulated.
open class CLBeaconIdentityConstraint: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    /// The beacons' UUID.
    public let uuid: UUID
    /// The major value, if constrained.
    public let major: CLBeaconMajorValue?
    /// The minor value, if constrained.
    public let minor: CLBeaconMinorValue?

    /// Beacons with `uuid`.
    public convenience init(uuid: UUID) { self.init(uuid: uuid, major: nil, minor: nil) }
    /// Beacons with `uuid` and `major`.
    public convenience init(uuid: UUID, major: CLBeaconMajorValue) { self.init(uuid: uuid, major: major, minor: nil) }
    /// Beacons with `uuid`, `major` and `minor`.
    public convenience init(uuid: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue) {
        self.init(uuid: uuid, major: Optional(major), minor: Optional(minor))
    }

    private init(uuid: UUID, major: CLBeaconMajorValue?, minor: CLBeaconMinorValue?) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
        super.init()
    }

    /// Decodes a constraint.
    public required init?(coder: NSCoder) {
        guard let text = coder.decodeObject(forKey: "uuid") as? String, let uuid = UUID(uuidString: text) else {
            return nil
        }
        self.uuid = uuid
        major = coder.containsValue(forKey: "major") ? UInt16(clamping: coder.decodeInteger(forKey: "major")) : nil
        minor = coder.containsValue(forKey: "minor") ? UInt16(clamping: coder.decodeInteger(forKey: "minor")) : nil
        super.init()
    }

    /// Constraints are encoded securely.
    public class var supportsSecureCoding: Bool { true }

    /// Encodes the identity.
    open func encode(with coder: NSCoder) {
        coder.encode(uuid.uuidString as NSString, forKey: "uuid")
        if let major { coder.encode(Int(major), forKey: "major") }
        if let minor { coder.encode(Int(minor), forKey: "minor") }
    }

    /// The constraint itself: constraints are immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }
}

/// A beacon's major value. Models `CLBeaconMajorValue`.
public typealias CLBeaconMajorValue = UInt16
/// A beacon's minor value. Models `CLBeaconMinorValue`.
public typealias CLBeaconMinorValue = UInt16

/// A region defined by Bluetooth beacons. Models `CLBeaconRegion`; inert: monitoring one fails
/// with `regionMonitoringFailure`, since the simulated phone has no beacons.
open class CLBeaconRegion: CLRegion, @unchecked Sendable {
    /// The beacons the region matches.
    public let beaconIdentityConstraint: CLBeaconIdentityConstraint
    /// Whether the system reports the state when the display turns on.
    open var notifyEntryStateOnDisplay = false
    /// The beacons' UUID.
    open var uuid: UUID { beaconIdentityConstraint.uuid }
    /// The major value, if constrained.
    open var major: NSNumber? { beaconIdentityConstraint.major.map { NSNumber(value: $0) } }
    /// The minor value, if constrained.
    open var minor: NSNumber? { beaconIdentityConstraint.minor.map { NSNumber(value: $0) } }

    /// A region of the beacons `beaconIdentityConstraint` matches.
    public init(beaconIdentityConstraint: CLBeaconIdentityConstraint, identifier: String) {
        self.beaconIdentityConstraint = beaconIdentityConstraint
        super.init(identifier: identifier)
    }

    /// A region of the beacons with `uuid`.
    public convenience init(uuid: UUID, identifier: String) {
        self.init(beaconIdentityConstraint: CLBeaconIdentityConstraint(uuid: uuid), identifier: identifier)
    }

    /// A region of the beacons with `uuid` and `major`.
    public convenience init(uuid: UUID, major: CLBeaconMajorValue, identifier: String) {
        self.init(
            beaconIdentityConstraint: CLBeaconIdentityConstraint(uuid: uuid, major: major), identifier: identifier)
    }

    /// A region of the beacons with `uuid`, `major` and `minor`.
    public convenience init(uuid: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue, identifier: String) {
        self.init(
            beaconIdentityConstraint: CLBeaconIdentityConstraint(uuid: uuid, major: major, minor: minor),
            identifier: identifier)
    }

    /// A region of the beacons with `proximityUUID` (deprecated in iOS 13).
    @available(iOS, deprecated: 13.0, renamed: "init(uuid:identifier:)")
    @available(macOS, deprecated: 10.15, renamed: "init(uuid:identifier:)")
    public convenience init(proximityUUID: UUID, identifier: String) {
        self.init(uuid: proximityUUID, identifier: identifier)
    }

    /// A region of the beacons with `proximityUUID` and `major` (deprecated in iOS 13).
    @available(iOS, deprecated: 13.0, renamed: "init(uuid:major:identifier:)")
    @available(macOS, deprecated: 10.15, renamed: "init(uuid:major:identifier:)")
    public convenience init(proximityUUID: UUID, major: CLBeaconMajorValue, identifier: String) {
        self.init(uuid: proximityUUID, major: major, identifier: identifier)
    }

    /// A region of the beacons with `proximityUUID`, `major` and `minor` (deprecated in iOS 13).
    @available(iOS, deprecated: 13.0, renamed: "init(uuid:major:minor:identifier:)")
    @available(macOS, deprecated: 10.15, renamed: "init(uuid:major:minor:identifier:)")
    public convenience init(
        proximityUUID: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue, identifier: String
    ) {
        self.init(uuid: proximityUUID, major: major, minor: minor, identifier: identifier)
    }

    /// The beacons' UUID (deprecated in iOS 13).
    @available(iOS, deprecated: 13.0, renamed: "uuid")
    @available(macOS, deprecated: 10.15, renamed: "uuid")
    open var proximityUUID: UUID { uuid }

    /// Decodes a beacon region.
    public required init?(coder: NSCoder) {
        guard let constraint = CLBeaconIdentityConstraint(coder: coder) else { return nil }
        beaconIdentityConstraint = constraint
        super.init(coder: coder)
    }

    /// Beacon regions are encoded securely.
    public override class var supportsSecureCoding: Bool { true }

    /// Encodes the constraint as well.
    open override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        beaconIdentityConstraint.encode(with: coder)
    }
}

/// A beacon seen while ranging. Models `CLBeacon`; never delivered here.
open class CLBeacon: NSObject, @unchecked Sendable {
    /// When the beacon was seen.
    open var timestamp: Date { Date(timeIntervalSince1970: 0) }
    /// The beacon's UUID.
    open var uuid: UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
    /// The major value.
    open var major: NSNumber { NSNumber(value: 0) }
    /// The minor value.
    open var minor: NSNumber { NSNumber(value: 0) }
    /// How near the beacon is.
    open var proximity: CLProximity { .unknown }
    /// Distance's accuracy in metres; negative when unknown.
    open var accuracy: CLLocationAccuracy { -1 }
    /// Signal strength in decibels.
    open var rssi: Int { 0 }
}

/// How near a beacon is. Models `CLProximity`.
public enum CLProximity: Int, Sendable {
    /// Not known.
    case unknown = 0
    /// Very close.
    case immediate = 1
    /// A few metres.
    case near = 2
    /// Further.
    case far = 3
}

/// The direction the device points. Models `CLHeading`; the simulated phone has no compass,
/// so headings are never delivered.
open class CLHeading: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    /// Degrees from magnetic north.
    open var magneticHeading: CLLocationDirection { -1 }
    /// Degrees from true north; negative when unknown.
    open var trueHeading: CLLocationDirection { -1 }
    /// Error in degrees; negative when invalid.
    open var headingAccuracy: CLLocationDirection { -1 }
    /// Raw magnetometer x, microteslas.
    open var x: Double { 0 }
    /// Raw magnetometer y, microteslas.
    open var y: Double { 0 }
    /// Raw magnetometer z, microteslas.
    open var z: Double { 0 }
    /// When the heading was measured.
    open var timestamp: Date { Date(timeIntervalSince1970: 0) }

    /// A heading with no measurement, for test doubles to subclass.
    public override init() { super.init() }

    /// Decodes a heading (there is nothing to decode).
    public required init?(coder: NSCoder) { super.init() }

    /// Headings are encoded securely.
    public class var supportsSecureCoding: Bool { true }

    /// Encodes nothing: a heading here carries no measurement.
    open func encode(with coder: NSCoder) {}

    /// The heading itself: headings are immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }
}

/// The orientation a heading is reported against. Models `CLDeviceOrientation`.
public enum CLDeviceOrientation: Int32, Sendable {
    /// Not known.
    case unknown = 0
    /// Portrait.
    case portrait = 1
    /// Portrait, upside down.
    case portraitUpsideDown = 2
    /// Landscape, home button right.
    case landscapeLeft = 3
    /// Landscape, home button left.
    case landscapeRight = 4
    /// Face up.
    case faceUp = 5
    /// Face down.
    case faceDown = 6
}
