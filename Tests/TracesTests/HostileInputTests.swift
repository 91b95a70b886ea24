import Foundation
import Testing
import Traces

/// Every importer against the inputs that break parsers: empty, truncated, garbage, the
/// wrong format, NUL bytes, a 10 MB line, out-of-range and non-finite values, negative
/// accuracy. Each must end in a `TraceFormatError` (or a counted skip where the format
/// defines one), never a crash and never an invented value.
@Suite("Hostile and malformed input, every importer")
struct HostileInputTests {
    /// A small valid file of one format, with `{LAT}`, `{LON}` and `{ACC}` placeholders.
    struct Sample: CustomTestStringConvertible, Sendable {
        var format: TraceFormat
        var template: String
        var latitude = "37.5"
        var longitude = "-122.25"
        var accuracy = "4.5"
        /// How this format spells an out-of-range latitude and a NaN.
        var badLatitude = "91.5"
        var nanLatitude = "NaN"
        /// `nil` when the format has no accuracy field.
        var negativeAccuracy: String? = "-5"

        var testDescription: String { format.rawValue }

        func render(latitude: String? = nil, longitude: String? = nil, accuracy: String? = nil) -> String {
            let text = template.replacingOccurrences(of: "{LAT}", with: latitude ?? self.latitude)
                .replacingOccurrences(of: "{LON}", with: longitude ?? self.longitude)
                .replacingOccurrences(of: "{ACC}", with: accuracy ?? self.accuracy)
            return text.split(separator: "\n", omittingEmptySubsequences: false).map(withChecksum).joined(separator: "\n")
        }

        /// Writes a correct checksum over a sentence's `??` placeholder, so bad values reach
        /// the field checks instead of failing the checksum.
        private func withChecksum(_ line: Substring) -> String {
            guard let dollar = line.firstIndex(of: "$"), let star = line.range(of: "*??") else { return String(line) }
            let body = line[line.index(after: dollar)..<star.lowerBound]
            return String(line[..<dollar]) + nmea(String(body)) + String(line[star.upperBound...])
        }

        var valid: String { render() }
    }

    static let gpxBody = """
        <trk><trkseg><trkpt lat="{LAT}" lon="{LON}"><time>2020-01-01T00:00:00Z</time><hdop>{ACC}</hdop></trkpt>
        <trkpt lat="{LAT}" lon="{LON}"><time>2020-01-01T00:00:01Z</time></trkpt></trkseg></trk></gpx>
        """

    static let samples: [Sample] = [
        Sample(
            format: .gpx11,
            template: """
                <?xml version="1.0" encoding="UTF-8"?>
                <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1">
                """ + gpxBody),
        Sample(
            format: .gpx10,
            template: """
                <?xml version="1.0"?>
                <gpx version="1.0" creator="t" xmlns="http://www.topografix.com/GPX/1/0">
                """ + gpxBody),
        Sample(
            format: .nmea,
            template: [
                "# gpsd", "$GPRMC,000000,A,{LAT},N,12215.000,W,0,,010120,,,A*??",
                "$GPGGA,000000,{LAT},N,12215.000,W,1,08,{ACC},5.0,M,0,M,,*??",
            ].joined(separator: "\n"), latitude: "3730.000", accuracy: "0.9", badLatitude: "9130.000", nanLatitude: "nan"),
        Sample(
            format: .gnssLoggerNMEA,
            template: [
                "NMEA,$GPRMC,000000,A,{LAT},N,12215.000,W,0,,010120,,,A*??,1577836800000",
                "NMEA,$GPGGA,000000,{LAT},N,12215.000,W,1,08,{ACC},5.0,M,0,M,,*??,1577836800001",
            ].joined(separator: "\n"), latitude: "3730.000", accuracy: "0.9", badLatitude: "9130.000", nanLatitude: "nan"),
        Sample(
            format: .gnssLogger,
            template: """
                # Version: 1.4.0.0, Platform: N
                # Fix,Provider,Latitude,Longitude,Altitude,Speed,Accuracy,(UTC)TimeInMs
                Fix,gps,{LAT},{LON},-19.8,0.0,{ACC},1471902355999
                Fix,gps,{LAT},{LON},-19.8,0.0,{ACC},1471902356999
                """),
        Sample(
            format: .clLocationJSON,
            template: """
                [{"latitude":{LAT},"longitude":{LON},"horizontalAccuracy":{ACC},"timestamp":1497475499.025679},
                 {"latitude":{LAT},"longitude":{LON},"horizontalAccuracy":{ACC},"timestamp":1497475500.04006}]
                """, negativeAccuracy: nil),
        Sample(
            format: .googleTakeout,
            template: """
                {"timelineObjects":[{"activitySegment":{"duration":{"startTimestamp":"2013-06-01T16:06:54.349Z"},
                "simplifiedRawPath":{"points":[{"latE7":{LAT},"lngE7":{LON},"accuracyMeters":{ACC},
                "timestamp":"2013-06-01T16:13:41.460Z"}]}}}]}
                """, latitude: "374268570", longitude: "-1221441574", accuracy: "20", badLatitude: "910000000"),
        Sample(
            format: .tcx,
            template: """
                <?xml version="1.0"?>
                <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
                <Activities><Activity Sport="Biking"><Lap><Track><Trackpoint><Time>2013-04-30T19:23:57.000Z</Time>
                <Position><LatitudeDegrees>{LAT}</LatitudeDegrees><LongitudeDegrees>{LON}</LongitudeDegrees></Position>
                </Trackpoint></Track></Lap></Activity></Activities></TrainingCenterDatabase>
                """, negativeAccuracy: nil),
        Sample(
            format: .kml,
            template: """
                <?xml version="1.0"?>
                <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>
                <Placemark><gx:Track><when>2014-05-25T18:30:59Z</when><gx:coord>{LON} {LAT} 252</gx:coord></gx:Track>
                </Placemark></Document></kml>
                """, negativeAccuracy: nil),
        Sample(
            format: .columbusCSV,
            template: """
                INDEX,TAG,DATE,TIME,LATITUDE N/S,LONGITUDE E/W,HEIGHT,SPEED,HEADING,FIX MODE,VALID,PDOP,HDOP,VDOP\r
                1,T,250724,173418,{LAT}N,125.7648551W,38,0.2,0,3D,SPS,1.9,{ACC},1.2\r
                2,T,250724,173419,{LAT}N,125.7648551W,38,0.2,0,3D,SPS,1.9,{ACC},1.2\r
                """, latitude: "49.0733336", accuracy: "1.5", nanLatitude: "nan"),
        Sample(
            format: .seventyMai,
            template: """
                $V02
                1740170756,A,{LAT},{LON},32500,777,-65,5,44,NO20250222-064554-000000F.MP4,0,0,0
                1740170757,A,{LAT},{LON},32600,888,-81,3,62,NO20250222-064554-000000F.MP4,0,0,0
                """, nanLatitude: "nan", negativeAccuracy: nil),
        Sample(
            format: .canonicalCSV,
            template: """
                time,lat,lon,h_acc_m,provider
                2020-01-01T00:00:00Z,{LAT},{LON},{ACC},gps
                2020-01-01T00:00:01Z,{LAT},{LON},{ACC},gps
                """),
        Sample(
            format: .jsonLines,
            template: """
                {"time":"2020-01-01T00:00:00Z","lat":{LAT},"lon":{LON},"h_acc_m":{ACC}}
                {"time":"2020-01-01T00:00:01Z","lat":{LAT},"lon":{LON},"h_acc_m":{ACC}}
                """),
    ]

    @Test("every importer samples TraceSim formats cover", arguments: [TraceFormat.allCases])
    func everyFormatHasASample(formats: [TraceFormat]) {
        #expect(Set(Self.samples.map(\.format)) == Set(formats))
    }

    @Test("the valid sample imports and is detected", arguments: samples)
    func validSample(_ sample: Sample) throws {
        let trace = try importText(sample.valid, name: "sample")
        #expect(trace.provenance.format == sample.format)
        #expect(!trace.fixes.isEmpty)
    }

    @Test("an empty file, or only whitespace, is an error", arguments: samples)
    func empty(_ sample: Sample) throws {
        #expect(formatError("", format: sample.format)?.problem == .emptyFile)
        #expect(formatError(" \n\r\n\t", format: sample.format)?.problem == .emptyFile)
    }

    @Test(
        "a file cut in the middle is an error with a line, or a counted skip where NMEA defines one",
        arguments: samples)
    func truncated(_ sample: Sample) throws {
        let text = sample.valid
        let cut = String(text.utf8.prefix(text.utf8.count * 6 / 10)) ?? ""
        if sample.format == .nmea || sample.format == .gnssLoggerNMEA {
            let trace = try TraceImporter.read(Array(cut.utf8), name: "cut", options: ImportOptions(format: sample.format))
            let skipped = trace.diagnostics.skipped.values.map(\.count).reduce(0, +)
            #expect(skipped + trace.diagnostics.untimed.count >= 1)
            return
        }
        let error = try #require(formatError(cut, format: sample.format))
        #expect(error.line != nil || error.problem == .unexpectedContent("no <gpx> root element"))
    }

    @Test(
        "timestamps outside 1677...2262 are errors with a line, not a crash or a wrapped time",
        arguments: ["9999", "0001", "2263", "1677"])
    func farTimestamps(year: String) throws {
        let csv = "time,lat,lon\n2020-01-01T00:00:00Z,37.1,-122.1\n\(year)-01-01T00:00:00Z,37.2,-122.1\n"
        #expect(formatError(csv, format: .canonicalCSV, strict: true)?.line == 3, "CSV")
        let jsonl = #"{"time":"\#(year)-01-01T00:00:00Z","lat":37.1,"lon":-122.1}"# + "\n"
        #expect(formatError(jsonl, format: .jsonLines, strict: true)?.line == 1, "JSON Lines")
        let gpx = """
            <?xml version="1.0"?>
            <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
            <trkpt lat="37.1" lon="-122.1"><time>\(year)-01-01T00:00:00Z</time></trkpt>
            </trkseg></trk></gpx>
            """
        #expect(formatError(gpx, format: .gpx11) != nil, "GPX")
    }

    @Test("binary garbage is refused, not parsed into fixes", arguments: samples)
    func garbage(_ sample: Sample) throws {
        var generator = SplitMix(seed: 42)
        let bytes = (0..<4096).map { _ in UInt8(truncatingIfNeeded: generator.next() % 255 + 1) }
        #expect(formatError(bytes, format: sample.format) != nil)
        #expect(formatError(bytes)?.problem == .unrecognizedFormat)
    }

    @Test("another format's content is refused when this format is insisted on", arguments: samples)
    func wrongFormat(_ sample: Sample) throws {
        let others = Self.samples.filter { $0.format != sample.format && !Self.compatible(sample.format, $0.format) }
        for other in others {
            #expect(formatError(other.valid, format: sample.format) != nil, "\(other.format.rawValue) as \(sample.format.rawValue)")
        }
    }

    /// Pairs where one format legitimately reads the other's sample.
    static func compatible(_ lhs: TraceFormat, _ rhs: TraceFormat) -> Bool {
        let groups: [Set<TraceFormat>] = [[.gpx10, .gpx11], [.nmea, .gnssLoggerNMEA], [.gnssLogger, .gnssLoggerNMEA]]
        return groups.contains { $0.contains(lhs) && $0.contains(rhs) }
    }

    @Test("a NUL byte is an error naming its line and column", arguments: samples)
    func nulByte(_ sample: Sample) throws {
        var bytes = Array(sample.valid.utf8)
        let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? 0
        bytes.insert(0, at: newline + 3)
        let error = try #require(formatError(bytes, format: sample.format))
        #expect(error.problem == .nulByte)
        #expect(error.line == 2)
        #expect(error.column == 3)
    }

    @Test("a 10 MB line of junk fails fast with a short message", arguments: samples)
    func hugeLine(_ sample: Sample) throws {
        let junk = [UInt8](repeating: UInt8(ascii: "A"), count: 10 * 1024 * 1024)
        let error = try #require(formatError(junk, format: sample.format))
        #expect(error.description.count < 300)
    }

    @Test("a valid 10 MB single-line CLLocation array is read in full")
    func hugeValidLine() throws {
        let record =
            #"{"latitude":37.801929819902256,"longitude":-122.45956801250402,"altitude":23.702549187157306,"#
            + #""horizontalAccuracy":5,"verticalAccuracy":6,"speed":22.899999618530273,"course":67.85979461669922,"timestamp":"#
        var text = "["
        let count = 60_000
        for index in 0..<count {
            if index > 0 { text += "," }
            text += record + "\(1_497_475_499 + index)}"
        }
        text += "]"
        #expect(text.utf8.count > 10_000_000)
        let trace = try importText(text)
        #expect(trace.fixes.count == count)
        #expect(trace.diagnostics.outOfOrder.count == 0)
    }

    @Test("latitude outside ±90 is an error", arguments: samples)
    func latitudeOutOfRange(_ sample: Sample) throws {
        let error = try #require(
            formatError(sample.render(latitude: sample.badLatitude), format: sample.format, strict: true))
        #expect(error.problem == .latitudeOutOfRange)
        #expect(error.line != nil)
    }

    @Test("NaN and infinite numbers are errors, never absent values", arguments: samples)
    func nonFinite(_ sample: Sample) throws {
        for spelling in [sample.nanLatitude, "Infinity", "inf", "-Inf"] {
            let error = try #require(
                formatError(sample.render(latitude: spelling), format: sample.format, strict: true), "\(spelling)")
            switch error.problem {
            case .nonFiniteNumber, .invalidNumber, .latitudeOutOfRange, .invalidXML: break
            case .emptyFile, .unrecognizedFormat, .nulByte, .lineTooLong, .longitudeOutOfRange, .negativeValue,
                .valueOutOfRange, .invalidTimestamp, .missingField, .wrongFieldCount, .unknownColumn, .duplicateColumn,
                .missingColumn, .unknownToken, .invalidJSON, .nestingTooDeep, .entityDeclaration, .unexpectedContent,
                .truncated, .compressedStream:
                Issue.record("\(spelling): unexpected \(error.problem)")
            }
        }
    }

    @Test("a negative accuracy is an error", arguments: samples.filter { $0.negativeAccuracy != nil })
    func negativeAccuracy(_ sample: Sample) throws {
        let error = try #require(
            formatError(sample.render(accuracy: sample.negativeAccuracy), format: sample.format, strict: true))
        guard case .negativeValue = error.problem else {
            Issue.record("unexpected \(error.problem)")
            return
        }
    }

    @Test("a negative CLLocation horizontalAccuracy is Core Location's 'invalid fix': skipped and counted")
    func clLocationInvalidFix() throws {
        let sample = try #require(Self.samples.first { $0.format == .clLocationJSON })
        let trace = try importText(sample.render(accuracy: "-1"))
        #expect(trace.fixes.isEmpty)
        #expect(trace.diagnostics.skipped[.noFix]?.count == 2)
    }
}

/// A seeded generator for test data, so a failing case reproduces.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Format detection")
struct FormatDetectionTests {
    @Test("content decides; an unrecognisable file with a known extension gets that format's error")
    func extensionFallback() throws {
        let junk = "this is not a trace\n"
        #expect(formatError(junk, name: "notes.txt")?.problem == .unrecognizedFormat)
        let gpxError = try #require(formatError(junk, name: "ride.gpx"))
        guard case .invalidXML = gpxError.problem else {
            Issue.record("expected a GPX error, got \(gpxError.problem)")
            return
        }
        // A GPX file named .nmea is still read as GPX.
        let gpx = #"<gpx version="1.1"><trk><trkseg><trkpt lat="1" lon="2"><time>2020-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>"#
        #expect(try importText(gpx, name: "misnamed.nmea").provenance.format == .gpx11)
    }
}
