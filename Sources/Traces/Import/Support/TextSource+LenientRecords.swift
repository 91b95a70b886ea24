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
///
/// A lenient import locates errors lazily: `error(atOffset:)` keeps the byte offset, and the
/// record's own line (or, for an error leaving the import, one count from the top) turns it
/// into a line and column, so a million skipped records do not each recount the file.
/// Everything here runs only when a record fails, so it is kept out of line: inlined into the
/// importers' loops it would crowd out the readers they inline.
extension TextSource {
    /// What to do with `error`, raised while reading the record on `line`: the reason to skip
    /// that record for, with the error located on it, or the error thrown again (located)
    /// when the import is strict, when it is about another line (an earlier NMEA epoch), or
    /// when it is not about one field's value.
    @inline(never)
    func skippable(
        _ error: TraceFormatError, on line: TextLine
    ) throws(TraceFormatError) -> (reason: SkipReason, error: TraceFormatError) {
        let error = located(error, on: line)
        guard isLenient, error.line == line.number, let reason = SkipReason(fieldProblem: error.problem) else {
            throw located(error)
        }
        return (reason, error)
    }

    /// `error` with its line and column, when it is one of `error(atOffset:)`'s still holding
    /// an offset inside `line`: found from the line's start, without counting from the top.
    @inline(never)
    func located(_ error: TraceFormatError, on line: TextLine) -> TraceFormatError {
        guard let offset = pendingOffset(error), offset >= line.start, offset <= line.end else { return error }
        return TraceFormatError(
            file: error.file, line: line.number, column: offset - line.start + 1, problem: error.problem)
    }

    /// `error` with its line and column, counted from the top if it still holds an offset:
    /// what every error leaving a lenient import goes through.
    @inline(never)
    func located(_ error: TraceFormatError) -> TraceFormatError {
        guard let offset = pendingOffset(error) else { return error }
        let (line, column) = location(ofOffset: offset)
        return TraceFormatError(file: error.file, line: line, column: column, problem: error.problem)
    }

    /// The byte offset a lenient `error(atOffset:)` stored in place of its column.
    private func pendingOffset(_ error: TraceFormatError) -> Int? {
        guard isLenient, error.line == nil, let column = error.column else { return nil }
        return column - 1
    }

    /// `trace`, unless records were skipped for an impossible field and nothing else was
    /// read: no fix, no untimed record, no motion sample. Then the first such record's error,
    /// so a file of nothing but bad records fails as a strict import would.
    @inline(never)
    func requireSomethingValid(_ trace: Trace) throws(TraceFormatError) -> Trace {
        let diagnostics = trace.diagnostics
        guard trace.fixes.isEmpty, trace.motionSamples.isEmpty, diagnostics.untimed.count == 0,
            diagnostics.untimedRuns.records == 0,
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
        case .emptyFile, .unrecognizedFormat, .nulByte, .lineTooLong, .wrongFieldCount, .unknownColumn,
            .duplicateColumn, .missingColumn, .invalidJSON, .nestingTooDeep, .invalidXML, .entityDeclaration,
            .unexpectedContent, .truncated, .compressedStream, .configuration:
            // Framing, the whole file, or contradicting fields: these stay errors.
            return nil
        }
    }
}
