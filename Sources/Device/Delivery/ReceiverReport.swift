import Geometry
import SimulationCore
import Traces

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The fields of delivered locations that the simulated phone filled in itself because the
/// trace did not record them (issue 30): the run JSON lists them as `derivedByDevice`.
public struct DerivedLocationFields: OptionSet, Sendable, Hashable {
    /// The set's bits.
    public let rawValue: UInt8

    /// A set from its bits.
    /// - Parameter rawValue: the bits, one per field.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `horizontalAccuracy`: metres from the trace's HDOP, or the assumed accuracy of a source
    /// that records none.
    public static let horizontalAccuracy = DerivedLocationFields(rawValue: 1 << 0)
    /// `verticalAccuracy`: metres from the trace's VDOP.
    public static let verticalAccuracy = DerivedLocationFields(rawValue: 1 << 1)
    /// `speed`: from the distance to the previous recorded fix.
    public static let speed = DerivedLocationFields(rawValue: 1 << 2)
    /// `course`: the bearing from the previous recorded fix.
    public static let course = DerivedLocationFields(rawValue: 1 << 3)

    /// The fields' `CLLocation` names, in that order: what the run JSON writes.
    public var names: [String] {
        let all: [(DerivedLocationFields, String)] = [
            (.horizontalAccuracy, "horizontalAccuracy"), (.verticalAccuracy, "verticalAccuracy"),
            (.speed, "speed"), (.course, "course"),
        ]
        return all.filter { contains($0.0) }.map(\.1)
    }
}

/// What the phone's receiver reports for a recorded fix: the fix as Core Location hands it to
/// the app. iOS never delivers a location from its receiver without a horizontal accuracy in
/// metres, and reports speed and course where it can measure them (CLLocation `speed`,
/// `course`: a negative value means invalid). A trace may lack them (a TCX, a KML, a dashcam
/// log) or give a dilution of precision instead of metres (NMEA), so the device fills them in:
///
/// - horizontal (and vertical) accuracy given as a dilution becomes metres through the standard
///   range-error model (`UserEquivalentRangeError.standard`);
/// - a fix with no horizontal accuracy gets `assumedHorizontalAccuracyMeters`;
/// - a fix without speed gets the distance from the previous recorded fix over the time since
///   it; one without course gets the bearing from it, unless the speed is below
///   `courseMinimumSpeedMetersPerSecond`, where the course stays invalid as iOS leaves it
///   (nearly still, a bearing between two fixes is noise).
///
/// Only the current and earlier fixes are used, as a receiver would; a recorded value is never
/// replaced. The first fix has no earlier one, so its missing speed and course stay invalid.
struct ReceiverReport: Sendable, Equatable {
    private var previousTime = SimInstant(nanosecondsSinceEpoch: 0)
    private var previousPosition = Coordinate(latitude: 0, longitude: 0)
    private var hasPrevious = false
    /// Every field filled in for a location the app was handed (delivered or queued for it).
    private(set) var derivedFields: DerivedLocationFields = []

    /// `fix` as the receiver reports it, and which fields were filled in. Call once per recorded
    /// fix, in time order. Takes the two numbers it needs, not the whole parameter set, which
    /// the per-fix path would otherwise copy.
    /// - Complexity: O(1), no allocation.
    @inline(__always)
    mutating func report(
        _ recorded: Fix, assumedHorizontalAccuracyMeters: Double, courseMinimumSpeedMetersPerSecond: Double
    ) -> (fix: Fix, derived: DerivedLocationFields) {
        var fix = recorded
        var derived: DerivedLocationFields = []
        let uere = UserEquivalentRangeError.standard
        switch recorded.horizontalAccuracy {
        case .meters?: break
        case .dilution(let hdop)?:
            fix.horizontalAccuracy = .meters(hdop * uere.horizontalMeters)
            derived.insert(.horizontalAccuracy)
        case nil:
            fix.horizontalAccuracy = .meters(assumedHorizontalAccuracyMeters)
            derived.insert(.horizontalAccuracy)
        }
        if case .dilution(let vdop)? = recorded.verticalAccuracy {
            fix.verticalAccuracy = .meters(vdop * uere.verticalMeters)
            derived.insert(.verticalAccuracy)
        }
        let position = Coordinate(latitude: recorded.latitude, longitude: recorded.longitude)
        if hasPrevious, recorded.speedMetersPerSecond == nil || recorded.courseDegrees == nil {
            let seconds = recorded.timestamp.seconds(since: previousTime)
            if seconds > 0 {
                let meters = Geodesy.distanceMeters(previousPosition, position)
                let speed = recorded.speedMetersPerSecond.map(Double.init) ?? meters / seconds
                if recorded.speedMetersPerSecond == nil {
                    fix.speedMetersPerSecond = Float(speed)
                    derived.insert(.speed)
                }
                if recorded.courseDegrees == nil, speed >= courseMinimumSpeedMetersPerSecond, meters > 0 {
                    let course = Float(Self.bearingDegrees(from: previousPosition, to: position))
                    // Float rounding can turn 359.99999 into 360: keep the documented 0..<360.
                    fix.courseDegrees = course >= 360 ? 0 : course
                    derived.insert(.course)
                }
            }
        }
        previousTime = recorded.timestamp
        previousPosition = position
        hasPrevious = true
        return (fix, derived)
    }

    /// Notes that a location with these filled-in fields was handed to the app.
    mutating func handedOver(_ derived: DerivedLocationFields) {
        derivedFields.formUnion(derived)
    }

    /// The initial great-circle bearing from `from` to `to`, degrees clockwise from true north,
    /// in 0..<360.
    static func bearingDegrees(from: Coordinate, to: Coordinate) -> Double {
        let radians = Double.pi / 180
        let fromLatitude = from.latitude * radians
        let toLatitude = to.latitude * radians
        let deltaLongitude = (to.longitude - from.longitude) * radians
        let y = sin(deltaLongitude) * cos(toLatitude)
        let x = cos(fromLatitude) * sin(toLatitude) - sin(fromLatitude) * cos(toLatitude) * cos(deltaLongitude)
        let degrees = atan2(y, x) / radians
        let wrapped = degrees < 0 ? degrees + 360 : degrees
        return wrapped >= 360 ? 0 : wrapped
    }
}
