import Foundation
import SimulationCore
import Testing
import Traces

/// Inputs built to hurt a parser: absurd nesting, giant values and lines, bytes that are
/// not UTF-8, mixed line endings and timestamps at the edges of what the formats allow.
/// Each gets a definite answer: an error naming the line, or a documented reading.
@Suite("Hostile text")
struct HostileTextTests {
    static let gpxHead =
        #"<?xml version="1.0"?>"# + "\n"
        + #"<gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1">"#
    static let gpxPoint =
        #"<trk><trkseg><trkpt lat="1" lon="2"><time>2020-01-01T00:00:00Z</time></trkpt></trkseg></trk>"#

    @Test("XML nested 10,000 deep is refused at level 257, not walked")
    func deepXML() throws {
        let nesting = String(repeating: "<a>", count: 10_000) + String(repeating: "</a>", count: 10_000)
        let text = Self.gpxHead + "<extensions>" + nesting + "</extensions>" + Self.gpxPoint + "</gpx>"
        let error = try #require(formatError(text, name: "deep.gpx"))
        #expect(error.problem == .nestingTooDeep(limit: 256))
        #expect(error.line == 2)
        #expect(error.description.hasPrefix("deep.gpx:2: nested deeper than 256 levels"))
    }

    @Test("a 20 MB attribute is refused with libxml2's 10 MB limit named", arguments: ["creator", "lat"])
    func hugeAttribute(_ attribute: String) throws {
        let huge = String(repeating: "1", count: 20 << 20)
        let text =
            attribute == "creator"
            ? Self.gpxHead.replacingOccurrences(of: #"creator="t""#, with: "creator=\"\(huge)\"") + Self.gpxPoint
                + "</gpx>"
            : Self.gpxHead + Self.gpxPoint.replacingOccurrences(of: #"lat="1""#, with: "lat=\"1\(huge)\"") + "</gpx>"
        let error = try #require(formatError(text, name: "huge.gpx"))
        #expect(error.problem == .invalidXML("a single name, attribute or text is longer than libxml2's 10 MB limit"))
        #expect(error.line == 2)
    }

    @Test("a 100 MB NMEA line is refused at the 4096-byte line limit")
    func hugeNMEALine() throws {
        let bytes = Array("$GPRMC,".utf8) + [UInt8](repeating: UInt8(ascii: "1"), count: 100 << 20) + [10]
        let error = try #require(formatError(bytes, name: "long.nmea", format: .nmea))
        #expect(error.problem == .lineTooLong(limitBytes: 4096))
        #expect(error.line == 1)
    }

    @Test("a 100 MB CSV cell is an error at its line and column")
    func hugeCSVCell() throws {
        let bytes =
            Array("time,lat,lon\n2020-01-01T00:00:00Z,1,".utf8) + [UInt8](repeating: UInt8(ascii: "2"), count: 100 << 20)
            + [10]
        let error = try #require(formatError(bytes, name: "long.csv"))
        #expect(error.problem == .nonFiniteNumber(field: "lon"))
        #expect(error.line == 2 && error.column == 24)
    }

    @Test("bytes that are not UTF-8 in a value TraceSim reads are errors naming the line")
    func invalidUTF8() throws {
        let csv = Array("time,lat,lon,provider\n2020-01-01T00:00:00Z,1,2,gps".utf8) + [0xFF, 10]
        let csvError = try #require(formatError(csv, name: "bad.csv"))
        #expect(csvError.line == 2)
        let jsonl = Array(#"{"time":"2020-01-01T00:00:00Z","lat":1,"lon":2,"provider":"gp"#.utf8) + [0xC3, 0x28] + Array("\"}\n".utf8)
        let jsonlError = try #require(formatError(jsonl, name: "bad.jsonl"))
        #expect(jsonlError.line == 1)
        let gpx =
            Array((Self.gpxHead + "<metadata><desc>").utf8) + [0xFF, 0xFE] + Array(("</desc></metadata>" + Self.gpxPoint + "</gpx>").utf8)
        let gpxError = try #require(formatError(gpx, name: "bad.gpx"))
        #expect(gpxError.line == 2)
        // NMEA is ASCII: a checksummed sentence whose latitude holds a stray byte is an error.
        let body = Array("GPRMC,120000.00,A,4807.0".utf8) + [0xFF] + Array("38,N,01131.000,E,0.0,0.0,010120,,,A".utf8)
        let checksum = body.reduce(UInt8(0), ^)
        let sentence = [UInt8(ascii: "$")] + body + Array("*\(String(format: "%02X", checksum))\n".utf8)
        let nmeaError = try #require(formatError(sentence, name: "bad.nmea", format: .nmea))
        #expect(nmeaError.line == 1)
    }

    @Test("LF, CRLF and CR CR LF lines mix freely in one file")
    func mixedLineEndings() throws {
        let sentences = (0..<3).map { nmea("GPRMC,12000\($0).00,A,4807.038,N,01131.000,E,0.0,0.0,010120,,,A") }
        let nmeaTrace = try importText(sentences[0] + "\r\n" + sentences[1] + "\n" + sentences[2] + "\r\r\n", name: "mixed.nmea")
        #expect(nmeaTrace.fixes.count == 3)
        #expect(nmeaTrace.diagnostics.skipped.isEmpty)
        let csv = "time,lat,lon\r\n2020-01-01T00:00:00Z,1,2\n2020-01-01T00:00:01Z,1,2\r\n2020-01-01T00:00:02Z,1,2.5\r\r\n"
        let csvTrace = try importText(csv, name: "mixed.csv")
        #expect(csvTrace.fixes.map(\.longitude) == [2, 2, 2.5])
    }

    @Test("a leap second reads as the next second's start, as POSIX time counts it")
    func leapSecond() throws {
        let trace = try importText(
            "time,lat,lon\n2016-12-31T23:59:59Z,1,2\n2016-12-31T23:59:60Z,1,2\n2017-01-01T00:00:01Z,1,2\n", name: "leap.csv")
        #expect(
            trace.fixes.map { ISO8601.format($0.timestamp) } == [
                "2016-12-31T23:59:59.000Z", "2017-01-01T00:00:00.000Z", "2017-01-01T00:00:01.000Z",
            ])
    }

    @Test("a timestamp without a zone is read as UTC, GPX's own rule, in every format")
    func noZone() throws {
        let csv = try importText("time,lat,lon\n2020-06-01T12:00:00,1,2\n", name: "local.csv")
        let gpx = try importText(
            Self.gpxHead + Self.gpxPoint.replacingOccurrences(of: "00:00:00Z", with: "12:00:00") + "</gpx>",
            name: "local.gpx")
        #expect(ISO8601.format(csv.fixes[0].timestamp) == "2020-06-01T12:00:00.000Z")
        #expect(ISO8601.format(gpx.fixes[0].timestamp) == "2020-01-01T12:00:00.000Z")
    }

    @Test("two-digit years: refused in ISO 8601, pivoted at 80 in NMEA's ddmmyy")
    func twoDigitYears() throws {
        let error = try #require(formatError("time,lat,lon\n20-06-01T12:00:00Z,1,2\n", name: "short.csv"))
        #expect(error.problem == .invalidTimestamp(field: "time"))
        #expect(error.line == 2)
        let late = try importText(nmea("GPRMC,120000.00,A,4807.038,N,01131.000,E,0.0,0.0,311279,,,A") + "\n", name: "a.nmea")
        let early = try importText(nmea("GPRMC,120000.00,A,4807.038,N,01131.000,E,0.0,0.0,010180,,,A") + "\n", name: "b.nmea")
        #expect(ISO8601.format(late.fixes[0].timestamp) == "2079-12-31T12:00:00.000Z")
        #expect(ISO8601.format(early.fixes[0].timestamp) == "1980-01-01T12:00:00.000Z")
    }

    @Test("a vertical accuracy beyond Float's range is an error, never an infinity (found by fuzzing)")
    func verticalAccuracyBeyondFloat() throws {
        let huge = "4" + String(repeating: "6", count: 38)
        let json = #"[{"lat":3,"lng":9,"timestamp":"2017-09-29T14:59:51Z","verticalAccuracy":"# + huge + "}]"
        let jsonError = try #require(formatError(json, name: "vertical.json", format: .clLocationJSON))
        #expect(jsonError.problem == .nonFiniteNumber(field: "verticalAccuracy"))
        #expect(jsonError.line == 1)
        let sentences = [
            nmea("GPRMC,123519.00,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W,A"),
            nmea("GPGST,123519.00,1.0,,,,2.0,2.0,\(huge)"),
        ]
        let nmeaError = try #require(formatError(sentences.joined(separator: "\n"), name: "vertical.nmea", strict: true))
        #expect(nmeaError.problem == .nonFiniteNumber(field: "altitude sigma"))
        #expect(nmeaError.line == 2)
    }
}
