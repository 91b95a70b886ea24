import SimulationCore
import Testing
import Traces

/// XML trace elements are matched on namespace and local name: another vocabulary's
/// element of the same name is never read as a fix or a fix's field.
@Suite("XML namespaces")
struct NamespaceTests {
    static let gpx11 = #"<gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1""#
    static let point = #"<trkpt lat="1" lon="2"><time>2020-01-01T00:00:00Z</time></trkpt>"#

    private func gpx(_ body: String, head: String = gpx11, declarations: String = "") throws -> Trace {
        try importText(head + declarations + "><trk><trkseg>" + body + "</trkseg></trk></gpx>", name: "t.gpx")
    }

    @Test("a trkpt of another namespace is not a fix, even with no position")
    func foreignTrackPoint() throws {
        let trace = try gpx(
            Self.point + #"<x:trkpt xmlns:x="urn:not-gpx"><time>2020-01-01T00:00:09Z</time></x:trkpt>"#)
        #expect(trace.fixes.count == 1)
        #expect(trace.fixes[0].latitude == 1)
    }

    @Test("nothing inside <extensions> becomes a fix, in any namespace")
    func trackPointInsideExtensions() throws {
        let trace = try gpx(
            #"<trkpt lat="1" lon="2"><time>2020-01-01T00:00:00Z</time><extensions>"#
                + #"<y:trkpt xmlns:y="urn:y" lat="5" lon="5"><y:time>2020-01-01T00:00:05Z</y:time></y:trkpt>"#
                + #"<trkpt lat="6" lon="6"><time>2020-01-01T00:00:06Z</time></trkpt>"#
                + "<time>2021-01-01T00:00:00Z</time></extensions></trkpt>")
        #expect(trace.fixes.count == 1)
        #expect(trace.fixes[0].timestamp == ISO8601.parse("2020-01-01T00:00:00Z"))
    }

    @Test("a GPX file that declares no namespace at all is still read")
    func noNamespace() throws {
        let trace = try gpx(
            #"<trkpt lat="1" lon="2"><time>2020-01-01T00:00:00Z</time><speed>3</speed></trkpt>"#,
            head: #"<gpx version="1.1" creator="t""#)
        #expect(trace.fixes.count == 1)
        #expect(trace.fixes[0].speedMetersPerSecond == 3)
    }

    @Test("a <gpx> root in another namespace is refused, not read as GPX")
    func foreignRoot() throws {
        let text = #"<gpx version="1.1" xmlns="urn:not-gpx"><trk><trkseg>"# + Self.point + "</trkseg></trk></gpx>"
        let error = try #require(formatError(text, name: "t.gpx", format: .gpx11))
        #expect(error.problem == .unexpectedContent("<gpx> is not in the GPX 1.0 or 1.1 namespace"))
        #expect(error.line == 1)
    }

    @Test("extensions are read from their own namespaces, OsmAnd's https spellings included")
    func knownExtensions() throws {
        let osmand =
            #"<gpx version="1.1" creator="OsmAnd" xmlns="https://www.topografix.com/GPX/1/1""#
        let declarations =
            #" xmlns:gpxtpx="https://www8.garmin.com/xmlschemas/TrackPointExtension/v2""#
            + #" xmlns:osmand="https://osmand.net" xmlns:ts="urn:tracesim:gpx:1" xmlns:z="urn:z""#
        let trace = try gpx(
            #"<trkpt lat="1" lon="2"><time>2020-01-01T00:00:00Z</time><extensions>"#
                + "<gpxtpx:TrackPointExtension><gpxtpx:speed>4.5</gpxtpx:speed><gpxtpx:course>90</gpxtpx:course>"
                + "</gpxtpx:TrackPointExtension><ts:hacc>3</ts:hacc></extensions></trkpt>"
                + #"<trkpt lat="1" lon="2"><time>2020-01-01T00:00:01Z</time><extensions>"#
                + "<osmand:speed>2</osmand:speed><z:hacc>99</z:hacc><z:course>180</z:course></extensions></trkpt>",
            head: osmand, declarations: declarations)
        #expect(trace.fixes.count == 2)
        #expect(trace.fixes[0].speedMetersPerSecond == 4.5)
        #expect(trace.fixes[0].courseDegrees == 90)
        #expect(trace.fixes[0].horizontalAccuracy == .meters(3))
        #expect(trace.fixes[1].speedMetersPerSecond == 2)
        #expect(trace.fixes[1].horizontalAccuracy == nil)
        #expect(trace.fixes[1].courseDegrees == nil)
    }

    @Test("waypoints and route points are counted as skipped, with their lines")
    func waypointsCounted() throws {
        let trace = try importText(
            Self.gpx11 + ">\n" + #"<wpt lat="1" lon="2"><time>2020-01-01T00:00:00Z</time></wpt>"# + "\n"
                + #"<wpt lat="1" lon="2"/><rte><rtept lat="1" lon="2"/></rte></gpx>"#, name: "w.gpx")
        #expect(trace.fixes.isEmpty)
        #expect(trace.diagnostics.skipped[.waypoint]?.count == 2)
        #expect(trace.diagnostics.skipped[.waypoint]?.firstLines == [2, 3])
        #expect(trace.diagnostics.skipped[.routePoint]?.count == 1)
    }

    @Test("TCX: a Trackpoint of another namespace is not a fix; Speed only from ActivityExtension")
    func tcx() throws {
        let text = """
            <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"
              xmlns:ae="http://www.garmin.com/xmlschemas/ActivityExtension/v2" xmlns:x="urn:x">
            <Activities><Activity><Lap><Track>
            <Trackpoint><Time>2013-04-30T19:23:58Z</Time><Position><LatitudeDegrees>40.78</LatitudeDegrees>
            <LongitudeDegrees>-73.96</LongitudeDegrees></Position><Extensions><ae:TPX><ae:Speed>2.5</ae:Speed></ae:TPX>
            <x:Trackpoint><Time>2013-04-30T19:24:00Z</Time></x:Trackpoint></Extensions></Trackpoint>
            <Trackpoint><Time>2013-04-30T19:23:59Z</Time><Position><LatitudeDegrees>40.79</LatitudeDegrees>
            <LongitudeDegrees>-73.97</LongitudeDegrees></Position><Extensions><x:TPX><x:Speed>9</x:Speed></x:TPX>
            </Extensions></Trackpoint>
            <x:Trackpoint><Time>2013-04-30T19:25:00Z</Time><Position><LatitudeDegrees>1</LatitudeDegrees>
            <LongitudeDegrees>1</LongitudeDegrees></Position></x:Trackpoint>
            </Track></Lap></Activity></Activities></TrainingCenterDatabase>
            """
        let trace = try importText(text, name: "t.tcx")
        #expect(trace.fixes.count == 2)
        #expect(trace.fixes.map(\.speedMetersPerSecond) == [2.5, nil])
    }

    @Test("KML: coords of another namespace, and anything in ExtendedData, are not read")
    func kml() throws {
        let text = """
            <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2" xmlns:x="urn:x">
            <Document><Placemark><gx:Track><when>2014-05-25T18:30:59Z</when><gx:coord>-122.1 37.4</gx:coord>
            <x:coord>0 0</x:coord><x:when>2014-05-25T18:31:00Z</x:when>
            <ExtendedData><gx:coord>1 1</gx:coord><when>2014-05-25T18:32:00Z</when></ExtendedData>
            </gx:Track></Placemark></Document></kml>
            """
        let trace = try importText(text, name: "t.kml")
        #expect(trace.fixes.map(\.longitude) == [-122.1])
    }
}
