import SimulationCore

/// Choices a user can make about an import. The defaults detect everything from the file.
public struct ImportOptions: Sendable, Equatable {
    /// A format to insist on instead of detecting one.
    public var format: TraceFormat?
    /// The UTC calendar date of the first epoch, for NMEA logs whose sentences carry no
    /// trustworthy date anywhere (GGA-only logs, or RMC sentences all failing their
    /// checksum). A log that dates any of its epochs ignores it; without either, such
    /// epochs are counted as untimed.
    public var nmeaStartDate: CalendarDate?
    /// The rate, in hertz, at which to time untimed runs instead of leaving them out.
    ///
    /// An untimed run is ten or more consecutive records (in file order) of one provider that
    /// share one timestamp while their positions span more than 100 m: the largest haversine
    /// distance from the run's first record, rounded to the millimetre. Such a timestamp is a
    /// placeholder, not an epoch. Without a rate their records are counted in
    /// `ImportDiagnostics.untimedRuns` and are not fixes. With one, a run's k-th record
    /// (k from 0) is timed at anchor + k / rate, where the anchor is one period after the
    /// latest time read before the run in file order; a run before every timed record ends
    /// one period before the first of them; a file with no timed record starts at midnight
    /// UTC of `nmeaStartDate` (`--date`), and without that date the import fails. The timed
    /// records are then sorted and merged like any other. Must be positive and finite; any
    /// other value is ignored.
    public var assumedRate: Double?
    /// How a file's tracks (GPX, TCX, KML, TraceSim's segment column) become the trace.
    public var trackOrder: TrackOrder = .time
    /// Whether a well-framed record with an impossible field (NMEA minutes 60.0000, latitude
    /// 91, a CSV cell or JSON Lines value that is not a number) fails the whole file, naming
    /// it, instead of being skipped and counted in `ImportDiagnostics` (`outOfRange`,
    /// `malformedField`). Only the line-based formats skip such records; GPX, TCX and KML
    /// are always strict. Off by default.
    public var strict = false

    /// Creates options.
    public init(format: TraceFormat? = nil, nmeaStartDate: CalendarDate? = nil) {
        self.format = format
        self.nmeaStartDate = nmeaStartDate
    }
}

/// A proleptic Gregorian calendar date, UTC.
public struct CalendarDate: Sendable, Equatable {
    /// The year, for example 2024.
    public var year: Int
    /// The month, 1...12.
    public var month: Int
    /// The day of the month, 1...31.
    public var day: Int

    /// Parses `YYYY-MM-DD`, digits only (`Int` alone would take `+020` as a year and `+1` as
    /// a month). Returns `nil` for anything else or an impossible date.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), day >= 1, day <= CivilTime.daysInMonth(year: year, month: month)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int { CivilTime.daysSinceEpoch(year: year, month: month, day: day) }

    /// The whole days a `SimInstant` holds from midnight to midnight, as `YYYY-MM-DD`
    /// text: the clock's range begins at 00:12:43 on 1677-09-21 and ends at 23:47:16 on
    /// 2262-04-11, so those two days are only partly representable.
    public static let wholeDayRange = (first: "1677-09-22", last: "2262-04-10")

    /// Whether every instant of this day fits the clock (see `wholeDayRange`).
    public var isWholeDayRepresentable: Bool {
        let days = daysSinceEpoch
        return days >= CivilTime.daysSinceEpoch(year: 1677, month: 9, day: 22)
            && days <= CivilTime.daysSinceEpoch(year: 2262, month: 4, day: 10)
    }
}
