#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Imports what a gzip stream has inflated so far, on trial, so a stream whose content is
/// wrong near its start stops there instead of filling `$TMPDIR` first.
///
/// A stream just under the bomb ratio (`TraceFile.maximumGzipExpansionRatio`) can be a few MB
/// that inflate to gigabytes: a 3.3 MB file wrote 3.0 GB to the temporary folder before the
/// importer read its second line and refused it. The importers need the whole file mapped, so
/// they cannot run as it inflates; instead the content so far is imported at checkpoints:
/// after ``firstCheckBytes``, then each ``checkGrowthFactor`` times further while the stream
/// inflates at more than ``laterChecksAboveRatio``:1. Real traces compress 5:1 to 30:1, so
/// they pay for one trial of their first MiB at most.
///
/// A trial's error stops the stream only when the whole file's import would stop at the same
/// place with the same error (`isFinal`): an error the reader met on a line that ends well
/// before the cut, of a kind the readers raise while reading that line, not one raised after
/// the last record (a file with no valid record, untimed runs, a truncated document).
struct InflatedPrefixCheck {
    /// The first trial, after this many inflated bytes (1 MiB: a few thousand records).
    static let firstCheckBytes = 1 << 20
    /// Each later trial comes after this many times the bytes of the one before.
    static let checkGrowthFactor = 4
    /// Later trials run only while the stream has inflated at more than this ratio.
    static let laterChecksAboveRatio = 50
    /// An error counts only on a line that ends at least this far before the cut: the
    /// readers' look-ahead is far shorter, so nothing the cut hid could have changed it.
    static let marginBytes = 64 << 10

    /// Imports a prefix; the error it gives, if any.
    private let importPrefix: (MappedFile) -> TraceFormatError?
    /// Whether field values are errors (`--strict`) rather than skipped records.
    private let isStrict: Bool
    /// The inflated size of the next trial.
    private(set) var nextCheckBytes = firstCheckBytes

    /// A check running `importPrefix` at each checkpoint.
    init(isStrict: Bool, importPrefix: @escaping (MappedFile) -> TraceFormatError?) {
        self.isStrict = isStrict
        self.importPrefix = importPrefix
    }

    /// Whether a trial is due now that `inflated` bytes came out of `consumed` compressed ones;
    /// moves the next checkpoint on when it is.
    ///
    /// A checkpoint is passed, not reached: a stream past 64 MiB at more than 1000:1 is refused
    /// as a bomb before the output that passes 64 MiB is spooled, so it costs no trial there.
    mutating func isDue(inflated: Int, consumed: Int) -> Bool {
        guard inflated > nextCheckBytes else { return false }
        let isFirst = nextCheckBytes == Self.firstCheckBytes
        while nextCheckBytes < inflated { nextCheckBytes *= Self.checkGrowthFactor }
        return isFirst || inflated > Self.laterChecksAboveRatio * max(consumed, 1)
    }

    /// The error that stops the stream, if the trial import of `prefix` finds one.
    func error(in prefix: MappedFile) -> TraceFormatError? {
        guard let error = importPrefix(prefix), Self.isFinal(error, in: prefix.bytes, isStrict: isStrict) else {
            return nil
        }
        return error
    }

    /// Whether importing the whole file would stop with `error` too.
    ///
    /// The readers go through a file once, front to back, so an error met while reading a
    /// line the prefix holds whole, and which no later byte could change, is the whole
    /// file's first error too. Errors that come after the last record are not: a lenient
    /// import that found no valid record reports its first skipped one, untimed runs and
    /// `--tracks file` shifts are judged over every record (`unexpectedContent`), and the cut
    /// itself leaves a document or record unfinished (`truncated`, or an error at the end).
    static func isFinal(_ error: TraceFormatError, in prefix: UnsafeBufferPointer<UInt8>, isStrict: Bool) -> Bool {
        guard let line = error.line, let end = endOfLine(line, in: prefix), end <= prefix.count - marginBytes else {
            return false
        }
        switch error.problem {
        case .nulByte, .lineTooLong, .wrongFieldCount, .unknownColumn, .duplicateColumn, .missingColumn,
            .invalidJSON, .nestingTooDeep, .invalidXML, .entityDeclaration:
            return true
        case .unrecognizedFormat:
            // Detection reads the first `FormatDetector.sniffBytes` only.
            return prefix.count >= FormatDetector.sniffBytes
        case .invalidNumber, .nonFiniteNumber, .latitudeOutOfRange, .longitudeOutOfRange, .negativeValue,
            .valueOutOfRange, .invalidTimestamp, .missingField, .unknownToken:
            // Lenient imports skip such records and fail only when nothing valid followed.
            return isStrict
        case .emptyFile, .unexpectedContent, .truncated, .compressedStream:
            return false
        }
    }

    /// The offset just past the newline that ends 1-based `line`, counting "\n" only (a
    /// reader that also breaks at a lone "\r" numbers lines sooner, so this errs late, the
    /// safe side); `nil` when the prefix does not hold the line whole.
    private static func endOfLine(_ line: Int, in prefix: UnsafeBufferPointer<UInt8>) -> Int? {
        guard line >= 1, let base = prefix.baseAddress else { return nil }
        var offset = 0
        for _ in 0..<line {
            guard offset < prefix.count, let newline = memchr(base + offset, 0x0A, prefix.count - offset) else {
                return nil
            }
            offset = UnsafeRawPointer(newline) - UnsafeRawPointer(base) + 1
        }
        return offset
    }
}
