import SimulationCore

/// One stretch of a recording as the file delimits it: a GPX `<trkseg>` inside its `<trk>`,
/// a TCX `<Lap>` inside its `<Activity>` (or a `<Course>`), a KML `<gx:Track>` inside its
/// `<Placemark>`, or a `segment` value of TraceSim's own CSV and JSON Lines.
///
/// Numbers are the file's own ordinals, from 1: the third `<trk>` is track 3 even when the
/// second held no timed point (segments without a timed fix are not listed).
public struct TraceSegment: Sendable, Equatable {
    /// The track's position among the file's tracks, from 1.
    public var track: Int
    /// The segment's position within its track, from 1.
    public var segment: Int
    /// What the file calls the track's kind, when it says: GPX `<type>`, TCX `Sport`.
    public var kind: String?
    /// The track's name, when the file gives one: GPX `<name>`, KML `<Placemark><name>`,
    /// TCX `<Course><Name>`.
    public var name: String?
    /// The line where the segment begins (its element, or its first record), 1-based.
    public var line: Int
    /// How many of the trace's fixes belong to this segment. Under `TrackOrder.time` a
    /// segment whose every epoch repeats another segment's is merged away and counts 0.
    public var fixCount: Int
    /// The earliest timestamp the file gives one of the segment's fixes, before any shift.
    public var firstTime: SimInstant
    /// The latest timestamp the file gives one of the segment's fixes, before any shift.
    public var lastTime: SimInstant
    /// How far `TrackOrder.file` moved the segment's track later so the trace stays in time
    /// order; zero otherwise. Fixes in the trace carry their time plus this shift.
    public var shiftNanoseconds: Int64

    /// Creates a segment description.
    public init(
        track: Int, segment: Int, kind: String? = nil, name: String? = nil, line: Int, fixCount: Int,
        firstTime: SimInstant, lastTime: SimInstant, shiftNanoseconds: Int64 = 0
    ) {
        self.track = track
        self.segment = segment
        self.kind = kind
        self.name = name
        self.line = line
        self.fixCount = fixCount
        self.firstTime = firstTime
        self.lastTime = lastTime
        self.shiftNanoseconds = shiftNanoseconds
    }

    /// `track.segment`, as TraceSim's CSV and JSON Lines write it: `2.1`.
    public var label: String { "\(track).\(segment)" }

    /// Parses a `track.segment` label (both whole numbers from 1).
    /// - Returns: `nil` for anything else.
    public static func parseLabel(_ bytes: UnsafeBufferPointer<UInt8>) -> (track: Int, segment: Int)? {
        guard let dot = bytes.firstIndex(of: UInt8(ascii: ".")) else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            guard !range.isEmpty, range.count <= 9 else { return nil }
            var value = 0
            for index in range {
                let digit = Int(bytes[index]) - 0x30
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value >= 1 ? value : nil
        }
        guard let track = number(0..<dot), let segment = number((dot + 1)..<bytes.count) else { return nil }
        return (track, segment)
    }
}

/// How a file's tracks become the trace replayed.
public enum TrackOrder: String, CaseIterable, Sendable {
    /// Every fix of every track sorted by time, epochs repeated across tracks merged: the
    /// historical behaviour and the default. Tracks that overlap in time interleave.
    case time
    /// Tracks one after another in file order, each sorted and merged within itself; a track
    /// starting no later than the previous one ended is shifted to start one second after it.
    case file
    /// Each track its own trace (`Trace.splitByTrack()`); imported like `file` but never shifted,
    /// so the whole file is in time order within each track only.
    case each
}

/// Two tracks of one file whose time spans overlap.
public struct TrackOverlap: Sendable, Equatable {
    /// The earlier-starting track's number.
    public var track: Int
    /// The later-starting track's number.
    public var otherTrack: Int
    /// Where the overlap begins.
    public var start: SimInstant
    /// Where the overlap ends.
    public var end: SimInstant
    /// How long both tracks claim, in seconds.
    public var seconds: Double { end.seconds(since: start) }
}
