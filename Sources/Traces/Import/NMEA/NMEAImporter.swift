import SimulationCore

/// Reads NMEA 0183 logs: plain sentences, gpsd logs with `#` comment lines, and Android
/// GnssLogger's `NMEA,<sentence>,<unix ms>` wrapping.
///
/// Sentences read: RMC, GGA, GLL (position), GSA (DOPs), GST (error ellipse in metres),
/// VTG (speed, course) and ZDA (date), from any talker (GP, GN, GL, GA, GB, BD, ...).
/// Others (GSV, TXT, proprietary `$P...`) are recognised as NMEA and passed over.
///
/// Rules:
/// - a sentence whose checksum does not match is skipped and counted (`badChecksum`); one
///   without a checksum likewise (`missingChecksum`);
/// - sentences sharing a time-of-day form one epoch and one fix; an epoch whose position
///   sentences all say "no fix" is skipped and counted (`noFix`);
/// - the date comes from RMC or ZDA; epochs before the first dated sentence take that date
///   (stepping back a day across midnight), later ones roll over at midnight; a log with no
///   date anywhere yields only `untimed` records, never an invented day;
/// - a checksum-valid sentence with an impossible value (latitude 91°, minutes ≥ 60, as some
///   writers round, or a time 25:00:00) is skipped and counted (`outOfRange`,
///   `malformedField`) and takes nothing into its epoch; the log fails only when nothing
///   valid is left, or at once under `ImportOptions.strict`.
struct NMEAImporter {
    /// NMEA allows 82 characters; real logs carry longer proprietary sentences, so the
    /// limit only stops runaway lines (a binary file, a missing newline).
    static let maximumLineBytes = 4096

    private let source: TextSource
    private var builder = TraceBuilder()
    private var fields = FieldSplitter()
    private var epoch: NMEAEpoch?
    /// Epochs waiting for the first date in the file.
    private var undatedEpochs: [NMEAEpoch] = []
    /// The last epoch's date and time of day, for midnight roll-over.
    private var lastDay: Int?
    private var lastTimeOfDay: Int64 = 0
    /// The user's date for a log that never dates itself.
    private let startDate: CalendarDate?
    private var sawSentence = false
    /// GnssLogger files interleave NMEA with other records (`Raw`, `Status`, sensors).
    private let isGnssLogger: Bool

    private init(source: TextSource, format: TraceFormat, startDate: CalendarDate?) {
        self.source = source
        isGnssLogger = format == .gnssLoggerNMEA
        builder = TraceBuilder(expectedFixes: source.bytes.count / 70)
        self.startDate = startDate
    }

    /// Imports a log. `format` tells whether lines are GnssLogger-wrapped; `startDate` dates
    /// the first epoch when the log's own sentences do not.
    static func read(_ source: TextSource, format: TraceFormat, startDate: CalendarDate?) throws(TraceFormatError)
        -> Trace
    {
        var importer = NMEAImporter(source: source, format: format, startDate: startDate)
        for line in source.lines {
            try importer.readLine(line)
        }
        guard importer.sawSentence else {
            throw TraceFormatError(file: source.file, problem: .unexpectedContent("no NMEA sentences found"))
        }
        try importer.closeEpoch()
        try importer.finishUndated()
        return try source.requireSomethingValid(importer.builder.build(provenance: TraceProvenance(format: format)))
    }

    private mutating func readLine(_ line: TextLine) throws(TraceFormatError) {
        let bytes = source.bytes
        var start = line.start
        var end = line.end
        while start < end, bytes[start] == UInt8(ascii: " ") || bytes[start] == 9 { start += 1 }
        while end > start, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == 9 { end -= 1 }
        guard start < end else { return }
        guard end - start <= Self.maximumLineBytes else {
            throw source.error(line: line.number, .lineTooLong(limitBytes: Self.maximumLineBytes))
        }
        if bytes[start] == UInt8(ascii: "#") { return }
        if Self.hasPrefix("NMEA,", bytes, start, end) {
            // GnssLogger: NMEA,<sentence>,<receive time in Unix ms>. The sentence ends at the
            // last comma; the receive time is the phone's, not the receiver's, so it is unused.
            start += 5
            var comma = end - 1
            while comma > start, bytes[comma] != UInt8(ascii: ",") { comma -= 1 }
            guard comma > start else {
                throw source.error(line: line.number, column: start + 1 - line.start, .missingField("receive time"))
            }
            end = comma
        } else if isGnssLogger, Self.isOtherGnssLoggerRecord(bytes, start, end) {
            return
        }
        guard bytes[start] == UInt8(ascii: "$") || bytes[start] == UInt8(ascii: "!") else {
            throw source.error(
                line: line.number, column: start + 1 - line.start,
                .unexpectedContent("not an NMEA sentence (expected '$')"))
        }
        sawSentence = true

        // Checksum: XOR of every byte between '$' and '*'.
        var star = end - 1
        while star > start, bytes[star] != UInt8(ascii: "*") { star -= 1 }
        guard star > start, end - star == 3 else {
            builder.skip(star > start ? .badChecksum : .missingChecksum, line: line.number)
            return
        }
        var checksum: UInt8 = 0
        for index in (start + 1)..<star { checksum ^= bytes[index] }
        guard let high = Self.hexValue(bytes[star + 1]), let low = Self.hexValue(bytes[star + 2]),
            high << 4 | low == checksum
        else {
            builder.skip(.badChecksum, line: line.number)
            return
        }

        fields.split(bytes, start + 1, star, separator: UInt8(ascii: ","))
        let addressLength = fields.end(0) - fields.start(0)
        guard addressLength == 5, bytes[start + 1] != UInt8(ascii: "P") else { return }
        let typeStart = fields.start(0) + 2
        let type = (UInt32(bytes[typeStart]) << 16) | (UInt32(bytes[typeStart + 1]) << 8) | UInt32(bytes[typeStart + 2])
        let sentence = NMEASentence(source: source, fields: fields, line: line)
        do throws(TraceFormatError) {
            switch type {
            case Self.code("RMC"): try readRMC(sentence)
            case Self.code("GGA"): try readGGA(sentence)
            case Self.code("GLL"): try readGLL(sentence)
            case Self.code("GSA"): try readGSA(sentence)
            case Self.code("GST"): try readGST(sentence)
            case Self.code("VTG"): try readVTG(sentence)
            case Self.code("ZDA"): try readZDA(sentence)
            default: return
            }
        } catch {
            let skipped = try source.skippable(error, on: line)
            // A skipped sentence leaves nothing behind: the readers change an epoch only once
            // every field has been read, and an epoch the sentence opened goes with it.
            if epoch?.firstLine == line.number { epoch = nil }
            builder.diagnostics.skip(skipped.reason, because: skipped.error)
        }
    }

    // MARK: Sentences

    // Each reader opens its epoch, reads every field, and only then changes the epoch: a
    // sentence that fails part-way has given the epoch nothing (see `readLine`).

    /// RMC: time, status, lat, N/S, lon, E/W, speed (knots), course, date, variation, E/W, mode.
    private mutating func readRMC(_ sentence: NMEASentence) throws(TraceFormatError) {
        guard let time = try sentence.timeOfDay(1) else { return }
        let day = try sentence.date(9)
        try beginEpoch(at: time, day: day, sentence: sentence, timeField: 1)
        let isValid = sentence.flag(2, is: "A") && !sentence.flag(12, is: "N")
        guard isValid else {
            if let day { epoch?.daysSinceEpoch = day }
            epoch?.sawVoidPosition = true
            return
        }
        var position: (latitude: Double, longitude: Double)?
        if let latitude = try sentence.latitude(3), let longitude = try sentence.longitude(5) {
            position = (latitude, longitude)
        }
        let knots = try sentence.nonNegativeFloat(7, field: "speed")
        let course = try sentence.course(8)
        if let position { try startAgainIfRepeated(position, from: .rmc, at: time, sentence: sentence, timeField: 1) }
        if let day { epoch?.daysSinceEpoch = day }
        if let position { epoch?.offerPosition(latitude: position.latitude, longitude: position.longitude, from: .rmc) }
        if let knots { epoch?.speedMetersPerSecond = knots * Self.metersPerSecondPerKnot }
        if let course { epoch?.courseDegrees = course }
    }

    /// GGA: time, lat, N/S, lon, E/W, quality, satellites, HDOP, altitude, M, geoid, M, ...
    private mutating func readGGA(_ sentence: NMEASentence) throws(TraceFormatError) {
        guard let time = try sentence.timeOfDay(1) else { return }
        try beginEpoch(at: time, sentence: sentence, timeField: 1)
        let quality = try sentence.double(6, field: "fix quality") ?? 0
        guard quality > 0 else {
            epoch?.sawVoidPosition = true
            return
        }
        var position: (latitude: Double, longitude: Double)?
        if let latitude = try sentence.latitude(2), let longitude = try sentence.longitude(4) {
            position = (latitude, longitude)
        }
        let hdop = try sentence.dilution(8, field: "HDOP")
        let altitude = try sentence.double(9, field: "altitude")
        if let position { try startAgainIfRepeated(position, from: .gga, at: time, sentence: sentence, timeField: 1) }
        if let position { epoch?.offerPosition(latitude: position.latitude, longitude: position.longitude, from: .gga) }
        if let hdop { epoch?.hdop = hdop }
        if let altitude { epoch?.altitudeMeters = altitude }
    }

    /// GLL: lat, N/S, lon, E/W, time, status, mode.
    private mutating func readGLL(_ sentence: NMEASentence) throws(TraceFormatError) {
        guard let time = try sentence.timeOfDay(5) else { return }
        try beginEpoch(at: time, sentence: sentence, timeField: 5)
        guard sentence.flag(6, is: "A"), !sentence.flag(7, is: "N") else {
            epoch?.sawVoidPosition = true
            return
        }
        if let latitude = try sentence.latitude(1), let longitude = try sentence.longitude(3) {
            try startAgainIfRepeated((latitude, longitude), from: .gll, at: time, sentence: sentence, timeField: 5)
            epoch?.offerPosition(latitude: latitude, longitude: longitude, from: .gll)
        }
    }

    /// GSA: mode, fix type, 12 satellite ids, PDOP, HDOP, VDOP[, system id]. No time: it
    /// belongs to the epoch it follows.
    private mutating func readGSA(_ sentence: NMEASentence) throws(TraceFormatError) {
        guard epoch != nil, sentence.count >= 18 else { return }
        let hdop = epoch?.hdop == nil ? try sentence.dilution(16, field: "HDOP") : nil
        // Vertical figures are single precision in a Fix: read them as Float, so one too large
        // for it is an error here rather than an infinity later.
        let vdop = epoch?.vdop == nil ? try sentence.nonNegativeFloat(17, field: "VDOP") : nil
        if let hdop { epoch?.hdop = hdop }
        if let vdop, vdop > 0 { epoch?.vdop = Double(vdop) }
    }

    /// GST: time, RMS, σ major, σ minor, orientation, σ latitude, σ longitude, σ altitude (metres).
    private mutating func readGST(_ sentence: NMEASentence) throws(TraceFormatError) {
        guard let time = try sentence.timeOfDay(1) else { return }
        try beginEpoch(at: time, sentence: sentence, timeField: 1)
        let latitudeSigma = try sentence.nonNegativeDouble(6, field: "latitude sigma")
        let longitudeSigma = try sentence.nonNegativeDouble(7, field: "longitude sigma")
        let altitudeSigma = try sentence.nonNegativeFloat(8, field: "altitude sigma").map(Double.init)
        epoch?.sigmaLatitudeMeters = latitudeSigma
        epoch?.sigmaLongitudeMeters = longitudeSigma
        epoch?.sigmaAltitudeMeters = altitudeSigma
    }

    /// VTG: course true, T, course magnetic, M, speed knots, N, speed km/h, K[, mode].
    private mutating func readVTG(_ sentence: NMEASentence) throws(TraceFormatError) {
        guard epoch != nil, !sentence.flag(9, is: "N") else { return }
        let course = epoch?.courseDegrees == nil ? try sentence.course(1) : nil
        var speed: Float?
        if epoch?.speedMetersPerSecond == nil {
            if let knots = try sentence.nonNegativeFloat(5, field: "speed") {
                speed = knots * Self.metersPerSecondPerKnot
            } else if let kilometresPerHour = try sentence.nonNegativeFloat(7, field: "speed") {
                speed = kilometresPerHour / 3.6
            }
        }
        if let course { epoch?.courseDegrees = course }
        if let speed { epoch?.speedMetersPerSecond = speed }
    }

    /// ZDA: time, day, month, year, zone hours, zone minutes.
    private mutating func readZDA(_ sentence: NMEASentence) throws(TraceFormatError) {
        guard let time = try sentence.timeOfDay(1) else { return }
        let day = try sentence.calendarDay(day: 2, month: 3, year: 4)
        try beginEpoch(at: time, day: day, sentence: sentence, timeField: 1)
        if let day { epoch?.daysSinceEpoch = day }
    }

    // MARK: Epochs and dates

    /// Continues the open epoch when `timeOfDay` is its time and `day`, if given, does not
    /// contradict a date it already has; otherwise closes it and opens a new one. The same
    /// time of day on another date is another epoch (a log spanning midnight twice, or a
    /// receiver replaying its buffer), not more sentences of this one.
    private mutating func beginEpoch(
        at timeOfDay: Int64, day: Int? = nil, sentence: NMEASentence, timeField: Int
    ) throws(TraceFormatError) {
        if let current = epoch, current.timeOfDayNanoseconds == timeOfDay {
            guard let day, let currentDay = current.daysSinceEpoch, currentDay != day else { return }
        }
        try openEpoch(at: timeOfDay, sentence: sentence, timeField: timeField)
    }

    /// A second position sentence of one type at one time, giving another place, is another
    /// record, not more of this epoch: the epoch is closed and a new one opened at the same
    /// time, so the builder counts the repeat as merged, or finds the untimed run a logger
    /// stamping every sentence with one placeholder time makes. The same sentence repeated
    /// word for word (two talkers, say) adds nothing and stays in the epoch.
    private mutating func startAgainIfRepeated(
        _ position: (latitude: Double, longitude: Double), from source: NMEAEpoch.PositionSource, at time: Int64,
        sentence: NMEASentence, timeField: Int
    ) throws(TraceFormatError) {
        guard let current = epoch, current.positionSource == source,
            current.latitude != position.latitude || current.longitude != position.longitude
        else { return }
        try openEpoch(at: time, sentence: sentence, timeField: timeField)
    }

    /// Closes the open epoch and opens a new one at `timeOfDay`, begun by `sentence`.
    private mutating func openEpoch(
        at timeOfDay: Int64, sentence: NMEASentence, timeField: Int
    ) throws(TraceFormatError) {
        try closeEpoch()
        epoch = NMEAEpoch(
            timeOfDayNanoseconds: timeOfDay, firstLine: sentence.line.number, timeColumn: sentence.column(timeField))
    }

    private mutating func closeEpoch() throws(TraceFormatError) {
        guard let finished = epoch else { return }
        epoch = nil
        if !finished.hasValidPosition {
            if finished.sawVoidPosition { builder.skip(.noFix, line: finished.firstLine) }
            return
        }
        if let explicitDay = finished.daysSinceEpoch {
            if lastDay == nil {
                try resolveUndated(firstDatedDay: explicitDay, at: finished.timeOfDayNanoseconds)
            }
            try emit(finished, day: explicitDay)
        } else if let day = lastDay {
            // No date in this epoch: carry the last one, rolling over when the clock wraps.
            let rolledDay = finished.timeOfDayNanoseconds + Self.halfDay < lastTimeOfDay ? day + 1 : day
            try emit(finished, day: rolledDay)
        } else {
            undatedEpochs.append(finished)
        }
    }

    /// Dates the epochs read before the first date: same day, or the day before when their
    /// time of day is more than half a day later than the first dated epoch's.
    private mutating func resolveUndated(firstDatedDay day: Int, at timeOfDay: Int64) throws(TraceFormatError) {
        for pending in undatedEpochs {
            let pendingDay = pending.timeOfDayNanoseconds > timeOfDay + Self.halfDay ? day - 1 : day
            if let fix = try makeFix(pending, day: pendingDay) { builder.add(fix, line: pending.firstLine) }
        }
        undatedEpochs.removeAll()
    }

    /// At the end of a log that never gave a date: the user's start date dates the first
    /// epoch and the rest roll forward from it; without one, the epochs are untimed.
    private mutating func finishUndated() throws(TraceFormatError) {
        guard let startDate else {
            for pending in undatedEpochs { builder.untimed(line: pending.firstLine) }
            undatedEpochs.removeAll()
            return
        }
        let pending = undatedEpochs
        undatedEpochs.removeAll()
        lastDay = startDate.daysSinceEpoch
        lastTimeOfDay = pending.first?.timeOfDayNanoseconds ?? 0
        for epoch in pending {
            let day = lastDay ?? startDate.daysSinceEpoch
            try emit(epoch, day: epoch.timeOfDayNanoseconds + Self.halfDay < lastTimeOfDay ? day + 1 : day)
        }
    }

    private mutating func emit(_ finished: NMEAEpoch, day: Int) throws(TraceFormatError) {
        lastDay = day
        lastTimeOfDay = finished.timeOfDayNanoseconds
        if let fix = try makeFix(finished, day: day) { builder.add(fix, line: finished.firstLine) }
    }

    /// The epoch's fix on `day`. A day carried forward from `--date` or rolled over many
    /// midnights can leave the clock's range: that epoch is refused at its line, never
    /// wrapped into another century or trapped on.
    private func makeFix(_ epoch: NMEAEpoch, day: Int) throws(TraceFormatError) -> Fix? {
        guard epoch.hasValidPosition else { return nil }
        guard let instant = NMEAEpoch.instant(daysSinceEpoch: day, timeOfDay: epoch.timeOfDayNanoseconds) else {
            let date = CivilTime.date(daysSinceEpoch: day)
            throw source.error(
                line: epoch.firstLine, column: epoch.timeColumn,
                .invalidTimestamp(
                    field: "\(Self.digits(date.year, 4))-\(Self.digits(date.month, 2))-\(Self.digits(date.day, 2))T"
                        + Self.clockText(epoch.timeOfDayNanoseconds)
                        + "Z (outside 1677-09-21T00:12:43Z...2262-04-11T23:47:16Z)"))
        }
        return epoch.makeFix(at: instant)
    }

    private static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value.magnitude)
        let padded = String(repeating: "0", count: max(0, width - text.count)) + text
        return value < 0 ? "-" + padded : padded
    }

    /// `hh:mm:ss` of a time of day, for messages.
    private static func clockText(_ nanoseconds: Int64) -> String {
        let seconds = Int(nanoseconds / 1_000_000_000)
        return "\(digits(seconds / 3600, 2)):\(digits(seconds / 60 % 60, 2)):\(digits(seconds % 60, 2))"
    }

    // MARK: Helpers

    /// 1852 m per nautical mile, 3600 s per hour.
    static let metersPerSecondPerKnot: Float = 1852.0 / 3600.0
    private static let halfDay: Int64 = 43_200_000_000_000

    private static func code(_ type: StaticString) -> UInt32 {
        let pointer = type.utf8Start
        return (UInt32(pointer[0]) << 16) | (UInt32(pointer[1]) << 8) | UInt32(pointer[2])
    }

    private static func isOtherGnssLoggerRecord(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        var comma = start
        while comma < end, bytes[comma] != UInt8(ascii: ",") { comma += 1 }
        let record = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<comma]), as: UTF8.self)
        return FormatDetector.gnssLoggerRecords.contains(record)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    private static func hasPrefix(_ prefix: StaticString, _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int)
        -> Bool
    {
        let count = prefix.utf8CodeUnitCount
        guard end - start >= count else { return false }
        for offset in 0..<count where bytes[start + offset] != prefix.utf8Start[offset] { return false }
        return true
    }
}
