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
    public func seconds(since earlier: SimInstant) -> Double {
        Double(nanosecondsSinceEpoch - earlier.nanosecondsSinceEpoch) / 1e9
    }

    /// Orders by declaration (or by time), for stable output.
    public static func < (lhs: SimInstant, rhs: SimInstant) -> Bool {
        lhs.nanosecondsSinceEpoch < rhs.nanosecondsSinceEpoch
    }
}

extension SimInstant {
    /// The instant `nanoseconds` later (earlier when negative).
    public func advanced(byNanoseconds nanoseconds: Int64) -> SimInstant {
        SimInstant(nanosecondsSinceEpoch: nanosecondsSinceEpoch + nanoseconds)
    }
}
