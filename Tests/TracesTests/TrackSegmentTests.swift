import Foundation
import SimulationCore
import TestSupport
import Testing
import Traces

/// Test files with tracks and segments, written here so every count is known.
enum TrackFiles {
    /// One GPX track point per second from `start` (seconds after 2024-05-01T08:00:00Z),
    /// heading north from `latitude` in steps of about 11 m; `halfSecond` puts every point
    /// half a second later.
    static func points(
        start: Int, count: Int, latitude: Double, longitude: Double = 13, halfSecond: Bool = false
    ) -> String {
        (0..<count).map { index in
            let seconds = start + index
            let time = String(
                format: "2024-05-01T%02d:%02d:%02d%@Z", 8 + seconds / 3600, seconds / 60 % 60, seconds % 60,
                halfSecond ? ".5" : "")
            return "<trkpt lat=\"\(latitude + Double(index) * 0.0001)\" lon=\"\(longitude)\"><time>\(time)</time></trkpt>"
        }.joined(separator: "\n")
    }

    static func gpx(_ tracks: [String]) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
        \(tracks.joined(separator: "\n"))
        </gpx>

        """
    }

    /// Two tracks of two segments each, one after the other in time: 5+5 and 4+4 points.
    static let twoByTwo = gpx([
        """
        <trk><name>Morning</name><type>running</type><link href="x"><text>t</text><type>text/html</type></link>
        <trkseg>
        \(points(start: 0, count: 5, latitude: 52.0))
        </trkseg>
        <trkseg>
        \(points(start: 10, count: 5, latitude: 52.01))
        </trkseg></trk>
        """,
        """
        <trk><name>Evening</name>
        <trkseg>
        \(points(start: 100, count: 4, latitude: 52.02))
        </trkseg>
        <trkseg>
        \(points(start: 110, count: 4, latitude: 52.03))
        </trkseg></trk>
        """,
    ])

    /// Two tracks of 300 points each, the second starting 100.5 s into the first and 1 km east:
    /// merged by time they zig-zag between the two.
    static let overlapping = gpx([
        "<trk><trkseg>\n\(points(start: 0, count: 300, latitude: 52.0))\n</trkseg></trk>",
        "<trk><trkseg>\n\(points(start: 100, count: 300, latitude: 52.009, longitude: 13.015, halfSecond: true))\n</trkseg></trk>",
    ])
}

/// Import options with a track order and nothing else.
func ordered(_ order: TrackOrder) -> ImportOptions {
    var options = ImportOptions()
    options.trackOrder = order
    return options
}

/// The length of the path through the fixes, in metres (haversine).
func pathMeters(_ fixes: [Fix]) -> Double {
    zip(fixes, fixes.dropFirst()).reduce(0) { total, pair in
        let (a, b) = pair
        let radians = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * radians
        let dLon = (b.longitude - a.longitude) * radians
        let h =
            sin(dLat / 2) * sin(dLat / 2)
            + cos(a.latitude * radians) * cos(b.latitude * radians) * sin(dLon / 2) * sin(dLon / 2)
        return total + 2 * 6_371_000 * asin(min(1, h.squareRoot()))
    }
}

@Suite("Tracks and segments")
struct TrackSegmentTests {
    func instant(_ text: String) throws -> SimInstant { try #require(ISO8601.parse(text)) }

    @Test("GPX: two tracks of two segments give four segments with names, kinds, lines and counts")
    func gpxTwoByTwo() throws {
        let trace = try importText(TrackFiles.twoByTwo, name: "two.gpx")
        #expect(trace.fixes.count == 18)
        #expect(trace.segments.map(\.label) == ["1.1", "1.2", "2.1", "2.2"])
        #expect(trace.segments.map(\.fixCount) == [5, 5, 4, 4])
        #expect(trace.segments.map(\.name) == ["Morning", "Morning", "Evening", "Evening"])
        // The <link>'s MIME <type> is not the track's kind.
        #expect(trace.segments.map(\.kind) == ["running", "running", nil, nil])
        #expect(trace.segments.map(\.line) == [4, 11, 19, 25])
        #expect(trace.segments[1].firstTime == (try instant("2024-05-01T08:00:10Z")))
        #expect(trace.segments[1].lastTime == (try instant("2024-05-01T08:00:14Z")))
        #expect(
            trace.fixSegments == [UInt32](repeating: 0, count: 5) + Array(repeating: 1, count: 5)
                + Array(repeating: 2, count: 4) + Array(repeating: 3, count: 4))
        #expect(trace.trackOverlaps().isEmpty)
        #expect(trace.trackNumbers == [1, 2])
    }

    @Test("a single track and segment keeps one segment and no per-fix array; NMEA has none")
    func singleSegment() throws {
        let trace = try importText(
            TrackFiles.gpx(["<trk><trkseg>\(TrackFiles.points(start: 0, count: 3, latitude: 1))</trkseg></trk>"]), name: "one.gpx")
        #expect(trace.segments.count == 1)
        #expect(trace.segments.first?.fixCount == 3)
        #expect(trace.fixSegments.isEmpty)
        #expect(MemoryLayout<Fix>.stride == 64)
        let nmea = try TraceImporter.load(path: Repository.trace("gpsd/skytraq-dgps.log"))
        #expect(nmea.segments.isEmpty && nmea.fixSegments.isEmpty)
    }

    @Test("overlapping tracks: time merges and zig-zags, file keeps every fix shifted, each splits")
    func overlapModes() throws {
        let byTime = try importText(TrackFiles.overlapping, name: "route.gpx")
        let byFile = try importText(TrackFiles.overlapping, name: "route.gpx", options: ordered(.file))
        let each = try importText(TrackFiles.overlapping, name: "route.gpx", options: ordered(.each))
        #expect(byTime.fixes.count == 600)
        #expect(byTime.diagnostics.outOfOrder.count == 199)
        #expect(byFile.fixes.count == 600)
        #expect(byFile.diagnostics.outOfOrder.count == 0)
        #expect(byFile.diagnostics.merged.count == 0)
        let overlaps = byTime.trackOverlaps()
        #expect(overlaps.count == 1)
        #expect(overlaps.first.map { ($0.track, $0.otherTrack, $0.seconds) } ?? (0, 0, 0) == (1, 2, 198.5))
        #expect(byFile.trackOverlaps() == overlaps)
        // File order: track 2 (from 08:01:40.5) moved to 1 s after track 1's last fix (08:04:59).
        #expect(byFile.segments.map(\.shiftNanoseconds) == [0, 199_500_000_000])
        #expect(zip(byFile.fixes, byFile.fixes.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
        #expect(byFile.fixes[300].timestamp == (try instant("2024-05-01T08:05:00Z")))
        let fileMeters = pathMeters(byFile.fixes)
        let timeMeters = pathMeters(byTime.fixes)
        // 2 × 299 steps of 11.1 m and one 2.5 km hop back to track 2's start, against about
        // 400 hops of 1 km between the tracks.
        #expect(fileMeters > 9_100 && fileMeters < 9_300)
        #expect(timeMeters > 400_000)
        // Each: the tracks apart, at the times the file gives them.
        let pieces = each.splitByTrack()
        #expect(pieces.map(\.track) == [1, 2])
        #expect(pieces.map(\.trace.fixes.count) == [300, 300])
        #expect(pieces[1].trace.fixes.first?.timestamp == (try instant("2024-05-01T08:01:40.5Z")))
        #expect(pieces[1].trace.segments.map(\.shiftNanoseconds) == [0])
    }

    @Test("under file order, duplicates of an epoch merge within a track only")
    func mergeWithinTrack() throws {
        let doubled = TrackFiles.points(start: 0, count: 3, latitude: 1)
        let text = TrackFiles.gpx([
            "<trk><trkseg>\(doubled)\n\(doubled)</trkseg></trk>", "<trk><trkseg>\(doubled)</trkseg></trk>",
        ])
        let byTime = try importText(text, name: "d.gpx")
        let byFile = try importText(text, name: "d.gpx", options: ordered(.file))
        #expect(byTime.fixes.count == 3)
        #expect(byTime.diagnostics.merged.count == 6)
        // Time order merges track 2 away entirely; it is still listed, with no fix.
        #expect(byTime.segments.map(\.fixCount) == [3, 0])
        #expect(byFile.fixes.count == 6)
        #expect(byFile.diagnostics.merged.count == 3)
        #expect(byFile.segments.map(\.fixCount) == [3, 3])
    }

    @Test("TCX: activities are tracks (Sport kept), laps their segments; a course's tracks are its segments")
    func tcxLaps() throws {
        func trackpoints(_ start: Int, _ count: Int) -> String {
            (0..<count).map { index in
                let seconds = start + index
                return """
                    <Trackpoint><Time>2024-05-01T09:\(String(format: "%02d:%02d", seconds / 60, seconds % 60))Z</Time>\
                    <Position><LatitudeDegrees>\(46 + Double(index) * 0.0001)</LatitudeDegrees>\
                    <LongitudeDegrees>7</LongitudeDegrees></Position></Trackpoint>
                    """
            }.joined(separator: "\n")
        }
        let text = """
            <?xml version="1.0"?>
            <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
            <Activities><Activity Sport="Biking"><Id>2024-05-01T09:00:00Z</Id>
            <Lap StartTime="2024-05-01T09:00:00Z"><Track>
            \(trackpoints(0, 3))
            </Track></Lap>
            <Lap StartTime="2024-05-01T09:01:00Z"><Track>
            \(trackpoints(60, 4))
            </Track><Track>
            \(trackpoints(70, 2))
            </Track></Lap>
            <Creator><Name>Edge 530</Name></Creator>
            </Activity>
            <Activity Sport="Running"><Id>2024-05-01T09:30:00Z</Id>
            <Lap StartTime="2024-05-01T09:30:00Z"><Track>
            \(trackpoints(1800, 2))
            </Track></Lap></Activity></Activities>
            <Courses><Course><Name>Loop</Name><Lap><TotalTimeSeconds>1</TotalTimeSeconds></Lap><Track>
            \(trackpoints(2400, 3))
            </Track></Course></Courses>
            </TrainingCenterDatabase>
            """
        let trace = try importText(text, name: "laps.tcx")
        #expect(trace.fixes.count == 14)
        #expect(trace.segments.map(\.label) == ["1.1", "1.2", "2.1", "3.1"])
        #expect(trace.segments.map(\.fixCount) == [3, 6, 2, 3])
        #expect(trace.segments.map(\.kind) == ["Biking", "Biking", "Running", nil])
        #expect(trace.segments.map(\.name) == [nil, nil, nil, "Loop"])
        #expect(trace.segments.map(\.line) == [4, 9, 21, 25])
    }

    @Test("KML: a Placemark's gx:MultiTrack is one track of several segments; Placemarks number tracks")
    func kmlMultiTrack() throws {
        func track(_ start: Int, _ count: Int) -> String {
            let whens = (0..<count).map { "<when>2024-05-01T10:00:\(String(format: "%02d", start + $0))Z</when>" }
            let coords = (0..<count).map { "<gx:coord>8 \(47 + Double($0) * 0.0001) 400</gx:coord>" }
            return "<gx:Track>\n" + (whens + coords).joined(separator: "\n") + "\n</gx:Track>"
        }
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
            <Document><name>Day</name>
            <Placemark><name>Marker</name><Point><coordinates>8,47</coordinates></Point></Placemark>
            <Placemark><name>Walk</name><gx:MultiTrack>
            \(track(0, 3))
            \(track(10, 2))
            </gx:MultiTrack></Placemark>
            <Placemark><name>Ride</name>
            \(track(20, 4))
            </Placemark>
            </Document></kml>
            """
        let trace = try importText(text, name: "day.kml")
        #expect(trace.fixes.count == 9)
        #expect(trace.segments.map(\.label) == ["1.1", "1.2", "2.1"])
        #expect(trace.segments.map(\.name) == ["Walk", "Walk", "Ride"])
        #expect(trace.segments.map(\.fixCount) == [3, 2, 4])
        #expect(trace.segments.map(\.line) == [6, 14, 22])
    }

    /// What a canonical round trip must keep of a segment (lines, names and kinds are not written).
    static func shape(_ trace: Trace) -> [String] {
        trace.segments.map { "\($0.label) \($0.fixCount) \(ISO8601.format($0.firstTime)) \(ISO8601.format($0.lastTime))" }
    }

    static func load(_ name: String) throws -> Trace {
        let options = ImportOptions(nmeaStartDate: name.hasSuffix(".gga") ? CalendarDate("2020-02-07") : nil)
        return try TraceImporter.load(path: Repository.trace(name), options: options)
    }

    @Test(
        "every bundled trace survives CSV and JSON Lines with its fixes and segments",
        arguments: Repository.bundledTraces, [ExportFormat.csv, .jsonLines])
    func bundledRoundTrip(name: String, format: ExportFormat) throws {
        let original = try Self.load(name)
        let back = try TraceImporter.read(Array(TraceExporter.export(original, as: format).utf8), name: "back.\(format.rawValue)")
        #expect(back.fixes == original.fixes)
        #expect(back.fixSegments == original.fixSegments)
        // A single-segment trace writes no segment column, so it comes back with no segments.
        #expect(Self.shape(back) == (original.segments.count > 1 ? Self.shape(original) : []))
    }

    @Test("bike.tcx's two laps come back from CSV and JSON Lines", arguments: [ExportFormat.csv, .jsonLines])
    func bikeLaps(format: ExportFormat) throws {
        let original = try Self.load("gpsbabel/bike.tcx")
        #expect(original.segments.map(\.label) == ["1.1", "1.2"])
        #expect(original.segments.map(\.fixCount) == [901, 911])
        let back = try TraceImporter.read(Array(TraceExporter.export(original, as: format).utf8), name: "b.\(format.rawValue)")
        #expect(Self.shape(back) == Self.shape(original))
    }

    @Test(
        "overlapping tracks round-trip in time order (interleaved labels) and in file order",
        arguments: [TrackOrder.time, .file], [ExportFormat.csv, .jsonLines])
    func overlappingRoundTrip(order: TrackOrder, format: ExportFormat) throws {
        let original = try importText(TrackFiles.overlapping, name: "r.gpx", options: ordered(order))
        let text = TraceExporter.export(original, as: format)
        #expect(text.contains(format == .csv ? ",2.1\n" : #""segment":"2.1"}"#))
        let back = try TraceImporter.read(Array(text.utf8), name: "r.\(format.rawValue)")
        #expect(back.fixes == original.fixes)
        #expect(back.fixSegments == original.fixSegments)
        #expect(back.segments.map(\.fixCount) == original.segments.map(\.fixCount))
        #expect(back.diagnostics.merged.count == 0)
    }

    @Test("a segment label that is not TRACK.SEGMENT, or given on some fixes only, is refused at its line")
    func badLabels() throws {
        let header = "time,lat,lon,segment\n"
        let bad = formatError(header + "2024-05-01T00:00:00Z,1,2,2\n", name: "a.csv")
        #expect(bad?.description == "a.csv:2:26: segment '2' is not TRACK.SEGMENT")
        let number = formatError(#"{"time":"2024-05-01T00:00:00Z","lat":1,"lon":2,"segment":2.1}"# + "\n", name: "n.jsonl")
        #expect(number?.description == #"n.jsonl:1:58: segment must be a string, like "2.1""#)
        let zero = formatError(header + "2024-05-01T00:00:00Z,1,2,0.1\n", name: "a.csv")
        #expect(zero?.line == 2)
        let empty = formatError(header + "2024-05-01T00:00:00Z,1,2,1.1\n2024-05-01T00:00:01Z,1,2,\n", name: "a.csv")
        #expect(
            empty?.description
                == "a.csv:3: segment missing, though earlier fixes have one")
        let mixed = formatError(
            #"{"time":"2024-05-01T00:00:00Z","lat":1,"lon":2}"# + "\n"
                + #"{"time":"2024-05-01T00:00:01Z","lat":1,"lon":2,"segment":"1.1"}"# + "\n", name: "m.jsonl")
        #expect(mixed?.description == "m.jsonl:2: segment given, though earlier fixes have none")
    }
}
