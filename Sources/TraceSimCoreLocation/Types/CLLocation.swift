import Foundation
import Geometry
import SimulationCore
import Traces

/// A position with its accuracy, altitude, speed, course and time. Models `CLLocation`.
///
/// A location the simulated phone delivered keeps the exact `Fix` it came from and the instant
/// it was delivered, so an adapter can hand the same fix, bit for bit, to code written against
/// TraceSim's own types. The phone delivers what its receiver would report (issue 30): every
/// delivered location has a horizontal accuracy in metres (HDOP turned into metres, or the
/// assumed accuracy for a source that records none), and speed and course derived from the
/// previous fix where the trace lacks them. What is still missing is reported the way Core
/// Location reports an invalid value: a negative accuracy (horizontal, vertical, speed, course)
/// marks the value it qualifies as invalid, and speed and course are -1 (the first fix of a
/// trace without speed, a course while nearly still, a reduced-accuracy location). An altitude
/// the trace lacks reads 0 with `verticalAccuracy` -1. A fix that did not pass through the phone
/// and gives a dilution (NMEA's HDOP) is reported in metres through the standard range-error
/// model (`Fix.horizontalAccuracyMeters`).
///
/// Properties are `open` so a test double can subclass and override them, as apps' tests do
/// with Apple's class. Locations are immutable, so `copy()` returns the location itself.
open class CLLocation: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    private let values: Values
    private let source: CLLocationSourceInformation?
    private let simulatedFix: Fix?
    /// When the simulated phone handed this location to the app: `nil` for a location made by
    /// app code (or decoded from an archive made outside a run).
    package let deliveredAt: SimInstant?

    /// The measured values, as Core Location reports them.
    private struct Values {
        var coordinate: CLLocationCoordinate2D
        var altitude: CLLocationDistance
        var ellipsoidalAltitude: CLLocationDistance
        var horizontalAccuracy: CLLocationAccuracy
        var verticalAccuracy: CLLocationAccuracy
        var course: CLLocationDirection
        var courseAccuracy: CLLocationDirectionAccuracy
        var speed: CLLocationSpeed
        var speedAccuracy: CLLocationSpeedAccuracy
        var timestamp: Date
    }

    // MARK: - Apple's initialisers

    /// A location at `latitude`, `longitude`, timestamped now (the virtual clock inside a run),
    /// with horizontal accuracy 0 and no altitude, speed or course.
    public convenience init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.init(
            coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude), altitude: 0,
            horizontalAccuracy: 0, verticalAccuracy: -1, course: -1, courseAccuracy: -1, speed: -1, speedAccuracy: -1,
            timestamp: Self.now)
    }

    /// A location without speed or course.
    public convenience init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance,
        horizontalAccuracy hAccuracy: CLLocationAccuracy,
        verticalAccuracy vAccuracy: CLLocationAccuracy, timestamp: Date
    ) {
        self.init(
            coordinate: coordinate, altitude: altitude, horizontalAccuracy: hAccuracy, verticalAccuracy: vAccuracy,
            course: -1, courseAccuracy: -1, speed: -1, speedAccuracy: -1, timestamp: timestamp)
    }

    /// A location with speed and course but not their accuracies.
    public convenience init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance,
        horizontalAccuracy hAccuracy: CLLocationAccuracy,
        verticalAccuracy vAccuracy: CLLocationAccuracy, course: CLLocationDirection, speed: CLLocationSpeed,
        timestamp: Date
    ) {
        self.init(
            coordinate: coordinate, altitude: altitude, horizontalAccuracy: hAccuracy, verticalAccuracy: vAccuracy,
            course: course, courseAccuracy: -1, speed: speed, speedAccuracy: -1, timestamp: timestamp)
    }

    /// A location with every measurement.
    public convenience init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance,
        horizontalAccuracy hAccuracy: CLLocationAccuracy, verticalAccuracy vAccuracy: CLLocationAccuracy,
        course: CLLocationDirection, courseAccuracy: CLLocationDirectionAccuracy, speed: CLLocationSpeed,
        speedAccuracy: CLLocationSpeedAccuracy, timestamp: Date
    ) {
        self.init(
            coordinate: coordinate, altitude: altitude, horizontalAccuracy: hAccuracy, verticalAccuracy: vAccuracy,
            course: course, courseAccuracy: courseAccuracy, speed: speed, speedAccuracy: speedAccuracy,
            timestamp: timestamp, sourceInfo: nil)
    }

    /// A location with every measurement and where it came from.
    public init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance,
        horizontalAccuracy hAccuracy: CLLocationAccuracy, verticalAccuracy vAccuracy: CLLocationAccuracy,
        course: CLLocationDirection, courseAccuracy: CLLocationDirectionAccuracy, speed: CLLocationSpeed,
        speedAccuracy: CLLocationSpeedAccuracy, timestamp: Date, sourceInfo: CLLocationSourceInformation?
    ) {
        values = Values(
            coordinate: coordinate, altitude: altitude, ellipsoidalAltitude: altitude, horizontalAccuracy: hAccuracy,
            verticalAccuracy: vAccuracy, course: course, courseAccuracy: courseAccuracy, speed: speed,
            speedAccuracy: speedAccuracy, timestamp: timestamp)
        source = sourceInfo
        simulatedFix = nil
        deliveredAt = nil
        super.init()
    }

    /// The location (0, 0), timestamped now, as `CLLocation()` is.
    public convenience override init() { self.init(latitude: 0, longitude: 0) }

    // MARK: - From the simulation

    /// The location the simulated phone delivers for `fix`, handed over at `deliveredAt`.
    package init(_ fix: Fix, deliveredAt: SimInstant?) {
        let altitude = fix.altitudeMeters
        values = Values(
            coordinate: CLLocationCoordinate2D(latitude: fix.latitude, longitude: fix.longitude),
            altitude: altitude ?? 0, ellipsoidalAltitude: altitude ?? 0,
            horizontalAccuracy: fix.horizontalAccuracyMeters()?.meters ?? -1,
            verticalAccuracy: altitude == nil ? -1 : Self.meters(fix.verticalAccuracy) ?? -1,
            course: fix.courseDegrees.map(Double.init) ?? -1,
            courseAccuracy: fix.courseAccuracyDegrees.map(Double.init) ?? -1,
            speed: fix.speedMetersPerSecond.map(Double.init) ?? -1,
            speedAccuracy: fix.speedAccuracyMetersPerSecond.map(Double.init) ?? -1, timestamp: Date(fix.timestamp))
        // What the phone recorded, to the app: not simulated by software on the device.
        source = Self.measured
        simulatedFix = fix
        self.deliveredAt = deliveredAt
        super.init()
    }

    /// The `Fix` this location stands for: the exact one the simulation delivered, or, for a
    /// location made by app code, one built from its values (invalid ones absent).
    package var fix: Fix {
        if let simulatedFix { return simulatedFix }
        let nanoseconds = (values.timestamp.timeIntervalSince1970 * 1e9).rounded()
        return Fix(
            timestamp: SimInstant(nanosecondsSinceEpoch: Int64(exactly: nanoseconds) ?? 0),
            latitude: values.coordinate.latitude, longitude: values.coordinate.longitude,
            altitudeMeters: values.verticalAccuracy < 0 ? nil : values.altitude,
            horizontalAccuracy: values.horizontalAccuracy < 0 ? nil : .meters(values.horizontalAccuracy),
            verticalAccuracy: values.verticalAccuracy < 0 ? nil : .meters(values.verticalAccuracy),
            speedMetersPerSecond: values.speed < 0 ? nil : Float(values.speed),
            speedAccuracyMetersPerSecond: values.speedAccuracy < 0 ? nil : Float(values.speedAccuracy),
            courseDegrees: values.course < 0 ? nil : Float(values.course),
            courseAccuracyDegrees: values.courseAccuracy < 0 ? nil : Float(values.courseAccuracy))
    }

    /// Whether the simulated phone made this location (rather than app code).
    package var isSimulated: Bool { simulatedFix != nil }

    private static func meters(_ accuracy: Accuracy?) -> Double? {
        switch accuracy {
        case .meters(let value)?: value
        // A vertical dilution has no agreed range-error model; report it as unknown.
        case .dilution?, nil: nil
        }
    }

    /// The source of every delivered location, shared: the object is immutable.
    private static let measured = CLLocationSourceInformation(
        softwareSimulationState: false, andExternalAccessoryState: false)

    /// Now: the virtual clock inside a run, the wall clock outside one (as Core Location does).
    static var now: Date { SimulationHost.current?.date ?? Date() }

    // MARK: - Properties

    /// Where.
    open var coordinate: CLLocationCoordinate2D { values.coordinate }
    /// Altitude in metres, as the trace defines it (mean sea level for NMEA); valid when
    /// `verticalAccuracy` is not negative.
    open var altitude: CLLocationDistance { values.altitude }
    /// Altitude above the WGS-84 ellipsoid. Traces do not say which datum their altitude uses,
    /// so this is `altitude`.
    open var ellipsoidalAltitude: CLLocationDistance { values.ellipsoidalAltitude }
    /// Radius of uncertainty in metres; negative when the position is invalid or unknown.
    open var horizontalAccuracy: CLLocationAccuracy { values.horizontalAccuracy }
    /// Altitude's uncertainty in metres; negative when the altitude is invalid.
    open var verticalAccuracy: CLLocationAccuracy { values.verticalAccuracy }
    /// Course in degrees from true north; negative when invalid.
    open var course: CLLocationDirection { values.course }
    /// Course's accuracy in degrees; negative when invalid.
    open var courseAccuracy: CLLocationDirectionAccuracy { values.courseAccuracy }
    /// Speed in metres per second; negative when invalid.
    open var speed: CLLocationSpeed { values.speed }
    /// Speed's accuracy in metres per second; negative when invalid.
    open var speedAccuracy: CLLocationSpeedAccuracy { values.speedAccuracy }
    /// When the position was measured (the fix's own time, not the delivery's).
    open var timestamp: Date { values.timestamp }
    /// The floor: always `nil` (the simulated phone has no indoor positioning).
    open var floor: CLFloor? { nil }
    /// Where the location came from. A location the simulated phone delivered is what the
    /// recorded phone measured, so it reports neither software simulation nor an accessory
    /// (an app that rejects simulated locations accepts it); one made by app code has what it
    /// was given.
    open var sourceInformation: CLLocationSourceInformation? { source }

    /// The great-circle (haversine) distance to `location` in metres, ignoring altitude, as
    /// Apple documents: "tracing a line between the two points that follows the curvature of
    /// the Earth".
    open func distance(from location: CLLocation) -> CLLocationDistance {
        Geodesy.distanceMeters(
            Coordinate(latitude: coordinate.latitude, longitude: coordinate.longitude),
            Coordinate(latitude: location.coordinate.latitude, longitude: location.coordinate.longitude))
    }

    // MARK: - NSObject

    /// Locations with the same values (bit for bit) and time are equal; a simulated location
    /// equals only one made from the same fix.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CLLocation else { return false }
        if self === other { return true }
        if isSimulated || other.isSimulated { return simulatedFix == other.simulatedFix }
        let pairs: [(Double, Double)] = [
            (coordinate.latitude, other.coordinate.latitude), (coordinate.longitude, other.coordinate.longitude),
            (altitude, other.altitude), (ellipsoidalAltitude, other.ellipsoidalAltitude),
            (horizontalAccuracy, other.horizontalAccuracy), (verticalAccuracy, other.verticalAccuracy),
            (course, other.course), (courseAccuracy, other.courseAccuracy), (speed, other.speed),
            (speedAccuracy, other.speedAccuracy),
            (timestamp.timeIntervalSince1970, other.timestamp.timeIntervalSince1970),
        ]
        return pairs.allSatisfy { $0.bitPattern == $1.bitPattern }
    }

    /// Hashes the position and time.
    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(coordinate.latitude.bitPattern)
        hasher.combine(coordinate.longitude.bitPattern)
        hasher.combine(timestamp.timeIntervalSince1970.bitPattern)
        return hasher.finalize()
    }

    /// Core Location's shape: `<+37.42000000,-122.08000000> +/- 5.00m (speed 10.00 mps / course
    /// 90.00) @ 2020-02-06T18:14:34.000Z` (the time in ISO 8601, UTC, so it does not depend on
    /// the machine's locale or time zone).
    open override var description: String {
        let nanoseconds = Int64(exactly: (timestamp.timeIntervalSince1970 * 1e9).rounded()) ?? 0
        return String(
            format: "<%+.8f,%+.8f> +/- %.2fm (speed %.2f mps / course %.2f) @ %@", coordinate.latitude,
            coordinate.longitude, horizontalAccuracy, speed, course,
            ISO8601.format(SimInstant(nanosecondsSinceEpoch: nanoseconds)))
    }

    // MARK: - NSCopying, NSSecureCoding

    /// The location itself: locations are immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// Locations are encoded securely.
    public class var supportsSecureCoding: Bool { true }

    /// Encodes every value; a simulated location also encodes its fix and delivery instant
    /// exactly, so decoding gives back the same fix bit for bit.
    open func encode(with coder: NSCoder) {
        coder.encode(values.coordinate.latitude, forKey: Key.latitude)
        coder.encode(values.coordinate.longitude, forKey: Key.longitude)
        coder.encode(values.altitude, forKey: Key.altitude)
        coder.encode(values.ellipsoidalAltitude, forKey: Key.ellipsoidalAltitude)
        coder.encode(values.horizontalAccuracy, forKey: Key.horizontalAccuracy)
        coder.encode(values.verticalAccuracy, forKey: Key.verticalAccuracy)
        coder.encode(values.course, forKey: Key.course)
        coder.encode(values.courseAccuracy, forKey: Key.courseAccuracy)
        coder.encode(values.speed, forKey: Key.speed)
        coder.encode(values.speedAccuracy, forKey: Key.speedAccuracy)
        coder.encode(values.timestamp.timeIntervalSince1970, forKey: Key.timestamp)
        if let source { coder.encode(source, forKey: Key.source) }
        if let simulatedFix { FixCoding.encode(simulatedFix, deliveredAt: deliveredAt, with: coder) }
    }

    /// Decodes a location `encode(with:)` wrote; `nil` when a value is missing.
    public required init?(coder: NSCoder) {
        let keys = [
            Key.latitude, Key.longitude, Key.altitude, Key.ellipsoidalAltitude, Key.horizontalAccuracy,
            Key.verticalAccuracy, Key.course, Key.courseAccuracy, Key.speed, Key.speedAccuracy, Key.timestamp,
        ]
        guard keys.allSatisfy({ coder.containsValue(forKey: $0) }) else { return nil }
        values = Values(
            coordinate: CLLocationCoordinate2D(
                latitude: coder.decodeDouble(forKey: Key.latitude), longitude: coder.decodeDouble(forKey: Key.longitude)
            ),
            altitude: coder.decodeDouble(forKey: Key.altitude),
            ellipsoidalAltitude: coder.decodeDouble(forKey: Key.ellipsoidalAltitude),
            horizontalAccuracy: coder.decodeDouble(forKey: Key.horizontalAccuracy),
            verticalAccuracy: coder.decodeDouble(forKey: Key.verticalAccuracy),
            course: coder.decodeDouble(forKey: Key.course),
            courseAccuracy: coder.decodeDouble(forKey: Key.courseAccuracy),
            speed: coder.decodeDouble(forKey: Key.speed), speedAccuracy: coder.decodeDouble(forKey: Key.speedAccuracy),
            timestamp: Date(timeIntervalSince1970: coder.decodeDouble(forKey: Key.timestamp)))
        source =
            coder.containsValue(forKey: Key.source)
            ? coder.decodeObject(of: CLLocationSourceInformation.self, forKey: Key.source) : nil
        if let (fix, deliveredAt) = FixCoding.decode(from: coder) {
            simulatedFix = fix
            self.deliveredAt = deliveredAt
        } else {
            simulatedFix = nil
            deliveredAt = nil
        }
        super.init()
    }

    private enum Key {
        static let latitude = "latitude"
        static let longitude = "longitude"
        static let altitude = "altitude"
        static let ellipsoidalAltitude = "ellipsoidalAltitude"
        static let horizontalAccuracy = "horizontalAccuracy"
        static let verticalAccuracy = "verticalAccuracy"
        static let course = "course"
        static let courseAccuracy = "courseAccuracy"
        static let speed = "speed"
        static let speedAccuracy = "speedAccuracy"
        static let timestamp = "timestamp"
        static let source = "sourceInformation"
    }
}

/// A `Fix` in an archive, every field as its bit pattern, so NaN sentinels and `Float` widths
/// survive exactly.
private enum FixCoding {
    static let prefix = "tracesim.fix."

    static func encode(_ fix: Fix, deliveredAt: SimInstant?, with coder: NSCoder) {
        coder.encode(fix.timestamp.nanosecondsSinceEpoch, forKey: prefix + "time")
        coder.encode(Int64(bitPattern: fix.latitude.bitPattern), forKey: prefix + "latitude")
        coder.encode(Int64(bitPattern: fix.longitude.bitPattern), forKey: prefix + "longitude")
        if let altitude = fix.altitudeMeters { coder.encode(altitude.bitPattern64, forKey: prefix + "altitude") }
        encode(fix.horizontalAccuracy, forKey: prefix + "horizontal", with: coder)
        encode(fix.verticalAccuracy, forKey: prefix + "vertical", with: coder)
        let floats: [(Float?, String)] = [
            (fix.speedMetersPerSecond, "speed"), (fix.speedAccuracyMetersPerSecond, "speedAccuracy"),
            (fix.courseDegrees, "course"), (fix.courseAccuracyDegrees, "courseAccuracy"),
        ]
        for (value, key) in floats {
            if let value { coder.encode(Int32(bitPattern: value.bitPattern), forKey: prefix + key) }
        }
        coder.encode(Int(fix.provider.rawValue), forKey: prefix + "provider")
        if let deliveredAt { coder.encode(deliveredAt.nanosecondsSinceEpoch, forKey: prefix + "deliveredAt") }
    }

    private static func encode(_ accuracy: Accuracy?, forKey key: String, with coder: NSCoder) {
        switch accuracy {
        case .meters(let value)?: coder.encode(value.bitPattern64, forKey: key + ".meters")
        case .dilution(let value)?: coder.encode(value.bitPattern64, forKey: key + ".dilution")
        case nil: break
        }
    }

    static func decode(from coder: NSCoder) -> (Fix, SimInstant?)? {
        guard coder.containsValue(forKey: prefix + "time"),
            let provider = Provider(rawValue: UInt8(clamping: coder.decodeInteger(forKey: prefix + "provider")))
        else { return nil }
        func double(_ key: String) -> Double? {
            coder.containsValue(forKey: prefix + key)
                ? Double(bitPattern: UInt64(bitPattern: coder.decodeInt64(forKey: prefix + key))) : nil
        }
        func float(_ key: String) -> Float? {
            coder.containsValue(forKey: prefix + key)
                ? Float(bitPattern: UInt32(bitPattern: coder.decodeInt32(forKey: prefix + key))) : nil
        }
        func accuracy(_ key: String) -> Accuracy? {
            if let meters = double(key + ".meters") { return .meters(meters) }
            return double(key + ".dilution").map(Accuracy.dilution)
        }
        guard let latitude = double("latitude"), let longitude = double("longitude") else { return nil }
        let fix = Fix(
            timestamp: SimInstant(nanosecondsSinceEpoch: coder.decodeInt64(forKey: prefix + "time")),
            latitude: latitude, longitude: longitude, altitudeMeters: double("altitude"),
            horizontalAccuracy: accuracy("horizontal"), verticalAccuracy: accuracy("vertical"),
            speedMetersPerSecond: float("speed"), speedAccuracyMetersPerSecond: float("speedAccuracy"),
            courseDegrees: float("course"), courseAccuracyDegrees: float("courseAccuracy"), provider: provider)
        let deliveredAt =
            coder.containsValue(forKey: prefix + "deliveredAt")
            ? SimInstant(nanosecondsSinceEpoch: coder.decodeInt64(forKey: prefix + "deliveredAt")) : nil
        return (fix, deliveredAt)
    }
}

extension Double {
    fileprivate var bitPattern64: Int64 { Int64(bitPattern: bitPattern) }
}

/// Where a location came from. Models `CLLocationSourceInformation`.
open class CLLocationSourceInformation: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    /// Whether software on the device simulated the location (Xcode's GPX replay, say).
    public let isSimulatedBySoftware: Bool
    /// Whether an external accessory produced it.
    public let isProducedByAccessory: Bool

    /// Source information with both answers.
    public init(softwareSimulationState isSoftware: Bool, andExternalAccessoryState isAccessory: Bool) {
        isSimulatedBySoftware = isSoftware
        isProducedByAccessory = isAccessory
        super.init()
    }

    /// Decodes what `encode(with:)` wrote.
    public required init?(coder: NSCoder) {
        isSimulatedBySoftware = coder.decodeBool(forKey: "isSimulatedBySoftware")
        isProducedByAccessory = coder.decodeBool(forKey: "isProducedByAccessory")
        super.init()
    }

    /// Source information is encoded securely.
    public class var supportsSecureCoding: Bool { true }

    /// Encodes both answers.
    open func encode(with coder: NSCoder) {
        coder.encode(isSimulatedBySoftware, forKey: "isSimulatedBySoftware")
        coder.encode(isProducedByAccessory, forKey: "isProducedByAccessory")
    }

    /// The object itself: it is immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }
}
