/// Why an importer passed over a record that might have been a fix.
public enum SkipReason: String, CaseIterable, Sendable, Comparable {
    /// An NMEA sentence whose checksum does not match its contents.
    case badChecksum
    /// An NMEA sentence with no `*hh` checksum (often a line cut off mid-write).
    case missingChecksum
    /// A record the receiver itself marked as void or without a fix
    /// (NMEA status `V`, GGA quality 0, a 70mai `V` row).
    case noFix
    /// A track point without a position (for example a TCX heart-rate-only trackpoint).
    case noPosition
    /// A GPX waypoint (`<wpt>`): a place someone marked, with no place in the recorded track.
    case waypoint
    /// A GPX route point (`<rtept>`): a planned way to go, not where the receiver was.
    case routePoint
    /// A well-framed record of a line-based format (NMEA, the CSV formats, JSON Lines) with a
    /// value outside what it can mean: latitude 91, NMEA minutes 60.0000, a negative speed,
    /// a course of 400°. Import with `ImportOptions.strict` to make it an error instead.
    case outOfRange
    /// A well-framed record of a line-based format with a field that cannot be read: not a
    /// number, not finite, an impossible date or time, an unknown token, a required value
    /// left empty. Import with `ImportOptions.strict` to make it an error instead.
    case malformedField

    /// Orders by declaration (or by time), for stable output.
    public static func < (lhs: SkipReason, rhs: SkipReason) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A count with the first few line numbers where it happened, for pointing users at the file.
public struct LineTally: Sendable, Equatable {
    /// How many times it happened.
    public private(set) var count = 0
    /// The first line numbers, 1-based, at most `LineTally.keptLines` of them.
    public private(set) var firstLines: [Int] = []

    /// How many line numbers are kept.
    public static let keptLines = 5

    /// Creates an empty tally.
    public init() {}

    /// Counts one occurrence at `line`.
    public mutating func record(line: Int) {
        count += 1
        if firstLines.count < Self.keptLines { firstLines.append(line) }
    }
}

/// What an importer did besides producing fixes. These counts are part of `inspect`'s contract.
///
/// Counting rules (the README repeats them):
/// - a fix is one distinct epoch (timestamp and provider) with a valid position;
/// - records of an epoch already seen are merged into its first record, filling only fields
///   that record lacks, and counted in `merged`;
/// - records without a timestamp are counted in `untimed`;
/// - ten or more consecutive records of one provider sharing one timestamp across more than
///   100 m are counted in `untimedRuns`, not merged (`ImportOptions.assumedRate` times them);
/// - a record earlier than one already read from the same provider is counted in `outOfOrder`,
///   and the trace is sorted.
public struct ImportDiagnostics: Sendable, Equatable {
    /// Records skipped, by reason.
    public var skipped: [SkipReason: LineTally] = [:]
    /// Duplicate records merged into an earlier record of the same epoch.
    public var merged = LineTally()
    /// The merged records that came from a different track than the record they merged into
    /// (a subset of `merged`, only under `TrackOrder.time`): points of overlapping tracks that
    /// share a time, kept only as the first track's point.
    public var mergedAcrossTracks = LineTally()
    /// Records without a timestamp.
    public var untimed = LineTally()
    /// Records that arrived earlier in time than one already read.
    public var outOfOrder = LineTally()
    /// Runs of one repeated timestamp that cover ground: placeholder times, not epochs.
    public var untimedRuns = UntimedRunTally()
    /// For the reasons that have one (`outOfRange`, `malformedField`), the error the first
    /// record skipped for that reason would have raised under `ImportOptions.strict`: where
    /// it is and what was wrong with it.
    public var firstProblems: [SkipReason: TraceFormatError] = [:]

    /// Creates empty diagnostics.
    public init() {}

    /// Counts a skipped record.
    public mutating func skip(_ reason: SkipReason, line: Int) {
        skipped[reason, default: LineTally()].record(line: line)
    }

    /// Counts a record skipped because of `problem`, keeping the first problem of each reason.
    public mutating func skip(_ reason: SkipReason, because problem: TraceFormatError) {
        skip(reason, line: problem.line ?? 0)
        if firstProblems[reason] == nil { firstProblems[reason] = problem }
    }

    /// The skip tallies in a stable order.
    public var sortedSkips: [(reason: SkipReason, tally: LineTally)] {
        skipped.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
