import SimulationCore

/// Reads one canonical CSV row into a `CanonicalCSVRecord`, on one of two paths.
///
/// The plain path (`plain`) takes the rows every export and nearly every file is made of: each
/// number cell plain enough for `CSVNumberField` and within its field's rules, a timestamp and
/// a provider that parse, the header's number of cells, `lat` and `lon` given. It reads each
/// cell once, its end found by reading it, and throws nothing (a function with typed throws is
/// not inlined, and this path is all about inlining). Any other row it declines, and the
/// careful path (`careful`), the importer's original reader, reads it again from its first
/// byte: the same values, or exactly the error the importer always raised. Reading a row has no
/// effect but its record (the timestamp reader's cache gives the same instant either way), so
/// a declined row costs only time.
enum CanonicalCSVRow {
    /// The row's record when every cell is plain and acceptable, else `nil`.
    ///
    /// - Parameters:
    ///   - base: the file's first byte.
    ///   - limit: the file's length, which no read passes.
    ///   - fields: the header's column at each position.
    /// - Complexity: O(n) in the row's length, each byte read once.
    @inline(never)
    static func plain(
        _ line: TextLine, _ base: UnsafePointer<UInt8>, limit: Int, fields: [CanonicalField],
        timestamps: inout ISO8601.Reader
    ) -> CanonicalCSVRecord? {
        var record = CanonicalCSVRecord()
        var column = 0
        var start = line.start
        let lineEnd = line.end
        while true {
            guard column < fields.count else { return nil }
            var end = start
            // An empty cell is absent, whatever the field.
            if start < lineEnd, base[start] != UInt8(ascii: ",") {
                switch fields[column] {
                case .time:
                    end = UnsafeBufferPointer(start: base, count: lineEnd).firstIndex(
                        of: UInt8(ascii: ","), from: start, to: lineEnd)
                    record.time = timestamps.parse(UnsafeBufferPointer(start: base + start, count: end &- start))
                    guard record.time != nil else { return nil }
                case .provider:
                    end = UnsafeBufferPointer(start: base, count: lineEnd).firstIndex(
                        of: UInt8(ascii: ","), from: start, to: lineEnd)
                    guard let provider = Provider(bytes: UnsafeBufferPointer(start: base + start, count: end &- start))
                    else { return nil }
                    record.provider = provider
                case .segment:
                    return nil
                case let field:
                    guard let (value, cellEnd) = CSVNumberField.scan(base, from: start, to: lineEnd, limit: limit),
                        record.store(value, as: field)
                    else { return nil }
                    end = cellEnd
                }
            }
            column &+= 1
            if end == lineEnd { break }
            start = end &+ 1
        }
        guard column == fields.count, record.isComplete else { return nil }
        return record
    }

    /// The row's record, read cell by cell by the importer's original reader: for the rows
    /// `plain` declines.
    /// - Throws: the first cell's error, in column order; `wrongFieldCount` when the row has too
    ///   few or too many cells (a row with too many reads its known columns first); then what
    ///   only the whole row can tell (`CanonicalCSVRecord.incompleteness`).
    @inline(never)
    static func careful(
        _ line: TextLine, _ source: TextSource, fields: [CanonicalField], timestamps: inout ISO8601.Reader
    ) throws(TraceFormatError) -> CanonicalCSVRecord {
        var record = CanonicalCSVRecord()
        var column = 0
        var cellStart = line.start
        while true {
            let cellEnd = source.bytes.firstIndex(of: UInt8(ascii: ","), from: cellStart, to: line.end)
            if column < fields.count {
                try read(fields[column], cellStart, cellEnd, source, timestamps: &timestamps, into: &record)
            }
            column += 1
            if cellEnd == line.end { break }
            cellStart = cellEnd + 1
        }
        guard column == fields.count else {
            throw source.error(line: line.number, .wrongFieldCount(expected: "\(fields.count)", found: column))
        }
        guard record.isComplete else { throw record.incompleteness(source, recordOffset: line.start) }
        return record
    }

    /// Reads the cell `start..<end` into `record`; an empty cell leaves its field absent.
    private static func read(
        _ field: CanonicalField, _ start: Int, _ end: Int, _ source: TextSource,
        timestamps: inout ISO8601.Reader, into record: inout CanonicalCSVRecord
    ) throws(TraceFormatError) {
        switch field {
        case .time:
            guard start < end else { return }
            guard let instant = timestamps.parse(source.slice(start, end)) else {
                throw source.error(atOffset: start, .invalidTimestamp(field: field.name))
            }
            record.time = instant
        // Values are checked here, at their cell, so errors name the exact column;
        // `CanonicalCSVRecord.incompleteness` tells what only the whole row can.
        case .latitude:
            guard let value = try source.optionalDouble(start, end, field: field.name) else { return }
            if let problem = FixRules.latitudeProblem(value) { throw source.error(atOffset: start, problem) }
            record.latitude = value
        case .longitude:
            guard let value = try source.optionalDouble(start, end, field: field.name) else { return }
            if let problem = FixRules.longitudeProblem(value) { throw source.error(atOffset: start, problem) }
            record.longitude = value
        case .altitudeMeters:
            record.altitudeMeters = try source.optionalDouble(start, end, field: field.name) ?? .nan
        case .horizontalAccuracyMeters:
            record.horizontalAccuracyMeters = try source.nonNegativeDouble(start, end, field: field.name) ?? .nan
        case .hdop: record.hdop = try source.nonNegativeDouble(start, end, field: field.name) ?? .nan
        case .verticalAccuracyMeters:
            record.verticalAccuracyMeters = try source.nonNegativeFloat(start, end, field: field.name) ?? .nan
        case .vdop: record.vdop = try source.nonNegativeFloat(start, end, field: field.name) ?? .nan
        case .speedMetersPerSecond: record.speed = try source.nonNegativeFloat(start, end, field: field.name) ?? .nan
        case .speedAccuracyMetersPerSecond:
            record.speedAccuracy = try source.nonNegativeFloat(start, end, field: field.name) ?? .nan
        case .courseDegrees: record.course = try source.course(start, end, field: field.name) ?? .nan
        case .courseAccuracyDegrees:
            record.courseAccuracy = try source.nonNegativeFloat(start, end, field: field.name) ?? .nan
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

/// One canonical CSV row's values before they become a `Fix`. An absent number is NaN, which
/// no cell can hold (the number readers refuse `nan`), so "absent" needs no flag of its own.
struct CanonicalCSVRecord {
    var time: SimInstant?
    var latitude = Double.nan
    var longitude = Double.nan
    var altitudeMeters = Double.nan
    var horizontalAccuracyMeters = Double.nan
    var hdop = Double.nan
    var verticalAccuracyMeters = Float.nan
    var vdop = Float.nan
    var speed = Float.nan
    var speedAccuracy = Float.nan
    var course = Float.nan
    var courseAccuracy = Float.nan
    var provider: Provider = .unknown
    /// `track.segment`, parsed.
    var segment: (track: Int, segment: Int)?

    /// Stores a plain number cell's value in `field` when the field's rules accept it, as the
    /// careful path's readers would (`TextSource+Fields`, `FixRules`): a latitude or longitude in
    /// range, no negative accuracy or speed, a course within 0...360, a single-precision value
    /// rounded once. Returns `false`, storing nothing, for anything the careful path must judge.
    @inline(__always)
    mutating func store(_ value: Double, as field: CanonicalField) -> Bool {
        switch field {
        case .latitude:
            guard FixRules.isLatitude(value) else { return false }
            latitude = value
        case .longitude:
            guard FixRules.isLongitude(value) else { return false }
            longitude = value
        case .altitudeMeters: altitudeMeters = value
        case .horizontalAccuracyMeters:
            guard !(value < 0) else { return false }
            horizontalAccuracyMeters = value
        case .hdop:
            guard !(value < 0) else { return false }
            hdop = value
        case .courseDegrees:
            guard let narrow = CSVNumberField.float(value), FixRules.isCourse(narrow) else { return false }
            course = narrow
        default:
            guard let narrow = CSVNumberField.float(value), !(narrow < 0) else { return false }
            switch field {
            case .verticalAccuracyMeters: verticalAccuracyMeters = narrow
            case .vdop: vdop = narrow
            case .speedMetersPerSecond: speed = narrow
            case .speedAccuracyMetersPerSecond: speedAccuracy = narrow
            case .courseAccuracyDegrees: courseAccuracy = narrow
            default: return false
            }
        }
        return true
    }

    /// Whether the record makes a fix: `lat` and `lon` given, and no two accuracies of one
    /// kind. The other rules of `CanonicalRecord.makeFix` (ranges, signs) were enforced at each
    /// cell as it was read.
    @inline(__always)
    var isComplete: Bool {
        !latitude.isNaN && !longitude.isNaN && (horizontalAccuracyMeters.isNaN || hdop.isNaN)
            && (verticalAccuracyMeters.isNaN || vdop.isNaN)
    }

    /// Why the record is not complete, worded and ordered as `CanonicalRecord.makeFix` words
    /// them, at the record's first byte.
    @inline(never)
    func incompleteness(_ source: TextSource, recordOffset: Int) -> TraceFormatError {
        let problem: TraceFormatError.Problem =
            if latitude.isNaN {
                .missingField(CanonicalField.latitude.name)
            } else if longitude.isNaN {
                .missingField(CanonicalField.longitude.name)
            } else if !horizontalAccuracyMeters.isNaN && !hdop.isNaN {
                .unexpectedContent("h_acc_m and hdop are exclusive: a fix has one horizontal accuracy")
            } else {
                .unexpectedContent("v_acc_m and vdop are exclusive: a fix has one vertical accuracy")
            }
        return source.error(atOffset: recordOffset, problem)
    }

    /// The fix of a complete record with a timestamp.
    @_transparent  // As `CSVNumberField.scan`: `@inline(__always)` left it a call.
    func fix(at time: SimInstant) -> Fix {
        var fix = Fix(
            timestamp: time, latitude: latitude, longitude: longitude,
            altitudeMeters: altitudeMeters.isNaN ? nil : altitudeMeters,
            speedMetersPerSecond: speed.isNaN ? nil : speed,
            speedAccuracyMetersPerSecond: speedAccuracy.isNaN ? nil : speedAccuracy,
            courseDegrees: course.isNaN ? nil : course,
            courseAccuracyDegrees: courseAccuracy.isNaN ? nil : courseAccuracy, provider: provider
        )
        if !horizontalAccuracyMeters.isNaN { fix.horizontalAccuracy = .meters(horizontalAccuracyMeters) }
        if !hdop.isNaN { fix.horizontalAccuracy = .dilution(hdop) }
        if !verticalAccuracyMeters.isNaN { fix.verticalAccuracy = .meters(Double(verticalAccuracyMeters)) }
        if !vdop.isNaN { fix.verticalAccuracy = .dilution(Double(vdop)) }
        return fix
    }
}
