import Testing
import Traces

/// Line-based formats skip a well-framed record with an impossible field and count it;
/// `ImportOptions.strict` makes it a whole-file error, as it always was.
@Suite("Lenient records")
struct LenientRecordTests {
    /// One format's generated file: ten good records around one impossible one.
    struct Case: CustomStringConvertible, Sendable {
        let format: TraceFormat
        let header: [String]
        let good: @Sendable (Int) -> String
        let bad: String
        /// Where in `bad` the impossible value starts, for the expected column.
        let badValue: String
        let reason: SkipReason
        let problem: TraceFormatError.Problem

        var description: String { format.rawValue }
        /// Five good records, the bad one, five more: the bad one is on this line.
        var badLine: Int { header.count + 6 }
        var badColumn: Int { byteColumn(of: badValue, in: bad) }

        var text: String {
            (header + (0..<5).map(good) + [bad] + (5..<10).map(good)).joined(separator: "\n") + "\n"
        }
    }

    static func seconds(_ index: Int) -> String { index < 10 ? "0\(index)" : "\(index)" }

    static let cases: [Case] = [
        Case(
            format: .nmea, header: ["# gpsd log"],
            good: { nmea("GPRMC,1200\(seconds($0)),A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W,A") },
            bad: nmea("GPRMC,120059,A,4860.0000,N,01131.000,E,022.4,084.4,230394,003.1,W,A"), badValue: "4860.0000",
            reason: .outOfRange,
            problem: .valueOutOfRange(field: "latitude minutes", value: 60, range: "0..<60")),
        Case(
            format: .gnssLogger, header: ["# Fix,Provider,Latitude,Longitude,Altitude,Speed,Accuracy,(UTC)TimeInMs"],
            good: { "Fix,GPS,37.1,-122.1,10.0,1.5,5.0,\(1_577_836_800_000 + $0 * 1000)" },
            bad: "Fix,GPS,91.5,-122.1,10.0,1.5,5.0,1577836859000", badValue: "91.5",
            reason: .outOfRange, problem: .latitudeOutOfRange),
        Case(
            format: .columbusCSV, header: ["INDEX,TAG,DATE,TIME,LATITUDE N/S,LONGITUDE E/W,HEIGHT,SPEED,HEADING"],
            good: { "\($0 + 1),T,200101,1200\(seconds($0)),37.1000N,122.1000W,10,5,90" },
            bad: "99,T,200101,120059,37.1000N,122.1000W,10,-5,90", badValue: "-5",
            reason: .outOfRange, problem: .negativeValue(field: "SPEED", value: -5)),
        Case(
            format: .seventyMai, header: ["$V02"],
            good: { "\(1_577_836_800 + $0),A,37.100000,-122.100000,9000,500,0,0,0,v.mp4,0,0,0" },
            bad: "1577836859,A,37.100000,-122.100000,36100,500,0,0,0,v.mp4,0,0,0", badValue: "36100",
            reason: .outOfRange, problem: .valueOutOfRange(field: "course", value: 361, range: "0...360 degrees")),
        Case(
            format: .canonicalCSV, header: ["time,lat,lon,speed_mps"],
            good: { "2020-01-01T00:00:\(seconds($0))Z,37.1,-122.1,3" },
            bad: "2020-01-01T00:00:59Z,37.1,west,3", badValue: "west",
            reason: .malformedField, problem: .invalidNumber(field: "lon")),
        Case(
            format: .jsonLines, header: [],
            good: { #"{"time":"2020-01-01T00:00:\#(seconds($0))Z","lat":37.1,"lon":-122.1}"# },
            bad: #"{"time":"2020-01-01T00:00:59Z","lat":200,"lon":-122.1}"#, badValue: "200",
            reason: .outOfRange, problem: .latitudeOutOfRange),
    ]

    @Test("one impossible record among ten good ones is skipped and counted, with its line and problem", arguments: cases)
    func skipped(_ sample: Case) throws {
        let trace = try importText(sample.text, name: "bad.txt", options: ImportOptions(format: sample.format))
        #expect(trace.fixes.count == 10)
        #expect(trace.diagnostics.skipped.count == 1)
        let tally = try #require(trace.diagnostics.skipped[sample.reason])
        #expect(tally.count == 1)
        #expect(tally.firstLines == [sample.badLine])
        let problem = try #require(trace.diagnostics.firstProblems[sample.reason])
        #expect(problem == TraceFormatError(file: "bad.txt", line: sample.badLine, column: sample.badColumn, problem: sample.problem))
    }

    @Test("with strict, the same record fails the file at its line and column", arguments: cases)
    func strict(_ sample: Case) throws {
        let error = try #require(formatError(sample.text, format: sample.format, strict: true))
        #expect(error == TraceFormatError(file: "bad.txt", line: sample.badLine, column: sample.badColumn, problem: sample.problem))
    }

    @Test("a file whose only records are impossible fails at the first of them", arguments: cases)
    func nothingValid(_ sample: Case) throws {
        let text = (sample.header + [sample.bad, sample.bad]).joined(separator: "\n") + "\n"
        let error = try #require(formatError(text, format: sample.format))
        let line = sample.header.count + 1
        #expect(error == TraceFormatError(file: "bad.txt", line: line, column: sample.badColumn, problem: sample.problem))
    }

    @Test("NMEA minutes rounded up to 60.0000, in latitude or longitude, skip only their sentence")
    func nmeaSixtyMinutes() throws {
        let lines = [
            nmea("GPRMC,120000,A,4807.0380,N,01131.0000,E,0.0,,230394,,,A"),
            nmea("GPRMC,120001,A,4759.9999,N,01131.0000,E,0.0,,230394,,,A"),
            nmea("GPRMC,120002,A,4760.0000,N,01131.0000,E,0.0,,230394,,,A"),
            nmea("GPRMC,120003,A,4800.0000,N,01160.0000,E,0.0,,230394,,,A"),
            nmea("GPRMC,120004,A,4800.0000,N,01200.0000,E,0.0,,230394,,,A"),
        ]
        let trace = try importText(lines.joined(separator: "\r\n"), name: "rounded.nmea")
        #expect(trace.fixes.count == 3)
        #expect(trace.fixes.map(\.timestamp.nanosecondsSinceEpoch).map { $0 / 1_000_000_000 % 60 } == [0, 1, 4])
        #expect(trace.diagnostics.skipped[.outOfRange]?.count == 2)
        #expect(trace.diagnostics.skipped[.outOfRange]?.firstLines == [3, 4])
        let first = try #require(trace.diagnostics.firstProblems[.outOfRange])
        #expect(first.description == "rounded.nmea:3:17: latitude minutes 60.0 is outside 0..<60")
    }

    @Test("a skipped NMEA sentence takes nothing into its epoch; the epoch's good sentences still make the fix")
    func nmeaEpochKeepsGoodSentences() throws {
        var lines: [String] = []
        for second in 0..<3 {
            let time = "12000\(second)"
            lines.append(nmea("GPGGA,\(time),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"))
            // The middle epoch's RMC has a course of 400°: its speed, read before the course,
            // must not reach the fix either.
            let course = second == 1 ? "400.0" : "84.4"
            lines.append(nmea("GPRMC,\(time),A,4807.038,N,01131.000,E,022.4,\(course),230394,003.1,W,A"))
        }
        let trace = try importText(lines.joined(separator: "\n"), name: "epochs.nmea")
        #expect(trace.fixes.count == 3)
        #expect(trace.fixes.map { $0.speedMetersPerSecond != nil } == [true, false, true])
        #expect(trace.fixes.map { $0.courseDegrees != nil } == [true, false, true])
        #expect(trace.fixes[1].altitudeMeters == 545.4)
        #expect(trace.diagnostics.skipped[.outOfRange]?.firstLines == [4])
    }

    @Test("an impossible NMEA time of day is an unreadable field; its sentence opens no epoch")
    func nmeaBadTime() throws {
        let lines = [
            nmea("GPRMC,120000,A,4807.038,N,01131.000,E,0.0,,230394,,,A"),
            nmea("GPRMC,250000,A,4807.038,N,01131.000,E,0.0,,230394,,,A"),
            nmea("GPRMC,120001,A,4807.038,N,01131.000,E,0.0,,320394,,,A"),
            nmea("GPRMC,120002,A,4807.038,N,01131.000,E,0.0,,230394,,,A"),
        ]
        let trace = try importText(lines.joined(separator: "\n"), name: "time.nmea")
        #expect(trace.fixes.count == 2)
        #expect(trace.diagnostics.skipped[.malformedField]?.firstLines == [2, 3])
        #expect(trace.diagnostics.firstProblems[.malformedField]?.description == "time.nmea:2:8: time of day is not a valid timestamp")
    }

    @Test("a log of undated epochs with one impossible sentence still loads, counting both")
    func undatedLogStillLoads() throws {
        let lines = [
            nmea("GPGGA,120000,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            nmea("GPGGA,120001,9107.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
        ]
        let trace = try importText(lines.joined(separator: "\n"), name: "undated.nmea")
        #expect(trace.fixes.isEmpty)
        #expect(trace.diagnostics.untimed.count == 1)
        #expect(trace.diagnostics.skipped[.outOfRange]?.firstLines == [2])
    }

    @Test("framing problems stay errors: a CSV row with a bad cell and a cell too many, broken JSON, an unknown key")
    func framingStaysAnError() throws {
        let csv = "time,lat,lon\n2020-01-01T00:00:00Z,37.1,-122.1\n2020-01-01T00:00:01Z,95,-122.1,7\n"
        #expect(formatError(csv, format: .canonicalCSV)?.description == "bad.txt:3: expected 3 fields, found 4")
        let good = #"{"time":"2020-01-01T00:00:00Z","lat":37.1,"lon":-122.1}"#
        let truncated = good + "\n" + #"{"time":"2020-01-01T00:00:01Z","lat":95,"lon":"#
        #expect(formatError(truncated, format: .jsonLines)?.problem == .truncated("JSON ends before a value"))
        let misspelt = good + "\n" + #"{"time":"2020-01-01T00:00:01Z","lat":95,"lon":1,"speed_kmh":3}"#
        #expect(formatError(misspelt, format: .jsonLines)?.problem == .unknownColumn("speed_kmh"))
        let contradiction = good + "\n" + #"{"time":"2020-01-01T00:00:01Z","lat":1,"lon":1,"h_acc_m":3,"hdop":1}"#
        #expect(formatError(contradiction, format: .jsonLines)?.line == 2)
        let notNMEA = nmea("GPRMC,120000,A,4807.038,N,01131.000,E,0.0,,230394,,,A") + "\nhello\n"
        #expect(formatError(notNMEA, format: .nmea)?.line == 2)
    }

    @Test("errors that leave a lenient import name the same line and column as a strict one")
    func escapingErrorsAreLocated() throws {
        let cases: [(String, TraceFormat, String)] = [
            (
                "[{\"lat\":3,\"lng\":9,\"timestamp\":\"2017-09-29T14:59:51Z\"},\n"
                    + "{\"lat\":\"x\",\"lng\":9,\"timestamp\":\"2017-09-29T14:59:52Z\"}]\n",
                .clLocationJSON, "bad.txt:2:8: latitude is not a number"
            ),
            (
                #"{"time":"2020-01-01T00:00:00Z","lat":37.1,"lon":-122.1}"# + "\n"
                    + #"{"time":"2020-01-01T00:00:01Z","lat":95,"lon":"# + "\n",
                .jsonLines, "bad.txt:2:47: file ends early: JSON ends before a value"
            ),
            (
                "time,lat,lon\n2020-01-01T00:00:00Z,37.1,-122.1\n2020-01-01T00:00:01Z,37.1,-122.1,x\n",
                .canonicalCSV, "bad.txt:3: expected 3 fields, found 4"
            ),
        ]
        for (text, format, expected) in cases {
            #expect(formatError(text, format: format)?.description == expected, "\(format)")
        }
        let strict = try #require(formatError(cases[0].0, format: .clLocationJSON, strict: true))
        #expect(strict.description == cases[0].2)
    }

    @Test("JSON Lines: a motion line with an unknown activity is skipped like a bad fix")
    func motionLine() throws {
        let lines = [
            #"{"time":"2020-01-01T00:00:00Z","lat":37.1,"lon":-122.1}"#,
            #"{"time":"2020-01-01T00:00:01Z","activity":["teleporting"],"confidence":"high","coarse":false}"#,
            #"{"time":"2020-01-01T00:00:02Z","activity":["walking"],"confidence":"high","coarse":false}"#,
        ]
        let trace = try importText(lines.joined(separator: "\n"), name: "motion.jsonl")
        #expect(trace.fixes.count == 1)
        #expect(trace.motionSamples.count == 1)
        #expect(trace.diagnostics.skipped[.malformedField]?.firstLines == [2])
    }

    @Test("many bad records: every one counted, five lines and the first problem kept, in one pass")
    func manyBadRecords() throws {
        let count = 20_000
        var text = "time,lat,lon\n2020-01-01T00:00:00Z,37.1,-122.1\n"
        text.reserveCapacity(count * 40)
        for _ in 0..<count { text += "2020-01-01T00:00:01Z,37.1,-999\n" }
        let trace = try importText(text, name: "many.csv")
        #expect(trace.fixes.count == 1)
        let tally = try #require(trace.diagnostics.skipped[.outOfRange])
        #expect(tally.count == count)
        #expect(tally.firstLines == [3, 4, 5, 6, 7])
        #expect(trace.diagnostics.firstProblems[.outOfRange]?.description == "many.csv:3:27: longitude is outside -180...180 degrees")
    }
}

/// The 1-based byte column where `needle` first starts in `line`.
private func byteColumn(of needle: String, in line: String) -> Int {
    let bytes = Array(line.utf8)
    let target = Array(needle.utf8)
    for start in 0...(bytes.count - target.count) where Array(bytes[start..<start + target.count]) == target {
        return start + 1
    }
    return 0
}
