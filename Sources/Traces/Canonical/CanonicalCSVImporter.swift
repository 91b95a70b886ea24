import SimulationCore

/// Reads TraceSim's canonical CSV: an optional block of `#` comment lines, a header naming
/// `CanonicalField` columns in any order (`time`, `lat` and `lon` required), then one fix
/// per row. Unknown or repeated columns are errors, so a misspelt `speed_kmh` can never be
/// silently ignored, and so is a row with the wrong number of cells; a whole row with an
/// impossible value is skipped and counted (see `TextSource+LenientRecords`).
struct CanonicalCSVImporter {
    static func read(_ source: TextSource, trackOrder: TrackOrder = .time) throws(TraceFormatError) -> Trace {
        let bytes = source.bytes
        var builder = TraceBuilder(expectedFixes: bytes.count / 40, trackOrder: trackOrder)
        var splitter = FieldSplitter()
        var lines = source.lines
        var headerLine: TextLine?
        while let line = lines.next() {
            if line.isEmpty || bytes[line.start] == UInt8(ascii: "#") { continue }
            headerLine = line
            break
        }
        guard let headerLine else { throw TraceFormatError(file: source.file, problem: .emptyFile) }
        let known = Set(CanonicalField.allCases.map(\.name))
        let columns = try ColumnMap(source: source, line: headerLine, splitter: &splitter, known: known)
        for required in [CanonicalField.time, .latitude, .longitude] {
            _ = try columns.required(required.name, source: source, line: headerLine.number)
        }
        // Column position → field, so each row is one pass over its cells.
        let fieldAt = columns.names.compactMap { CanonicalField(rawValue: $0) }
        try readRows(&lines, source, fields: fieldAt, into: &builder)
        return try source.requireSomethingValid(builder.build(provenance: TraceProvenance(format: .canonicalCSV)))
    }

    /// Reads every row after the header. Out of line, and small, so that what it calls is
    /// inlined into its loop.
    @inline(never)
    private static func readRows(
        _ lines: inout TextLines, _ source: TextSource, fields: [CanonicalField], into builder: inout TraceBuilder
    ) throws(TraceFormatError) {
        guard let base = source.bytes.baseAddress else { return }
        var timestamps = ISO8601.Reader()
        var segments = CanonicalSegments()
        let hasSegments = fields.contains(.segment)
        while let line = lines.next() {
            if line.isEmpty { continue }
            do throws(TraceFormatError) {
                var record: CanonicalCSVRecord
                if let plain = CanonicalCSVRow.plain(
                    line, base, limit: source.bytes.count, fields: fields, timestamps: &timestamps)
                {
                    record = plain
                } else {
                    record = try CanonicalCSVRow.careful(line, source, fields: fields, timestamps: &timestamps)
                }
                // After the record is known good, so a skipped row declares no segment.
                if hasSegments { try segments.enter(record.segment, line: line.number, source: source, into: &builder) }
                if let time = record.time {
                    builder.add(record.fix(at: time), line: line.number)
                } else {
                    builder.untimed(line: line.number)
                }
            } catch {
                let skipped = try source.skippable(error, on: line)
                // Skipped only when the row is whole: a cell too many or too few means the
                // columns no longer line up, which no other row can be trusted past.
                let cells = cellCount(line, source)
                guard cells == fields.count else {
                    throw source.error(line: line.number, .wrongFieldCount(expected: "\(fields.count)", found: cells))
                }
                builder.diagnostics.skip(skipped.reason, because: skipped.error)
            }
        }
    }

    /// The number of cells in a row, for deciding whether a row with a bad cell is whole.
    private static func cellCount(_ line: TextLine, _ source: TextSource) -> Int {
        var count = 1
        for index in line.start..<line.end where source.bytes[index] == UInt8(ascii: ",") { count += 1 }
        return count
    }
}
