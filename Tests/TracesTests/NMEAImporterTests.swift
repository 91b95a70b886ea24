import SimulationCore
import Testing
import Traces

@Suite("NMEA 0183 import rules")
struct NMEAImporterTests {
    static let rmc = nmea("GPRMC,123519.00,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W,A")
    static let gga = nmea("GPGGA,123519.00,4807.0381234,N,01131.0001234,E,1,08,0.9,545.4,M,46.9,M,,")

    @Test("the sentences of one epoch merge into one fix, GGA's extra decimals winning")
    func epochMerge() throws {
        let gsa = nmea("GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1")
        let vtg = nmea("GPVTG,084.4,T,,M,022.4,N,041.5,K,A")
        let trace = try importText([Self.rmc, Self.gga, gsa, vtg].joined(separator: "\n"))
        #expect(trace.fixes.count == 1)
        let fix = try #require(trace.fixes.first)
        #expect(ISO8601.format(fix.timestamp) == "1994-03-23T12:35:19.000Z")
        #expect(fix.latitude == 48 + 7.0381234 / 60)
        #expect(fix.longitude == 11 + 31.0001234 / 60)
        #expect(fix.altitudeMeters == 545.4)
        #expect(fix.horizontalAccuracy == .dilution(0.9))
        #expect(fix.verticalAccuracy == .dilution(Double(Float(2.1))))
        #expect(fix.speedMetersPerSecond == Float(22.4) * Float(1852.0 / 3600.0))
        #expect(fix.courseDegrees == 84.4)
        #expect(fix.provider == .gps)
    }

    @Test("every GNSS talker is read", arguments: ["GP", "GN", "GL", "GA", "GB", "BD"])
    func talkers(talker: String) throws {
        let line = nmea("\(talker)RMC,000001,A,0100.000,S,00200.000,W,0,,010120,,,A")
        let fix = try #require(try importText(line).fixes.first)
        #expect(fix.latitude == -(1.0 + 0.0 / 60))
        #expect(fix.longitude == -2.0)
    }

    @Test("a bad checksum skips and counts the sentence; a missing one likewise")
    func checksums() throws {
        var corrupted = Self.rmc
        corrupted.removeLast()
        corrupted += "0"
        let noChecksum = "$GPRMC,123520,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W"
        let trace = try importText([corrupted, noChecksum, Self.gga].joined(separator: "\n"))
        #expect(trace.diagnostics.skipped[.badChecksum]?.count == 1)
        #expect(trace.diagnostics.skipped[.badChecksum]?.firstLines == [1])
        #expect(trace.diagnostics.skipped[.missingChecksum]?.count == 1)
        // The GGA has no date of its own and the only RMC was rejected: untimed.
        #expect(trace.fixes.isEmpty)
        #expect(trace.diagnostics.untimed.count == 1)
    }

    @Test("void RMC and GGA quality 0 are skipped as no-fix, once per epoch")
    func voidEpochs() throws {
        let lines = [
            nmea("GPRMC,095255.810,V,2712.6404,S,15303.1201,E,0.00,0.00,080407,,,A"),
            nmea("GPGGA,095257.809,2712.6404,S,15303.1201,E,0,00,00.0,4.0,M,42.2,M,,"),
            nmea("GPRMC,095257.809,V,2712.6404,S,15303.1201,E,0.00,0.00,080407,,,A"),
            nmea("GPRMC,095258.000,A,2712.6520,S,15303.1397,E,0.00,133.96,080407,,,N"),
            nmea("GPRMC,095259.000,A,2712.6520,S,15303.1397,E,0.00,133.96,080407,,,A"),
        ]
        let trace = try importText(lines.joined(separator: "\n"))
        #expect(trace.diagnostics.skipped[.noFix]?.count == 3)
        #expect(trace.diagnostics.skipped[.noFix]?.firstLines == [1, 2, 4])
        #expect(trace.fixes.count == 1)
    }

    @Test("gpsd comment lines are accepted")
    func gpsdComments() throws {
        let trace = try importText("# Name: test\n#\n" + Self.rmc + "\n")
        #expect(trace.fixes.count == 1)
        #expect(trace.provenance.format == .nmea)
    }

    @Test("GnssLogger-wrapped NMEA is unwrapped; the phone's receive time is not the fix time")
    func gnssLoggerWrapping() throws {
        let text = "NMEA,\(Self.rmc),1699400577561\nNMEA,\(Self.gga),1699400577566\n"
        let trace = try importText(text)
        #expect(trace.provenance.format == .gnssLoggerNMEA)
        #expect(trace.fixes.count == 1)
        #expect(ISO8601.format(try #require(trace.fixes.first).timestamp) == "1994-03-23T12:35:19.000Z")
    }

    @Test("the date rolls over when the time of day wraps past midnight")
    func midnightRollover() throws {
        let lines = [
            nmea("GPRMC,235959,A,4807.038,N,01131.000,E,0,,311299,,,A"),
            nmea("GPGGA,000000,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
        ]
        let trace = try importText(lines.joined(separator: "\n"))
        #expect(trace.fixes.map { ISO8601.format($0.timestamp) } == ["1999-12-31T23:59:59.000Z", "2000-01-01T00:00:00.000Z"])
    }

    @Test("epochs before the first date take it, or the day before when they precede midnight")
    func backfilledDates() throws {
        let lines = [
            nmea("GPGGA,235958,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            nmea("GPGGA,235959,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            nmea("GPRMC,000001,A,4807.038,N,01131.000,E,0,,010100,,,A"),
        ]
        let trace = try importText(lines.joined(separator: "\n"))
        #expect(
            trace.fixes.map { ISO8601.format($0.timestamp) } == [
                "1999-12-31T23:59:58.000Z", "1999-12-31T23:59:59.000Z", "2000-01-01T00:00:01.000Z",
            ])
    }

    @Test("a GGA-only log is untimed without --date, and dated with it")
    func startDateOption() throws {
        let lines = [Self.gga, nmea("GPGGA,123520.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")]
        let untimed = try importText(lines.joined(separator: "\n"))
        #expect(untimed.fixes.isEmpty)
        #expect(untimed.diagnostics.untimed.count == 2)
        let dated = try importText(lines.joined(separator: "\n"), options: ImportOptions(nmeaStartDate: CalendarDate("2024-02-29")))
        #expect(dated.fixes.map { ISO8601.format($0.timestamp) } == ["2024-02-29T12:35:19.000Z", "2024-02-29T12:35:20.000Z"])
    }

    @Test("--date rolls over midnight and never overrides a date the log gives itself")
    func startDateScope() throws {
        let undated = [
            nmea("GPGGA,235959,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            nmea("GPGGA,000000,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
        ].joined(separator: "\n")
        let options = ImportOptions(nmeaStartDate: CalendarDate("2024-02-28"))
        #expect(
            try importText(undated, options: options).fixes.map { ISO8601.format($0.timestamp) } == [
                "2024-02-28T23:59:59.000Z", "2024-02-29T00:00:00.000Z",
            ])
        let selfDated = [Self.gga, Self.rmc].joined(separator: "\n")
        #expect(
            try importText(selfDated, options: options).fixes.map { ISO8601.format($0.timestamp) } == [
                "1994-03-23T12:35:19.000Z"
            ])
    }

    @Test("the same time of day on two different dates is two epochs, not one with the later date")
    func sameTimeOtherDate() throws {
        let text = [
            nmea("GPRMC,120000.00,A,4807.038,N,01131.000,E,0.0,0.0,311279,,,A"),
            nmea("GPGGA,120000.00,4807.0381,N,01131.0001,E,1,08,0.9,545.4,M,46.9,M,,"),
            nmea("GPRMC,120000.00,A,4808.038,N,01131.000,E,0.0,0.0,010180,,,A"),
        ].joined(separator: "\n")
        let trace = try importText(text, name: "dates.nmea")
        #expect(trace.fixes.map { ISO8601.format($0.timestamp) } == ["1980-01-01T12:00:00.000Z", "2079-12-31T12:00:00.000Z"])
        // The GGA joined the 2079 epoch it followed, so that fix has its altitude.
        #expect(trace.fixes.map(\.altitudeMeters) == [nil, 545.4])
        #expect(trace.diagnostics.outOfOrder.count == 1)
    }

    @Test("an epoch seen again later merges into the first one and is counted")
    func repeatedEpoch() throws {
        let trace = try importText(
            [Self.rmc, nmea("GPRMC,123520,A,4807.038,N,01131.000,E,0,,230394,,,A"), Self.rmc]
                .joined(separator: "\n"))
        #expect(trace.fixes.count == 2)
        #expect(trace.diagnostics.merged.count == 1)
        #expect(trace.diagnostics.outOfOrder.count == 1)
    }

    @Test("a speed beyond Float's range is an error, never an infinite speed (found by fuzzing)")
    func speedBeyondFloat() throws {
        let knots = String(repeating: "4", count: 40) + ".0"
        let text = nmea("GPRMC,123519.00,A,4807.038,N,01131.000,E,\(knots),1.7,230394,,,A")
        let error = try #require(formatError(text, name: "fast.nmea"))
        #expect(error.problem == .nonFiniteNumber(field: "speed"))
        #expect(error.line == 1)
    }

    @Test("GST sigmas too large to square still give a finite accuracy")
    func hugeGSTSigmas() throws {
        let sigma = "3" + String(repeating: "0", count: 200)
        let lines = [
            Self.rmc, nmea("GPGGA,123519.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            nmea("GPGST,123519.00,1.0,,,,\(sigma),\(sigma),1.0"),
        ]
        let fix = try #require(try importText(lines.joined(separator: "\n")).fixes.first)
        let meters = try #require(fix.horizontalAccuracyMeters(uere: .standard)?.meters)
        #expect(meters.isFinite)
        #expect(abs(meters / (3e200 * 2.0.squareRoot()) - 1) < 1e-12)
    }

    @Test("GST without sigmas leaves HDOP in place; HDOP 0 means none")
    func emptyGST() throws {
        let lines = [
            Self.rmc, nmea("GPGGA,123519.00,4807.038,N,01131.000,E,1,08,0.0,545.4,M,46.9,M,,"),
            nmea("GPGST,123519.00,,,,,,,"),
        ]
        let fix = try #require(try importText(lines.joined(separator: "\n")).fixes.first)
        #expect(fix.horizontalAccuracy == nil)
    }

    @Test("a checksum-valid sentence with an impossible latitude is an error at its column")
    func impossibleLatitude() throws {
        let line = nmea("GPRMC,123519,A,9107.038,N,01131.000,E,022.4,084.4,230394,003.1,W")
        let error = try #require(formatError("# header\n" + line))
        #expect(error.line == 2)
        #expect(error.column == 17)
        #expect(error.problem == .latitudeOutOfRange)
        #expect(error.description == "bad.txt:2:17: latitude is outside -90...90 degrees")
    }

    @Test("minutes of 60 or more are an error, not a wrapped degree")
    func minutesOutOfRange() throws {
        let error = try #require(formatError(nmea("GPRMC,123519,A,4860.000,N,01131.000,E,0,,230394,,,A")))
        #expect(error.problem == .valueOutOfRange(field: "latitude minutes", value: 60, range: "0..<60"))
    }
}
