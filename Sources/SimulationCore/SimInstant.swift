/// A point on the simulation's timeline: nanoseconds since 1970-01-01T00:00:00Z (UTC).
///
/// Trace timestamps and virtual-clock instants share this one type, so a replay never
/// converts between "recorded" and "simulated" time. An `Int64` of nanoseconds covers the
/// years 1678 to 2262, far wider than any GNSS recording.
///
/// Nothing here reads the wall clock: instants come from trace files or from arithmetic.
public struct SimInstant: Hashable, Comparable, Sendable {
    /// Nanoseconds since the Unix epoch, UTC, leap seconds not counted (POSIX time).
    public var nanosecondsSinceEpoch: Int64

    /// Creates an instant from nanoseconds since the Unix epoch.
    public init(nanosecondsSinceEpoch: Int64) {
        self.nanosecondsSinceEpoch = nanosecondsSinceEpoch
    }

    /// Creates an instant from whole milliseconds since the Unix epoch (Android's `UnixTimeMillis`).
    ///
    /// - Returns: `nil` when the value does not fit the representable range.
    public init?(millisecondsSinceEpoch milliseconds: Int64) {
        let (value, overflow) = milliseconds.multipliedReportingOverflow(by: 1_000_000)
        if overflow { return nil }
        self.nanosecondsSinceEpoch = value
    }

    /// Creates an instant from fractional seconds since the Unix epoch (iOS `timeIntervalSince1970`).
    ///
    /// The value is rounded to the nearest nanosecond, which is finer than a `Double` of
    /// present-day seconds can resolve (about 240 ns), so no recorded digit is lost.
    /// - Returns: `nil` for a non-finite value or one outside the representable range.
    public init?(secondsSinceEpoch seconds: Double) {
        guard seconds.isFinite, abs(seconds) < 9.2e9 else { return nil }
        let whole = seconds.rounded(.down)
        let fraction = ((seconds - whole) * 1e9).rounded()
        self.nanosecondsSinceEpoch = Int64(whole) * 1_000_000_000 + Int64(fraction)
    }

    /// Seconds since the Unix epoch, as a `Double`.
    public var secondsSinceEpoch: Double {
        Double(nanosecondsSinceEpoch) / 1e9
    }

    /// The interval from `earlier` to this instant, in seconds.
    ///
    /// Exact to the nanosecond for intervals under 292 years; longer ones (a trace with one
    /// fix in 1700 and the next in 2200) do not fit an `Int64` of nanoseconds and are
    /// computed in floating point instead of trapping.
    @inline(__always)
    public func seconds(since earlier: SimInstant) -> Double {
        let (difference, overflow) = nanosecondsSinceEpoch.subtractingReportingOverflow(earlier.nanosecondsSinceEpoch)
        if _slowPath(overflow) { return secondsSinceEpoch - earlier.secondsSinceEpoch }
        return Double(difference) / 1e9
    }

    /// Orders by declaration (or by time), for stable output.
    public static func < (lhs: SimInstant, rhs: SimInstant) -> Bool {
        lhs.nanosecondsSinceEpoch < rhs.nanosecondsSinceEpoch
    }
}

extension SimInstant {
    /// The instant `nanoseconds` later (earlier when negative), held at the ends of the
    /// representable range (a timer set near the year 2262 fires at its end, not in a trap).
    @inline(__always)
    public func advanced(byNanoseconds nanoseconds: Int64) -> SimInstant {
        let (sum, overflow) = nanosecondsSinceEpoch.addingReportingOverflow(nanoseconds)
        if _slowPath(overflow) { return SimInstant(nanosecondsSinceEpoch: nanoseconds > 0 ? .max : .min) }
        return SimInstant(nanosecondsSinceEpoch: sum)
    }

    /// The instant `seconds` later, rounded to the nanosecond and held at the ends of the
    /// representable range like `advanced(byNanoseconds:)`; NaN leaves the instant as it is.
    public func advanced(bySeconds seconds: Double) -> SimInstant {
        let nanoseconds = (seconds * 1e9).rounded()
        guard !nanoseconds.isNaN else { return self }
        guard abs(nanoseconds) < 9.2e18 else {
            return SimInstant(nanosecondsSinceEpoch: nanoseconds > 0 ? .max : .min)
        }
        return advanced(byNanoseconds: Int64(nanoseconds))
    }
}
