import SimulationCore
import TestSupport
import Testing
import Traces

/// GPX output keeps a trace's tracks and segments as `<trk>` and `<trkseg>`, with the names
/// and kinds the source gave, so a GPX round trip loses neither fixes nor boundaries.
@Suite("GPX export of tracks and segments")
struct GPXSegmentExportTests {
    private static func roundTrip(_ trace: Trace) throws -> Trace {
        try TraceImporter.read(Array(TraceExporter.export(trace, as: .gpx).utf8), name: "back.gpx")
    }

    @Test("bike.tcx's two laps come back as two segments of one track, kind and all")
    func bikeLaps() throws {
        let original = try TraceImporter.load(path: Repository.trace("gpsbabel/bike.tcx"))
        let back = try Self.roundTrip(original)
        #expect(back.fixes == original.fixes)
        #expect(back.fixSegments == original.fixSegments)
        #expect(back.segments.map(\.label) == ["1.1", "1.2"])
        #expect(back.segments.map(\.fixCount) == [901, 911])
        #expect(back.segments.map(\.kind) == original.segments.map(\.kind))
    }

    @Test("overlapping tracks come back with every fix in its own track")
    func overlappingTracks() throws {
        let original = try TraceImporter.read(Array(TrackFiles.overlapping.utf8), name: "r.gpx")
        let back = try Self.roundTrip(original)
        #expect(back.fixes == original.fixes)
        #expect(back.fixSegments == original.fixSegments)
        #expect(back.segments.map(\.label) == ["1.1", "2.1"])
    }

    @Test("a track name with XML's special characters is escaped and reads back")
    func escapedName() throws {
        let gpx = """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1">
            <trk><name>Tom &amp; "Jerry" &lt;3</name><trkseg>
            <trkpt lat="48.0" lon="11.0"><time>2024-05-01T10:00:00Z</time></trkpt>
            </trkseg></trk>
            <trk><name>B</name><trkseg>
            <trkpt lat="48.1" lon="11.0"><time>2024-05-01T11:00:00Z</time></trkpt>
            </trkseg></trk>
            </gpx>

            """
        let original = try TraceImporter.read(Array(gpx.utf8), name: "n.gpx")
        #expect(original.segments.map(\.name) == [#"Tom & "Jerry" <3"#, "B"])
        #expect(try Self.roundTrip(original).segments.map(\.name) == original.segments.map(\.name))
    }

    @Test("a single-segment trace is written as one unnamed track, as before segments were kept")
    func singleSegment() throws {
        let original = try TraceImporter.load(path: Repository.trace("gpsd/skytraq-dgps.log"))
        let text = TraceExporter.export(original, as: .gpx)
        #expect(text.contains("tracesim:gpx:1\">\n<trk><trkseg>\n<trkpt "))
        #expect(text.hasSuffix("</trkpt>\n</trkseg></trk>\n</gpx>\n"))
    }

    @Test("empty segments between real ones keep the file's numbering and are not listed")
    func emptySegments() throws {
        let point = #"<trkpt lat="48" lon="11"><time>2024-05-01T10:00:0%dZ</time></trkpt>"#
        let gpx =
            #"<?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk>"#
            + String(repeating: "<trkseg/>", count: 1000) + "<trkseg>" + String(format: point, 1) + "</trkseg>"
            + String(repeating: "<trkseg></trkseg>", count: 3) + "<trkseg>" + String(format: point, 2)
            + "</trkseg></trk></gpx>\n"
        let trace = try TraceImporter.read(Array(gpx.utf8), name: "e.gpx")
        #expect(trace.segments.map(\.label) == ["1.1001", "1.1005"])
        #expect(trace.fixSegments == [0, 1])
    }

    @Test("an ampersand with a combining accent is still escaped, so the output parses")
    func combiningMark() throws {
        let gpx = """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1">
            <trk><name>a&amp;&#x301;b &lt;&#x338;x</name><trkseg>
            <trkpt lat="48.0" lon="11.0"><time>2024-05-01T10:00:00Z</time></trkpt></trkseg></trk>
            <trk><name>B</name><trkseg>
            <trkpt lat="48.1" lon="11.0"><time>2024-05-01T11:00:00Z</time></trkpt></trkseg></trk>
            </gpx>

            """
        let original = try TraceImporter.read(Array(gpx.utf8), name: "c.gpx")
        #expect(try Self.roundTrip(original).segments.map(\.name) == original.segments.map(\.name))
    }

    @Test("segments interleaved by time in TraceSim CSV come back from GPX as the same tracks")
    func interleavedSegments() throws {
        let csv = """
            time,lat,lon,segment
            2024-05-01T10:00:00Z,48.0,11.0,1.1
            2024-05-01T10:00:01Z,48.1,11.0,2.1
            2024-05-01T10:00:02Z,48.0,11.1,1.2

            """
        let original = try TraceImporter.read(Array(csv.utf8), name: "i.csv")
        let back = try Self.roundTrip(original)
        #expect(back.fixes == original.fixes)
        #expect(back.segments.map(\.label).sorted() == ["1.1", "1.2", "2.1"])
    }
}
