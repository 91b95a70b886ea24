import SimulationCore

/// One recorded position: a distinct epoch with a valid latitude and longitude.
///
/// `Fix` sits on the replay's hot path, so it is a trivially copyable 64-byte value
/// (a test holds `MemoryLayout<Fix>.stride` to that). Optional measurements are stored as
/// NaN internally and surface as Swift optionals, so "absent" can never be confused with
/// zero; importers reject NaN in input, so a NaN here always means "absent".
///
/// Precision: time, position, altitude and horizontal accuracy are `Double`; vertical
/// accuracy, speed, course and their accuracies are `Float` (seven significant digits,
/// finer than any receiver reports, and the width Android itself uses for them). Canonical
/// exports print each field at its stored width, so a round trip is exact.
public struct Fix: Sendable {
    /// When the position was measured, UTC.
    public var timestamp: SimInstant
    /// WGS-84 latitude in degrees, -90...90.
    public var latitude: Double
    /// WGS-84 longitude in degrees, -180...180.
    public var longitude: Double

    @usableFromInline var storedAltitudeMeters: Double
    @usableFromInline var storedHorizontalAccuracy: Double
    @usableFromInline var storedVerticalAccuracy: Float
    @usableFromInline var storedSpeed: Float
    @usableFromInline var storedSpeedAccuracy: Float
    @usableFromInline var storedCourse: Float
    @usableFromInline var storedCourseAccuracy: Float

    /// The positioning source.
    public var provider: Provider
    /// Whether `horizontalAccuracy` is measured metres, a dilution, or absent.
    public private(set) var horizontalAccuracyKind: AccuracyKind
    /// Whether `verticalAccuracy` is measured metres, a dilution, or absent.
    public private(set) var verticalAccuracyKind: AccuracyKind

    /// Creates a fix. Every measurement but the position may be absent.
    public init(
        timestamp: SimInstant,
        latitude: Double,
        longitude: Double,
        altitudeMeters: Double? = nil,
        horizontalAccuracy: Accuracy? = nil,
        verticalAccuracy: Accuracy? = nil,
        speedMetersPerSecond: Float? = nil,
        speedAccuracyMetersPerSecond: Float? = nil,
        courseDegrees: Float? = nil,
        courseAccuracyDegrees: Float? = nil,
        provider: Provider = .unknown
    ) {
        self.timestamp = timestamp
        self.latitude = latitude
        self.longitude = longitude
        self.storedAltitudeMeters = altitudeMeters ?? .nan
        self.storedHorizontalAccuracy = .nan
        self.storedVerticalAccuracy = .nan
        self.storedSpeed = speedMetersPerSecond ?? .nan
        self.storedSpeedAccuracy = speedAccuracyMetersPerSecond ?? .nan
        self.storedCourse = courseDegrees ?? .nan
        self.storedCourseAccuracy = courseAccuracyDegrees ?? .nan
        self.provider = provider
        self.horizontalAccuracyKind = .none
        self.verticalAccuracyKind = .none
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
    }

    /// Altitude in metres, as the source defines it (mean sea level for NMEA, ellipsoid for Android).
    @inlinable public var altitudeMeters: Double? {
        get { storedAltitudeMeters.isNaN ? nil : storedAltitudeMeters }
        set { storedAltitudeMeters = newValue ?? .nan }
    }

    /// Horizontal accuracy with its provenance: measured metres or HDOP.
    public var horizontalAccuracy: Accuracy? {
        get { Self.accuracy(storedHorizontalAccuracy, horizontalAccuracyKind) }
        set {
            (storedHorizontalAccuracy, horizontalAccuracyKind) = Self.store(newValue)
        }
    }

    /// Vertical accuracy with its provenance: measured metres or VDOP.
    public var verticalAccuracy: Accuracy? {
        get { Self.accuracy(Double(storedVerticalAccuracy), verticalAccuracyKind) }
        set {
            let (value, kind) = Self.store(newValue)
            storedVerticalAccuracy = Float(value)
            verticalAccuracyKind = kind
        }
    }

    /// Ground speed in metres per second.
    @inlinable public var speedMetersPerSecond: Float? {
        get { storedSpeed.isNaN ? nil : storedSpeed }
        set { storedSpeed = newValue ?? .nan }
    }

    /// One-sigma speed accuracy in metres per second.
    @inlinable public var speedAccuracyMetersPerSecond: Float? {
        get { storedSpeedAccuracy.isNaN ? nil : storedSpeedAccuracy }
        set { storedSpeedAccuracy = newValue ?? .nan }
    }

    /// Course over ground in degrees clockwise from true north, 0..<360.
    @inlinable public var courseDegrees: Float? {
        get { storedCourse.isNaN ? nil : storedCourse }
        set { storedCourse = newValue ?? .nan }
    }

    /// One-sigma course accuracy in degrees.
    @inlinable public var courseAccuracyDegrees: Float? {
        get { storedCourseAccuracy.isNaN ? nil : storedCourseAccuracy }
        set { storedCourseAccuracy = newValue ?? .nan }
    }

    /// The horizontal accuracy figure as stored: metres or HDOP, as `horizontalAccuracyKind`
    /// says. The same information as `horizontalAccuracy`, without building an enum, for
    /// stages that judge every fix.
    @inlinable public var storedHorizontalAccuracyFigure: Double? {
        horizontalAccuracyKind == .none ? nil : storedHorizontalAccuracy
    }

    /// Horizontal accuracy in metres: measured, or estimated as HDOP × UERE and flagged so.
    ///
    /// - Parameter uere: the range-error model for turning a dilution into metres.
    /// - Returns: `nil` when the fix has no horizontal accuracy at all.
    @inlinable
    public func horizontalAccuracyMeters(uere: UserEquivalentRangeError = .standard) -> AccuracyMeters? {
        switch horizontalAccuracyKind {
        case .none: return nil
        case .meters: return AccuracyMeters(meters: storedHorizontalAccuracy, isEstimated: false)
        case .dilution:
            return AccuracyMeters(meters: storedHorizontalAccuracy * uere.horizontalMeters, isEstimated: true)
        }
    }

    private static func accuracy(_ value: Double, _ kind: AccuracyKind) -> Accuracy? {
        switch kind {
        case .none: nil
        case .meters: .meters(value)
        case .dilution: .dilution(value)
        }
    }

    private static func store(_ accuracy: Accuracy?) -> (Double, AccuracyKind) {
        switch accuracy {
        case nil: (.nan, .none)
        case .meters(let value)?: (value, .meters)
        case .dilution(let value)?: (value, .dilution)
        }
    }
}

extension Fix: Equatable {
    /// Two fixes are equal when every field holds the same bits, absent fields included.
    public static func == (lhs: Fix, rhs: Fix) -> Bool {
        lhs.timestamp == rhs.timestamp
            && lhs.latitude.bitPattern == rhs.latitude.bitPattern
            && lhs.longitude.bitPattern == rhs.longitude.bitPattern
            && lhs.storedAltitudeMeters.bitPattern == rhs.storedAltitudeMeters.bitPattern
            && lhs.storedHorizontalAccuracy.bitPattern == rhs.storedHorizontalAccuracy.bitPattern
            && lhs.storedVerticalAccuracy.bitPattern == rhs.storedVerticalAccuracy.bitPattern
            && lhs.storedSpeed.bitPattern == rhs.storedSpeed.bitPattern
            && lhs.storedSpeedAccuracy.bitPattern == rhs.storedSpeedAccuracy.bitPattern
            && lhs.storedCourse.bitPattern == rhs.storedCourse.bitPattern
            && lhs.storedCourseAccuracy.bitPattern == rhs.storedCourseAccuracy.bitPattern
            && lhs.provider == rhs.provider
            && lhs.horizontalAccuracyKind == rhs.horizontalAccuracyKind
            && lhs.verticalAccuracyKind == rhs.verticalAccuracyKind
    }
}

extension Fix {
    /// Fills each field this fix lacks from `other`, which describes the same epoch.
    ///
    /// Used when a file records one epoch twice: the first record wins, later ones only add.
    public mutating func fillAbsentFields(from other: Fix) {
        if altitudeMeters == nil { altitudeMeters = other.altitudeMeters }
        if horizontalAccuracy == nil { horizontalAccuracy = other.horizontalAccuracy }
        if verticalAccuracy == nil { verticalAccuracy = other.verticalAccuracy }
        if speedMetersPerSecond == nil { speedMetersPerSecond = other.speedMetersPerSecond }
        if speedAccuracyMetersPerSecond == nil { speedAccuracyMetersPerSecond = other.speedAccuracyMetersPerSecond }
        if courseDegrees == nil { courseDegrees = other.courseDegrees }
        if courseAccuracyDegrees == nil { courseAccuracyDegrees = other.courseAccuracyDegrees }
    }
}
