import SimulationCore
import Traces

/// `inspect`'s lines about tracks and segments, present only for a trace of several segments
/// so every single-segment report reads as it always has.
extension InspectReport {
    /// The most segments listed one per line; the rest are counted.
    static let listedSegments = 20

    /// Rows for the text block. Labels stay within the block's narrowest label column
    /// ("accuracy"), so the rows above them keep their alignment.
    static func trackRows(_ summary: TraceSummary) -> [(String, String)] {
        let segments = summary.segments
        guard segments.count > 1 else { return [] }
        let tracks = Set(segments.map(\.track)).count
        var rows: [(String, String)] = [
            ("tracks", "\(tracks) track\(tracks == 1 ? "" : "s"), \(segments.count) segments (TRACK.SEGMENT below)")
        ]
        for segment in segments.prefix(listedSegments) {
            var text = "\(segment.label)"
            if let name = segment.name { text += " \"\(name)\"" }
            if let kind = segment.kind { text += " (\(kind))" }
            text +=
                ": \(segment.fixCount) fix\(segment.fixCount == 1 ? "" : "es"), \(ISO8601.format(segment.firstTime)) → "
            text +=
                "\(ISO8601.format(segment.lastTime)) (\(Formatting.compactDuration(segment.lastTime.seconds(since: segment.firstTime))))"
            text += ", line \(segment.line)"
            if segment.shiftNanoseconds != 0 {
                text += ", shifted +\(Formatting.compactDuration(Double(segment.shiftNanoseconds) / 1e9))"
            }
            rows.append(("", text))
        }
        if segments.count > listedSegments { rows.append(("", "... and \(segments.count - listedSegments) more")) }
        if !summary.trackOverlaps.isEmpty {
            rows.append(("overlap", overlapText(summary.trackOverlaps)))
        }
        return rows
    }

    /// The JSON object documented in the README (`inspect --format json`), with the track keys
    /// appended when the trace has several segments.
    public static func json(file: String, summary: TraceSummary) -> String {
        jsonValue(file: file, summary: summary).rendered
    }

    package static func jsonValue(file: String, summary: TraceSummary) -> JSONText {
        let object = singleTrackJSON(file: file, summary: summary)
        let extra = trackMembers(summary)
        guard !extra.isEmpty, case .object(let members) = object else { return object }
        return .object(members + extra)
    }

    /// Keys appended to the JSON object: `segments` (every one), `trackOverlaps` and
    /// `mergedAcrossTracks` (how many of `merged` were another track's point).
    static func trackMembers(_ summary: TraceSummary) -> [(String, JSONText)] {
        guard summary.segments.count > 1 else { return [] }
        let segments = summary.segments.map { segment in
            JSONText.object([
                ("track", .integer(segment.track)), ("segment", .integer(segment.segment)),
                ("kind", segment.kind.map(JSONText.string) ?? .null),
                ("name", segment.name.map(JSONText.string) ?? .null), ("line", .integer(segment.line)),
                ("fixes", .integer(segment.fixCount)), ("first", .string(ISO8601.format(segment.firstTime))),
                ("last", .string(ISO8601.format(segment.lastTime))),
                ("shiftSeconds", .number(Double(segment.shiftNanoseconds) / 1e9)),
            ])
        }
        let overlaps = summary.trackOverlaps.map { overlap in
            JSONText.object([
                ("track", .integer(overlap.track)), ("otherTrack", .integer(overlap.otherTrack)),
                ("first", .string(ISO8601.format(overlap.start))), ("last", .string(ISO8601.format(overlap.end))),
                ("seconds", .number(overlap.seconds)),
            ])
        }
        return [
            ("segments", .array(segments)), ("trackOverlaps", .array(overlaps)),
            ("mergedAcrossTracks", .integer(summary.diagnostics.mergedAcrossTracks.count)),
        ]
    }

    /// `tracks overlap in time: 1 and 2 by 4m05s (… → …)`, at most three overlaps named.
    package static func overlapText(_ overlaps: [TrackOverlap]) -> String {
        let shown = overlaps.prefix(3).map { overlap in
            "\(overlap.track) and \(overlap.otherTrack) by \(Formatting.compactDuration(overlap.seconds)) "
                + "(\(ISO8601.format(overlap.start)) → \(ISO8601.format(overlap.end)))"
        }
        let more = overlaps.count > 3 ? " and \(overlaps.count - 3) more" : ""
        return "tracks overlap in time: " + shown.joined(separator: ", ") + more
    }
}
