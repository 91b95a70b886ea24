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
        var segments = CanonicalSegments()
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
        var timestamps = ISO8601.Reader()
        let hasSegments = fieldAt.contains(.segment)

        while let line = lines.next() {
            if line.isEmpty { continue }
            do throws(TraceFormatError) {
                // Cells are read as the commas are found: no per-row field table to fill.
                var record = CanonicalRecord()
                var column = 0
                var cellStart = line.start
                while true {
                    let cellEnd = bytes.firstIndex(of: UInt8(ascii: ","), from: cellStart, to: line.end)
                    if column < fieldAt.count {
                        try read(fieldAt[column], cellStart, cellEnd, source, timestamps: &timestamps, into: &record)
                    }
                    column += 1
                    if cellEnd == line.end { break }
                    cellStart = cellEnd + 1
                }
                guard column == fieldAt.count else {
                    throw source.error(line: line.number, .wrongFieldCount(expected: "\(fieldAt.count)", found: column))
                }
                let fix = try record.makeFix(source, recordOffset: line.start)
                // After the record is known good, so a skipped row declares no segment.
                if hasSegments { try segments.enter(record.segment, line: line.number, source: source, into: &builder) }
                if let fix {
                    builder.add(fix, line: line.number)
                } else {
                    builder.untimed(line: line.number)
                }
            } catch {
                let skipped = try source.skippable(error, on: line)
                // Skipped only when the row is whole: a cell too many or too few means the
                // columns no longer line up, which no other row can be trusted past.
                let cells = Self.cellCount(line, source)
                guard cells == fieldAt.count else {
                    throw source.error(line: line.number, .wrongFieldCount(expected: "\(fieldAt.count)", found: cells))
                }
                builder.diagnostics.skip(skipped.reason, because: skipped.error)
            }
        }
        return try source.requireSomethingValid(builder.build(provenance: TraceProvenance(format: .canonicalCSV)))
    }

    /// The number of cells in a row, for deciding whether a row with a bad cell is whole.
    private static func cellCount(_ line: TextLine, _ source: TextSource) -> Int {
        var count = 1
        for index in line.start..<line.end where source.bytes[index] == UInt8(ascii: ",") { count += 1 }
        return count
    }

    @inline(__always)
    private static func read(
        _ field: CanonicalField, _ start: Int, _ end: Int, _ source: TextSource,
        timestamps: inout ISO8601.Reader, into record: inout CanonicalRecord
    ) throws(TraceFormatError) {
        switch field {
        case .time:
            guard start < end else { return }
            guard let instant = timestamps.parse(source.slice(start, end)) else {
                throw source.error(atOffset: start, .invalidTimestamp(field: field.name))
            }
            record.time = instant
        // Values are checked here, at their cell, so errors name the exact column;
        // `CanonicalRecord.makeFix` checks what only the whole row can tell.
        case .latitude:
            record.latitude = try source.optionalDouble(start, end, field: field.name)
            if let value = record.latitude, let problem = FixRules.latitudeProblem(value) {
                throw source.error(atOffset: start, problem)
            }
        case .longitude:
            record.longitude = try source.optionalDouble(start, end, field: field.name)
            if let value = record.longitude, let problem = FixRules.longitudeProblem(value) {
                throw source.error(atOffset: start, problem)
            }
        case .altitudeMeters: record.altitudeMeters = try source.optionalDouble(start, end, field: field.name)
        case .horizontalAccuracyMeters:
            record.horizontalAccuracyMeters = try source.nonNegativeDouble(start, end, field: field.name)
        case .hdop: record.hdop = try source.nonNegativeDouble(start, end, field: field.name)
        case .verticalAccuracyMeters:
            record.verticalAccuracyMeters = try source.nonNegativeFloat(start, end, field: field.name)
        case .vdop: record.vdop = try source.nonNegativeFloat(start, end, field: field.name)
        case .speedMetersPerSecond: record.speed = try source.nonNegativeFloat(start, end, field: field.name)
        case .speedAccuracyMetersPerSecond:
            record.speedAccuracy = try source.nonNegativeFloat(start, end, field: field.name)
        case .courseDegrees: record.course = try source.course(start, end, field: field.name)
        case .courseAccuracyDegrees:
            record.courseAccuracy = try source.nonNegativeFloat(start, end, field: field.name)
        case .provider:
            guard start < end else { return }
            guard let provider = Provider(bytes: source.slice(start, end)) else {
                throw source.error(atOffset: start, .unknownToken(field: field.name, token: source.string(start, end)))
            }
            record.provider = provider
        case .segment:
            guard start < end else { return }
            record.segment = TraceSegment.parseLabel(source.slice(start, end))
            guard record.segment != nil else {
                throw source.error(atOffset: start, CanonicalSegments.invalidLabel(source.string(start, end)))
            }
        }
    }
}
