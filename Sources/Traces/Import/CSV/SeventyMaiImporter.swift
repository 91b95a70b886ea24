import SimulationCore

/// Reads 70mai dash-cam GPS logs: a `$V02` header (repeated where recordings were
/// concatenated), then `epoch_s,status,lat,lon,course,speed,g1,g2,g3,video,0,0,0` rows.
///
/// `status` `A` is a fix and `V` none (skipped as `noFix`); course is in hundredths of a
/// degree and speed in cm/s, as GPSBabel's reader documents. A time of 0 is the camera's
/// "no time yet" and counts as untimed. The three g-sensor columns have no documented
/// unit and are not read. A row of 13 fields with an impossible value is skipped and counted
/// (see `TextSource+LenientRecords`).
struct SeventyMaiImporter {
    static let fieldCount = 13

    static func read(_ source: TextSource) throws(TraceFormatError) -> Trace {
        var builder = TraceBuilder(expectedFixes: source.bytes.count / 90)
        var splitter = FieldSplitter()
        let bytes = source.bytes
        var sawHeader = false
        for line in source.lines where !line.isEmpty {
            if bytes[line.start] == UInt8(ascii: "$") {
                guard source.string(line.start, line.end).hasPrefix("$V0") else {
                    throw source.error(line: line.number, column: 1, .unexpectedContent("expected a '$V02' header"))
                }
                sawHeader = true
                continue
            }
            guard sawHeader else {
                throw source.error(line: line.number, column: 1, .unexpectedContent("data before the '$V02' header"))
            }
            splitter.split(bytes, line.start, line.end, separator: UInt8(ascii: ","))
            guard splitter.count == fieldCount else {
                throw source.error(
                    line: line.number, .wrongFieldCount(expected: "\(fieldCount)", found: splitter.count))
            }
            do throws(TraceFormatError) {
                try readRow(source, splitter, line: line, into: &builder)
            } catch {
                let skipped = try source.skippable(error, on: line)
                builder.diagnostics.skip(skipped.reason, because: skipped.error)
            }
        }
        guard sawHeader else {
            throw TraceFormatError(file: source.file, line: 1, problem: .unexpectedContent("no '$V02' header"))
        }
        return try source.requireSomethingValid(
            builder.build(provenance: TraceProvenance(format: .seventyMai, device: "70mai dash cam")))
    }

    /// One row with the right number of fields: a fix, or counted as no-fix or untimed.
    private static func readRow(
        _ source: TextSource, _ splitter: FieldSplitter, line: TextLine, into builder: inout TraceBuilder
    ) throws(TraceFormatError) {
        let bytes = source.bytes
        func field(_ index: Int) -> (Int, Int) { splitter.trimmed(index, in: bytes) }

        let status = field(1)
        guard status.1 - status.0 == 1, bytes[status.0] == UInt8(ascii: "A") || bytes[status.0] == UInt8(ascii: "V")
        else {
            throw source.error(
                atOffset: status.0, .unknownToken(field: "status", token: source.string(status.0, status.1)))
        }
        if bytes[status.0] == UInt8(ascii: "V") {
            builder.skip(.noFix, line: line.number)
            return
        }
        let time = field(0)
        guard let seconds = NumberParser.int64(source.slice(time.0, time.1)), seconds >= 0,
            seconds < 9_000_000_000
        else { throw source.error(atOffset: time.0, .invalidTimestamp(field: "time")) }
        let latitude = try source.latitude(field(2).0, field(2).1)
        let longitude = try source.longitude(field(3).0, field(3).1)
        if seconds == 0 {
            builder.untimed(line: line.number)
            return
        }
        let course = try source.optionalFloat(field(4).0, field(4).1, field: "course").map { $0 / 100 }
        if let course, let problem = FixRules.courseProblem(course, field: "course") {
            throw source.error(atOffset: field(4).0, problem)
        }
        let speed = try source.nonNegativeFloat(field(5).0, field(5).1, field: "speed").map { $0 / 100 }
        builder.add(
            Fix(
                timestamp: SimInstant(nanosecondsSinceEpoch: seconds * 1_000_000_000),
                latitude: latitude,
                longitude: longitude,
                speedMetersPerSecond: speed,
                courseDegrees: course,
                provider: .gps
            ),
            line: line.number
        )
    }
}
