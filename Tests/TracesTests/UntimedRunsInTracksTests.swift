import SimulationCore
import Testing
import Traces

/// An untimed run inside one track of a multi-track file: the run is taken out (or timed)
/// before the tracks are ordered, and every remaining fix keeps the segment it was read in.
@Suite("Untimed runs in files of several tracks")
struct UntimedRunsInTracksTests {
    /// Three tracks: five timed points, twelve points at the INT32_MIN epoch spread over
    /// 1.1 km, five timed points. The second track's run is the only untimed one.
    static let gpx: String = {
        func point(_ latitude: Double, _ time: String) -> String {
            "<trkpt lat=\"\(latitude)\" lon=\"11.5\"><time>\(time)</time></trkpt>\n"
        }
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">

            """
        text += "<trk><trkseg>\n"
        for second in 0..<5 { text += point(48.0 + Double(second) * 0.0001, "2024-05-01T10:00:0\(second)Z") }
        text += "</trkseg></trk>\n<trk><trkseg>\n"
        for index in 0..<12 { text += point(48.01 + Double(index) * 0.001, "1901-12-13T20:45:52Z") }
        text += "</trkseg></trk>\n<trk><trkseg>\n"
        for second in 0..<5 { text += point(48.1 + Double(second) * 0.0001, "2024-05-01T11:00:0\(second)Z") }
        return text + "</trkseg></trk>\n</gpx>\n"
    }()

    static func load(_ order: TrackOrder, rate: Double? = nil) throws -> Trace {
        var options = ImportOptions()
        options.trackOrder = order
        options.assumedRate = rate
        return try TraceImporter.read(Array(gpx.utf8), name: "tracks.gpx", options: options)
    }

    @Test(
        "without a rate the run's track has no fix left and is not listed; the others keep theirs",
        arguments: [
            TrackOrder.time, .file,
        ])
    func runLeftOut(order: TrackOrder) throws {
        let trace = try Self.load(order)
        #expect(trace.fixes.count == 10)
        #expect(trace.diagnostics.untimedRuns.records == 12)
        // Like an empty <trkseg>, a segment left without fixes is not listed.
        #expect(trace.segments.map(\.track) == [1, 3])
        #expect(trace.segments.map(\.fixCount) == [5, 5])
        #expect(trace.fixSegments == [0, 0, 0, 0, 0, 1, 1, 1, 1, 1])
    }

    @Test(
        "at 1 Hz the run is timed after the first track and stays in its own segment",
        arguments: [
            TrackOrder.time, .file,
        ])
    func runTimed(order: TrackOrder) throws {
        let trace = try Self.load(order, rate: 1)
        #expect(trace.fixes.count == 22)
        #expect(trace.diagnostics.untimedRuns.timed == 12)
        #expect(trace.segments.map(\.fixCount) == [5, 12, 5])
        #expect(
            trace.fixSegments == [UInt32](repeating: 0, count: 5) + [UInt32](repeating: 1, count: 12)
                + [UInt32](repeating: 2, count: 5))
        // One period after 10:00:04, the last time read before the run.
        #expect(trace.fixes[5].timestamp == trace.fixes[4].timestamp.advanced(bySeconds: 1))
    }

    @Test("split by track, the timed run is a trace of its own")
    func eachTrack() throws {
        let pieces = try Self.load(.each, rate: 1).splitByTrack()
        #expect(pieces.map(\.trace.fixes.count) == [5, 12, 5])
    }

    @Test("with an untimed run in the file, tracks kept apart still count no reordering between them")
    func reorderingPerTrack() throws {
        // The third track is given the first track's times 10:00:00–04: out of order across tracks only.
        let overlapping = Self.gpx.replacingOccurrences(of: "T11:00:0", with: "T10:00:0")
        var options = ImportOptions()
        options.trackOrder = .file
        let apart = try TraceImporter.read(Array(overlapping.utf8), name: "o.gpx", options: options)
        #expect(apart.diagnostics.untimedRuns.records == 12)
        #expect(apart.diagnostics.outOfOrder.count == 0)
        let byTime = try TraceImporter.read(Array(overlapping.utf8), name: "o.gpx")
        #expect(byTime.diagnostics.outOfOrder.count == 4)  // 10:00:00–03, before 10:00:04
    }
}
