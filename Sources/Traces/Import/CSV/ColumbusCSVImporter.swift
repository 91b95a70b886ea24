import SimulationCore

/// Reads Columbus / Visiontac V-900-family logger CSV:
/// `INDEX,TAG,DATE,TIME,LATITUDE N/S,LONGITUDE E/W,HEIGHT,SPEED,HEADING` and, in the
/// loggers' "professional" mode, `FIX MODE,VALID,PDOP,HDOP,VDOP` as well.
///
/// `DATE` is `yymmdd` and `TIME` `hhmmss`, both UTC; coordinates carry their hemisphere
/// letter glued on (`49.0733336N`); `SPEED` is km/h and `HEIGHT` metres. Every tag is a
/// position: `T` track points, `C` button-press points, `V` voice-memo points. A point
/// recorded at the same second as another merges into it. A row with the header's cell count
/// but an impossible value is skipped and counted (see `TextSource+LenientRecords`).
struct ColumbusCSVImporter {
    static func read(_ source: TextSource) throws(TraceFormatError) -> Trace {
        var builder = TraceBuilder(expectedFixes: source.bytes.count / 60)
        var splitter = FieldSplitter()
        var lines = source.lines
        guard let headerLine = lines.next() else { throw TraceFormatError(file: source.file, problem: .emptyFile) }
        let columns = try ColumnMap(source: source, line: headerLine, splitter: &splitter)
        let date = try columns.required("DATE", source: source, line: 1)
        let time = try columns.required("TIME", source: source, line: 1)
        let latitude = try columns.required("LATITUDE N/S", source: source, line: 1)
        let longitude = try columns.required("LONGITUDE E/W", source: source, line: 1)
        let height = columns.position(of: "HEIGHT")
        let speed = columns.position(of: "SPEED")
        let heading = columns.position(of: "HEADING")
        let hdop = columns.position(of: "HDOP")
        let vdop = columns.position(of: "VDOP")

        while let line = lines.next() {
            if line.isEmpty { continue }
            splitter.split(source.bytes, line.start, line.end, separator: UInt8(ascii: ","))
            guard splitter.count == columns.count else {
                throw source.error(
                    line: line.number, .wrongFieldCount(expected: "\(columns.count)", found: splitter.count))
            }
            do throws(TraceFormatError) {
                func field(_ index: Int) -> (Int, Int) { splitter.trimmed(index, in: source.bytes) }
                func optionalField(_ index: Int?) -> (Int, Int) { index.map(field) ?? (0, 0) }

                let timestamp = try Self.timestamp(source, date: field(date), time: field(time))
                var fix = Fix(
                    timestamp: timestamp,
                    latitude: try Self.coordinate(
                        source, field(latitude), positive: UInt8(ascii: "N"), negative: UInt8(ascii: "S"),
                        isLatitude: true),
                    longitude: try Self.coordinate(
                        source, field(longitude), positive: UInt8(ascii: "E"), negative: UInt8(ascii: "W"),
                        isLatitude: false),
                    altitudeMeters: try source.optionalDouble(
                        optionalField(height).0, optionalField(height).1, field: "HEIGHT"),
                    speedMetersPerSecond: try source.nonNegativeFloat(
                        optionalField(speed).0, optionalField(speed).1,
                        field: "SPEED"
                    ).map { $0 / 3.6 },
                    courseDegrees: try source.course(
                        optionalField(heading).0, optionalField(heading).1, field: "HEADING"),
                    provider: .gps
                )
                if let value = try source.nonNegativeDouble(
                    optionalField(hdop).0, optionalField(hdop).1, field: "HDOP"),
                    value > 0
                {
                    fix.horizontalAccuracy = .dilution(value)
                }
                // Single precision, like every vertical figure in a Fix.
                if let value = try source.nonNegativeFloat(optionalField(vdop).0, optionalField(vdop).1, field: "VDOP"),
                    value > 0
                {
                    fix.verticalAccuracy = .dilution(Double(value))
                }
                builder.add(fix, line: line.number)
            } catch {
                let skipped = try source.skippable(error, on: line)
                builder.diagnostics.skip(skipped.reason, because: skipped.error)
            }
        }
        return try source.requireSomethingValid(builder.build(provenance: TraceProvenance(format: .columbusCSV)))
    }

    private static func timestamp(
        _ source: TextSource, date: (Int, Int), time: (Int, Int)
    ) throws(TraceFormatError) -> SimInstant {
        let bytes = source.bytes
        func digits(_ start: Int, _ end: Int) -> [Int]? {
            guard end - start == 6 else { return nil }
            var values: [Int] = []
            for pair in stride(from: start, to: end, by: 2) {
                let high = bytes[pair] &- 48
                let low = bytes[pair + 1] &- 48
                guard high <= 9, low <= 9 else { return nil }
                values.append(Int(high) * 10 + Int(low))
            }
            return values
        }
        guard let ymd = digits(date.0, date.1), (1...12).contains(ymd[1]), ymd[2] >= 1,
            ymd[2] <= CivilTime.daysInMonth(year: 2000 + ymd[0], month: ymd[1])
        else { throw source.error(atOffset: date.0, .invalidTimestamp(field: "DATE")) }
        guard let hms = digits(time.0, time.1), hms[0] < 24, hms[1] < 60, hms[2] <= 60 else {
            throw source.error(atOffset: time.0, .invalidTimestamp(field: "TIME"))
        }
        // The loggers were sold from 2008: two-digit years are 2000-2099.
        let days = CivilTime.daysSinceEpoch(year: 2000 + ymd[0], month: ymd[1], day: ymd[2])
        let seconds = Int64(days) * 86_400 + Int64(hms[0] * 3600 + hms[1] * 60 + hms[2])
        return SimInstant(nanosecondsSinceEpoch: seconds * 1_000_000_000)
    }

    private static func coordinate(
        _ source: TextSource, _ field: (Int, Int), positive: UInt8, negative: UInt8, isLatitude: Bool
    ) throws(TraceFormatError) -> Double {
        let name = isLatitude ? "LATITUDE N/S" : "LONGITUDE E/W"
        let (start, end) = field
        guard end > start else { throw source.error(atOffset: start, .missingField(name)) }
        let hemisphere = source.bytes[end - 1]
        guard hemisphere == positive || hemisphere == negative else {
            throw source.error(atOffset: end - 1, .missingField("\(name) hemisphere letter"))
        }
        var value = try source.requiredDouble(start, end - 1, field: name)
        guard value >= 0 else { throw source.error(atOffset: start, .invalidNumber(field: name)) }
        if hemisphere == negative { value = -value }
        let problem = isLatitude ? FixRules.latitudeProblem(value) : FixRules.longitudeProblem(value)
        if let problem { throw source.error(atOffset: start, problem) }
        return value
    }
}
