import SimulationCore

/// Everything the sentences of one NMEA epoch (one time-of-day) said, merged into one record.
///
/// Receivers spread one fix over several sentences: GGA carries altitude and HDOP, RMC the
/// date, speed and course, GSA the DOPs, GST the error ellipse in metres. They share a
/// time-of-day, which is how they are grouped; VTG and GSA carry no time and join the
/// epoch they follow.
struct NMEAEpoch {
    /// Which sentence a position came from, best first: GGA often has more decimals than RMC.
    enum PositionSource: Int, Comparable {
        case gga = 0, rmc = 1, gll = 2

        static func < (lhs: PositionSource, rhs: PositionSource) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Nanoseconds since midnight UTC.
    var timeOfDayNanoseconds: Int64
    /// The line of the epoch's first sentence, for diagnostics.
    var firstLine: Int
    /// The column of that sentence's time field, for errors about the epoch's instant.
    var timeColumn: Int
    /// Days since 1970-01-01 when RMC or ZDA gave the date.
    var daysSinceEpoch: Int?

    var latitude: Double?
    var longitude: Double?
    var positionSource: PositionSource?
    /// A position sentence in this epoch said "no fix" (RMC `V`, GGA quality 0, GLL `V`).
    var sawVoidPosition = false

    var altitudeMeters: Double?
    var hdop: Double?
    var vdop: Double?
    var sigmaLatitudeMeters: Double?
    var sigmaLongitudeMeters: Double?
    var sigmaAltitudeMeters: Double?
    var speedMetersPerSecond: Float?
    var courseDegrees: Float?

    init(timeOfDayNanoseconds: Int64, firstLine: Int, timeColumn: Int) {
        self.timeOfDayNanoseconds = timeOfDayNanoseconds
        self.firstLine = firstLine
        self.timeColumn = timeColumn
    }

    /// The instant `timeOfDay` nanoseconds into a day, or `nil` when it lies outside what a
    /// `SimInstant` holds (before 1677-09-21T00:12:43Z or after 2262-04-11T23:47:16Z).
    static func instant(daysSinceEpoch days: Int, timeOfDay: Int64) -> SimInstant? {
        let (dayStart, overflow) = Int64(clamping: days).multipliedReportingOverflow(by: 86_400_000_000_000)
        guard !overflow else { return nil }
        let (nanoseconds, late) = dayStart.addingReportingOverflow(timeOfDay)
        guard !late else { return nil }
        return SimInstant(nanosecondsSinceEpoch: nanoseconds)
    }

    /// Records a valid position unless a better sentence already gave one.
    mutating func offerPosition(latitude: Double, longitude: Double, from source: PositionSource) {
        if let current = positionSource, current <= source { return }
        self.latitude = latitude
        self.longitude = longitude
        positionSource = source
    }

    /// Whether the epoch holds a position any sentence vouched for.
    var hasValidPosition: Bool { positionSource != nil }

    /// The fix this epoch describes, at its resolved instant.
    ///
    /// Horizontal accuracy is GST's σ in metres when present (the root of the summed
    /// latitude and longitude variances, a one-sigma radius), otherwise HDOP flagged as a
    /// dilution; vertical likewise from GST's altitude σ or VDOP.
    func makeFix(at instant: SimInstant) -> Fix? {
        guard let latitude, let longitude else { return nil }
        var fix = Fix(
            timestamp: instant,
            latitude: latitude,
            longitude: longitude,
            altitudeMeters: altitudeMeters,
            speedMetersPerSecond: speedMetersPerSecond,
            courseDegrees: courseDegrees,
            provider: .gps
        )
        if let sigmaLatitudeMeters, let sigmaLongitudeMeters {
            var radius = (sigmaLatitudeMeters * sigmaLatitudeMeters + sigmaLongitudeMeters * sigmaLongitudeMeters)
                .squareRoot()
            if !radius.isFinite {
                // Sigmas past 1e154 m overflow when squared; scaled, the radius is finite.
                let larger = max(sigmaLatitudeMeters, sigmaLongitudeMeters)
                let ratio = min(sigmaLatitudeMeters, sigmaLongitudeMeters) / larger
                radius = larger * (1 + ratio * ratio).squareRoot()
            }
            fix.horizontalAccuracy = .meters(radius)
        } else if let hdop {
            fix.horizontalAccuracy = .dilution(hdop)
        }
        if let sigmaAltitudeMeters {
            fix.verticalAccuracy = .meters(sigmaAltitudeMeters)
        } else if let vdop {
            fix.verticalAccuracy = .dilution(vdop)
        }
        return fix
    }
}
