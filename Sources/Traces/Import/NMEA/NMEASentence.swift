import SimulationCore

/// Typed access to one checksum-valid NMEA sentence's comma-separated fields.
///
/// Field 0 is the address (`GPRMC`). An absent or empty field reads as `nil`; a present
/// field that is malformed is an error naming the line and column.
struct NMEASentence {
    let source: TextSource
    let fields: FieldSplitter
    let line: TextLine

    var count: Int { fields.count }

    private func range(_ index: Int) -> (start: Int, end: Int)? {
        guard index < fields.count else { return nil }
        let start = fields.start(index)
        let end = fields.end(index)
        return start < end ? (start, end) : nil
    }

    private func fail(_ index: Int, _ problem: TraceFormatError.Problem) -> TraceFormatError {
        source.error(line: line.number, column: column(index), problem)
    }

    /// The 1-based column where field `index` starts (the line's end when it is absent).
    func column(_ index: Int) -> Int {
        (index < fields.count ? fields.start(index) : line.end) - line.start + 1
    }

    /// Whether field `index` is exactly the one-byte flag `value` (`A`, `V`, `N`...).
    func flag(_ index: Int, is value: Unicode.Scalar) -> Bool {
        guard let (start, end) = range(index), end - start == 1 else { return false }
        return source.bytes[start] == UInt8(ascii: value)
    }

    func double(_ index: Int, field: String) throws(TraceFormatError) -> Double? {
        guard let (start, end) = range(index) else { return nil }
        return try NumberParser.double(source.slice(start, end)).value(field: field) { fail(index, $0) }
    }

    func nonNegativeDouble(_ index: Int, field: String) throws(TraceFormatError) -> Double? {
        guard let value = try double(index, field: field) else { return nil }
        if let problem = FixRules.negativeProblem(value, field: field) { throw fail(index, problem) }
        return value
    }

    /// Rounded once to `Float`, like every importer's single-precision fields; a value beyond
    /// `Float`'s range is an error, never an infinite speed.
    func nonNegativeFloat(_ index: Int, field: String) throws(TraceFormatError) -> Float? {
        guard let (start, end) = range(index) else { return nil }
        let value = try NumberParser.float(source.slice(start, end)).value(field: field) { fail(index, $0) }
        if let problem = FixRules.negativeProblem(Double(value), field: field) { throw fail(index, problem) }
        return value
    }

    /// A dilution of precision. Receivers write 0 when they have none, so 0 reads as absent.
    func dilution(_ index: Int, field: String) throws(TraceFormatError) -> Double? {
        guard let value = try nonNegativeDouble(index, field: field), value > 0 else { return nil }
        return value
    }

    func course(_ index: Int) throws(TraceFormatError) -> Float? {
        guard let (start, end) = range(index) else { return nil }
        let value = try NumberParser.float(source.slice(start, end)).value(field: "course") { fail(index, $0) }
        if let problem = FixRules.courseProblem(value, field: "course") { throw fail(index, problem) }
        return value
    }

    /// `hhmmss[.sss]` as nanoseconds since midnight.
    func timeOfDay(_ index: Int) throws(TraceFormatError) -> Int64? {
        guard let (start, end) = range(index) else { return nil }
        let bytes = source.bytes
        guard end - start >= 6, let hours = twoDigits(start), let minutes = twoDigits(start + 2),
            let seconds = twoDigits(start + 4), hours < 24, minutes < 60, seconds <= 60
        else { throw fail(index, .invalidTimestamp(field: "time of day")) }
        var nanoseconds: Int64 = 0
        if end - start > 6 {
            guard bytes[start + 6] == UInt8(ascii: "."), end - start > 7 else {
                throw fail(index, .invalidTimestamp(field: "time of day"))
            }
            var scale: Int64 = 100_000_000
            for position in (start + 7)..<end {
                let digit = bytes[position] &- 48
                guard digit <= 9 else { throw fail(index, .invalidTimestamp(field: "time of day")) }
                nanoseconds += Int64(digit) * scale
                scale /= 10
            }
        }
        return (Int64(hours) * 3600 + Int64(minutes) * 60 + Int64(seconds)) * 1_000_000_000 + nanoseconds
    }

    /// RMC's `ddmmyy`, as days since 1970-01-01. Two-digit years pivot at 80: 80–99 are
    /// 1980–1999 (GPS began in 1980), 00–79 are 2000–2079.
    func date(_ index: Int) throws(TraceFormatError) -> Int? {
        guard let (start, end) = range(index) else { return nil }
        guard end - start == 6, let day = twoDigits(start), let month = twoDigits(start + 2),
            let shortYear = twoDigits(start + 4)
        else { throw fail(index, .invalidTimestamp(field: "date")) }
        let year = shortYear >= 80 ? 1900 + shortYear : 2000 + shortYear
        guard (1...12).contains(month), day >= 1, day <= CivilTime.daysInMonth(year: year, month: month) else {
            throw fail(index, .invalidTimestamp(field: "date"))
        }
        return CivilTime.daysSinceEpoch(year: year, month: month, day: day)
    }

    /// ZDA's separate day, month and four-digit year fields, as days since 1970-01-01.
    func calendarDay(day dayIndex: Int, month monthIndex: Int, year yearIndex: Int) throws(TraceFormatError) -> Int? {
        guard let day = try double(dayIndex, field: "day"), let month = try double(monthIndex, field: "month"),
            let year = try double(yearIndex, field: "year")
        else { return nil }
        guard year >= 1980, year <= 2200, (1...12).contains(month), day >= 1,
            day <= Double(CivilTime.daysInMonth(year: Int(year), month: Int(month))),
            day == day.rounded(), month == month.rounded(), year == year.rounded()
        else { throw fail(dayIndex, .invalidTimestamp(field: "date")) }
        return CivilTime.daysSinceEpoch(year: Int(year), month: Int(month), day: Int(day))
    }

    /// `ddmm.mmmm` with its N/S hemisphere in the next field.
    func latitude(_ index: Int) throws(TraceFormatError) -> Double? {
        try angle(index, degreeDigits: 2, positive: UInt8(ascii: "N"), negative: UInt8(ascii: "S"), isLatitude: true)
    }

    /// `dddmm.mmmm` with its E/W hemisphere in the next field.
    func longitude(_ index: Int) throws(TraceFormatError) -> Double? {
        try angle(index, degreeDigits: 3, positive: UInt8(ascii: "E"), negative: UInt8(ascii: "W"), isLatitude: false)
    }

    private func angle(
        _ index: Int, degreeDigits: Int, positive: UInt8, negative: UInt8, isLatitude: Bool
    ) throws(TraceFormatError) -> Double? {
        let name = isLatitude ? "latitude" : "longitude"
        guard let (start, end) = range(index) else { return nil }
        let bytes = source.bytes
        // Degrees are every integer digit but the last two, which start the minutes.
        var point = start
        while point < end, bytes[point] != UInt8(ascii: ".") { point += 1 }
        guard point - start >= 3, point - start <= degreeDigits + 2 else {
            throw fail(index, .invalidNumber(field: name))
        }
        guard let degrees = NumberParser.int64(source.slice(start, point - 2)) else {
            throw fail(index, .invalidNumber(field: name))
        }
        let minutes = try NumberParser.double(source.slice(point - 2, end)).value(field: name) { fail(index, $0) }
        guard degrees >= 0, minutes >= 0, minutes < 60 else {
            throw fail(index, .valueOutOfRange(field: "\(name) minutes", value: minutes, range: "0..<60"))
        }
        guard let (hemisphereStart, hemisphereEnd) = range(index + 1), hemisphereEnd - hemisphereStart == 1,
            bytes[hemisphereStart] == positive || bytes[hemisphereStart] == negative
        else { throw fail(index + 1, .missingField("\(name) hemisphere")) }
        var value = Double(degrees) + minutes / 60
        if bytes[hemisphereStart] == negative { value = -value }
        let problem = isLatitude ? FixRules.latitudeProblem(value) : FixRules.longitudeProblem(value)
        if let problem { throw fail(index, problem) }
        return value
    }

    private func twoDigits(_ position: Int) -> Int? {
        let high = source.bytes[position] &- 48
        let low = source.bytes[position + 1] &- 48
        guard high <= 9, low <= 9 else { return nil }
        return Int(high) * 10 + Int(low)
    }
}
