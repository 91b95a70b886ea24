/// The `segment` column of TraceSim's CSV and JSON Lines while a file is read: each distinct
/// `track.segment` label is declared once, in order of first appearance, and rows of an
/// already seen label (a time-ordered export interleaves overlapping tracks) rejoin it.
///
/// A file either labels every fix or none: a fix without a label among labelled ones would
/// otherwise have to be assigned a segment the file never gave it.
struct CanonicalSegments {
    private var indexOf: [Int: Int] = [:]
    private var current: (track: Int, segment: Int)?
    /// Whether the file's fixes carry labels; `nil` before the first fix.
    private var isLabelled: Bool?

    /// A label's text problem, worded once for both formats.
    static func invalidLabel(_ text: String) -> TraceFormatError.Problem {
        .unexpectedContent("segment '\(text)' is not TRACK.SEGMENT")
    }

    /// Puts the next fix (or untimed record) in the segment `label` names.
    /// - Throws: when this record has a label and earlier ones had none, or the reverse. Either
    ///   is a whole-file error even in a lenient import: it says how the file was written, not
    ///   that one record is damaged.
    mutating func enter(
        _ label: (track: Int, segment: Int)?, line: Int, source: TextSource, into builder: inout TraceBuilder
    ) throws(TraceFormatError) {
        let hasLabel = label != nil
        if let isLabelled, isLabelled != hasLabel {
            throw source.error(
                line: line,
                hasLabel
                    ? .unexpectedContent("segment given, though earlier fixes have none")
                    : .unexpectedContent("segment missing, though earlier fixes have one"))
        }
        isLabelled = hasLabel
        guard let label else { return }
        if let current, current == label { return }
        current = label
        let key = label.track &* 1_000_000_000 &+ label.segment
        if let index = indexOf[key] {
            builder.continueSegment(index)
        } else {
            indexOf[key] = builder.beginSegment(
                track: label.track, segment: label.segment, kind: nil, name: nil, line: line)
        }
    }
}
