import Foundation
import SimulationCore
import Testing
import Traces

@Suite("GPX, TCX and KML import")
struct XMLImporterTests {
    @Test("GPX 1.1: Garmin extensions, dilutions, measured accuracy, src, and what is not a fix")
    func gpx11() throws {
        let trace = try TraceImporter.load(path: FixtureFiles.fixture("garmin-1.1.gpx"))
        #expect(trace.provenance.format == .gpx11)
        #expect(trace.fixes.count == 2)
        #expect(trace.diagnostics.skipped[.noFix]?.count == 1)
        #expect(trace.diagnostics.untimed.count == 1)
        let first = try #require(trace.fixes.first)
        #expect(ISO8601.format(first.timestamp) == "2021-05-01T08:00:00.000Z")
        #expect(first.latitude == 52.0907)
        #expect(first.altitudeMeters == 4.2)
        #expect(first.provider == .gps)
        #expect(first.horizontalAccuracy == .dilution(0.8))
        #expect(first.verticalAccuracy == .dilution(Double(Float(1.3))))
        #expect(first.horizontalAccuracyMeters()?.isEstimated == true)
        #expect(first.speedMetersPerSecond == 5.25)
        #expect(first.courseDegrees == 87.5)
        let second = trace.fixes[1]
        #expect(second.horizontalAccuracy == .meters(3.5))
        #expect(second.verticalAccuracy == .meters(6))
        #expect(second.speedMetersPerSecond == nil)
        #expect(second.provider == .unknown)
    }

    @Test("GPX 1.0: core speed and course, character references in names")
    func gpx10() throws {
        let trace = try TraceImporter.load(path: FixtureFiles.fixture("logger-1.0.gpx"))
        #expect(trace.provenance.format == .gpx10)
        #expect(trace.fixes.count == 2)
        #expect(trace.fixes[0].speedMetersPerSecond == 3.1)
        #expect(trace.fixes[0].courseDegrees == 270)
        #expect(trace.fixes[1].horizontalAccuracy == .dilution(1.0))
        #expect(trace.fixes[0].longitude == 151.2093)
    }

    static let gpxHead = #"<gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1">"#
    static let gpxPoint = #"<trk><trkseg><trkpt lat="1" lon="2"><time>2020-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>"#

    @Test("a harmless DOCTYPE is accepted and nothing is fetched for it")
    func harmlessDoctype() throws {
        let text = #"<?xml version="1.0"?><!DOCTYPE gpx SYSTEM "http://example.invalid/gpx.dtd">"# + Self.gpxHead + Self.gpxPoint
        #expect(try importText(text).fixes.count == 1)
    }

    @Test("an external entity is refused before it is resolved")
    func externalEntity() throws {
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE gpx [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
            \(Self.gpxHead)<metadata><desc>&secret;</desc></metadata>\(Self.gpxPoint)
            """
        let error = try #require(formatError(text, name: "xxe.gpx"))
        #expect(error.problem == .entityDeclaration("the entity declaration 'secret'"))
        #expect(error.line == 2)
        #expect(error.description.hasPrefix("xxe.gpx:2: refused the entity declaration 'secret'"))
    }

    @Test("a billion-laughs entity bomb is refused at its first declaration")
    func billionLaughs() throws {
        var declarations = #"<!ENTITY lol "lol">"#
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            declarations += "<!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">"
        }
        let text =
            "<?xml version=\"1.0\"?>\n<!DOCTYPE gpx [\(declarations)]>\n\(Self.gpxHead)<metadata><desc>&lol9;</desc></metadata>\(Self.gpxPoint)"
        let error = try #require(formatError(text))
        #expect(error.problem == .entityDeclaration("the entity declaration 'lol'"))
    }

    @Test("a parameter entity is refused")
    func parameterEntity() throws {
        let text =
            #"<?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY % remote SYSTEM "http://example.invalid/x.dtd"> %remote;]>"#
            + Self.gpxHead + Self.gpxPoint
        let error = try #require(formatError(text))
        guard case .entityDeclaration = error.problem else {
            Issue.record("unexpected \(error.problem)")
            return
        }
    }

    @Test("a reference to an undeclared entity is refused, not dropped from the text")
    func undeclaredEntity() throws {
        let text =
            #"<?xml version="1.0"?><!DOCTYPE gpx SYSTEM "gpx.dtd">"# + Self.gpxHead
            + #"<trk><trkseg><trkpt lat="1" lon="2"><ele>1&unknown;2</ele><time>2020-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>"#
        #expect(formatError(text) != nil)
    }

    @Test("a trkpt without lat is an error naming the line")
    func missingLatitude() throws {
        let text = Self.gpxHead + "\n<trk><trkseg>\n<trkpt lon=\"2\"><time>2020-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>"
        let error = try #require(formatError(text))
        #expect(error.problem == .missingField("lat"))
        #expect(error.line == 3)
    }

    @Test("an unknown GPX version is refused")
    func unknownVersion() throws {
        let text = #"<gpx version="2.0" creator="t">"# + Self.gpxPoint
        #expect(formatError(text)?.problem == .unknownToken(field: "GPX version", token: "2.0"))
    }

    @Test("TCX trackpoints without a position are skipped and counted")
    func tcxWithoutPosition() throws {
        let text = """
            <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"><Activities>
            <Activity><Lap><Track>
            <Trackpoint><Time>2013-04-30T19:23:57Z</Time><HeartRateBpm><Value>90</Value></HeartRateBpm></Trackpoint>
            <Trackpoint><Time>2013-04-30T19:23:58Z</Time><Position><LatitudeDegrees>40.78</LatitudeDegrees>
            <LongitudeDegrees>-73.96</LongitudeDegrees></Position><Extensions><TPX><Speed>2.5</Speed></TPX></Extensions>
            </Trackpoint></Track></Lap></Activity></Activities></TrainingCenterDatabase>
            """
        let trace = try importText(text)
        #expect(trace.fixes.count == 1)
        #expect(trace.fixes[0].speedMetersPerSecond == 2.5)
        #expect(trace.diagnostics.skipped[.noPosition]?.firstLines == [3])
    }

    @Test("KML tracks pair the n-th when with the n-th coord; unequal counts are an error")
    func kmlPairing() throws {
        let head =
            #"<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document><Placemark><gx:Track>"#
        let good =
            head + "<when>2014-05-25T18:30:59Z</when><when>2014-05-25T18:31:09Z</when>"
            + "<gx:coord>-122.1 37.4 252</gx:coord><gx:coord>-122.2 37.5</gx:coord></gx:Track></Placemark></Document></kml>"
        let trace = try importText(good)
        #expect(trace.fixes.map(\.longitude) == [-122.1, -122.2])
        #expect(trace.fixes.map(\.altitudeMeters) == [252, nil])
        let bad =
            head + "<when>2014-05-25T18:30:59Z</when><gx:coord>-122.1 37.4 252</gx:coord>"
            + "<gx:coord>-122.2 37.5</gx:coord></gx:Track></Placemark></Document></kml>"
        #expect(formatError(bad)?.problem == .unexpectedContent("gx:Track has 1 <when> but 2 <gx:coord> elements"))
    }
}
