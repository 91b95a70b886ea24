/// Where a fix's accuracy number came from. HDOP is unitless and never passes as metres.
public enum AccuracyKind: UInt8, Sendable, Comparable {
    /// The file gives no accuracy for this fix.
    case none
    /// A dilution of precision (HDOP or VDOP): a unitless geometry factor.
    case dilution
    /// A measured one-sigma radius in metres (CLLocation, GnssLogger `Accuracy`, NMEA GST σ).
    case meters

    /// The token used in reports: `none`, `hdop` or `meters`.
    public var name: String {
        switch self {
        case .none: "none"
        case .dilution: "hdop"
        case .meters: "meters"
        }
    }

    /// Orders by declaration (or by time), for stable output.
    public static func < (lhs: AccuracyKind, rhs: AccuracyKind) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// An accuracy figure together with its provenance.
public enum Accuracy: Equatable, Sendable {
    /// A measured radius in metres.
    case meters(Double)
    /// A dilution of precision, unitless.
    case dilution(Double)

    /// The kind of figure this is.
    public var kind: AccuracyKind {
        switch self {
        case .meters: .meters
        case .dilution: .dilution
        }
    }
}

/// The user-equivalent range error used to turn a dilution of precision into metres.
///
/// An estimate, never a measurement: every place that shows such a figure says "estimated".
/// The default follows gpsd's error model (`H_UERE_NO_DGPS` = 15 m at 95 % confidence for
/// an autonomous fix), halved to the roughly one-sigma radius that Core Location's
/// `horizontalAccuracy` reports.
public struct UserEquivalentRangeError: Sendable, Equatable {
    /// Metres of range error per unit of horizontal dilution.
    public var horizontalMeters: Double
    /// Metres of range error per unit of vertical dilution.
    public var verticalMeters: Double

    /// Creates a UERE model.
    public init(horizontalMeters: Double, verticalMeters: Double) {
        self.horizontalMeters = horizontalMeters
        self.verticalMeters = verticalMeters
    }

    /// gpsd's autonomous-fix figures (15 m horizontal, 23 m vertical at 95 %), halved to one sigma.
    public static let standard = UserEquivalentRangeError(horizontalMeters: 7.5, verticalMeters: 11.5)
}

/// An accuracy in metres and whether it was measured or estimated from a dilution of precision.
public struct AccuracyMeters: Equatable, Sendable {
    /// The radius in metres.
    public var meters: Double
    /// `true` when the figure is HDOP or VDOP times a UERE rather than a measurement.
    public var isEstimated: Bool

    /// Creates an accuracy figure.
    @inlinable
    public init(meters: Double, isEstimated: Bool) {
        self.meters = meters
        self.isEstimated = isEstimated
    }
}
