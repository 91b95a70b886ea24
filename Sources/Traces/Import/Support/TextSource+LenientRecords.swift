/// Lenient records: what the line-based importers (NMEA, the CSV formats, JSON Lines) do with a
/// record whose framing is sound (a sentence with a good checksum, a row with the right number
/// of cells, a line that is one JSON object) but whose field is impossible.
///
/// Real writers get single fields wrong (NMEA minutes rounded up to 60.0000, one corrupted
/// number in a million-row log) while every other record is fine; refusing the whole file
/// for one of them loses everything. So such a record is skipped and counted, with the first
/// one's error kept for `inspect`, and the file fails only when nothing valid is left. The
/// error raised is exactly what a strict import (`ImportOptions.strict`) raises at once.
///
/// Framing problems stay errors whatever the mode: they mean the reader no longer knows
/// where records start and end, or that the file is not what it claims to be.
extension TextSource {
    /// What to do with `error`, raised while reading the record on `line`: the reason to skip
    /// that record for, or `error` thrown again when the import is strict, when it is about
    /// another line (an earlier NMEA epoch), or when it is not about one field's value.
    func skipReason(for error: TraceFormatError, line: Int) throws(TraceFormatError) -> SkipReason {
        guard !isStrict, error.line == line, let reason = SkipReason(fieldProblem: error.problem) else { throw error }
        return reason
    }

    /// `trace`, unless records were skipped for an impossible field and nothing else was
    /// read: no fix, no untimed record, no motion sample. Then the first such record's error,
    /// so a file of nothing but bad records fails as a strict import would.
    func requireSomethingValid(_ trace: Trace) throws(TraceFormatError) -> Trace {
        let diagnostics = trace.diagnostics
        guard trace.fixes.isEmpty, trace.motionSamples.isEmpty, diagnostics.untimed.count == 0,
            let first = diagnostics.firstProblems.values.min(by: { ($0.line ?? 0) < ($1.line ?? 0) })
        else { return trace }
        throw first
    }
}

extension SkipReason {
    /// The reason a well-framed record is skipped for `problem`, or `nil` when the problem is
    /// about framing or the whole file and stays an error.
    ///
    /// Range problems are `outOfRange`; everything that makes one field unreadable is
    /// `malformedField`. A row with the wrong number of cells, JSON that does not parse, an
    /// unknown column or key, a line too long, contradicting fields (`h_acc_m` with `hdop`)
    /// are not field problems.
    init?(fieldProblem problem: TraceFormatError.Problem) {
        switch problem {
        case .latitudeOutOfRange, .longitudeOutOfRange, .negativeValue, .valueOutOfRange:
            self = .outOfRange
        case .invalidNumber, .nonFiniteNumber, .invalidTimestamp, .unknownToken, .missingField:
            self = .malformedField
        default:
            return nil
        }
    }
}
