import SimulationCore
import Testing
import Traces

/// Times TraceSim makes up (`--assume-rate`, the `--tracks file` shift) may never replace a
/// measured fix or saturate at the clock's end: either they fit or the import is refused.
@Suite("Made-up times never displace measured ones")
struct InventedTimeTests {
    /// Ten fixes 10:00:00–09, `runLength` records at the Unix epoch a kilometre apart, then
    /// fixes from 10:00:10 on.
    static func midRun(runLength: Int) -> String {
        var rows = "time,lat,lon\n"
        for second in 0..<10 { rows += "2024-05-01T10:00:0\(second)Z,48.0,11.0\n" }
        for index in 0..<runLength { rows += "1970-01-01T00:00:00Z,\(48.01 + Double(index) * 0.01),11.0\n" }
        for second in 10..<30 { rows += "2024-05-01T10:00:\(second)Z,48.0,11.1\n" }
        return rows
    }

    static func read(_ text: String, name: String, _ configure: (inout ImportOptions) -> Void) throws -> Trace {
        var options = ImportOptions()
        configure(&options)
        return try TraceImporter.read(Array(text.utf8), name: name, options: options)
    }

    @Test("a run timed onto a measured fix's epoch is refused at the record that lands there")
    func runOverrunsMeasuredFix() {
        #expect {
            try Self.read(Self.midRun(runLength: 15), name: "mid.csv") { $0.assumedRate = 1 }
        } throws: { error in
            (error as? TraceFormatError)?.description == "mid.csv:12: untimed run at 1 Hz lands on line 27's time"
        }
    }

    @Test("at 20 Hz the run fits between 10:00:09 and 10:00:10, and no measured fix is merged away")
    func runFits() throws {
        let trace = try Self.read(Self.midRun(runLength: 15), name: "mid.csv") { $0.assumedRate = 20 }
        #expect(trace.fixes.count == 45)
        #expect(trace.diagnostics.merged.count == 0)
    }

    @Test("--tracks file refuses a shift past the clock's end instead of saturating it")
    func shiftPastTheClock() {
        let gpx = """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1">
            <trk><trkseg><trkpt lat="48" lon="11"><time>2262-04-11T23:47:15Z</time></trkpt></trkseg></trk>
            <trk><trkseg>
            <trkpt lat="48" lon="11"><time>2024-01-01T00:00:00Z</time></trkpt>
            <trkpt lat="48" lon="11.1"><time>2024-01-01T00:00:01Z</time></trkpt>
            </trkseg></trk>
            </gpx>

            """
        #expect {
            try Self.read(gpx, name: "end.gpx") { $0.trackOrder = .file }
        } throws: { error in
            (error as? TraceFormatError)?.description == "end.gpx:5: --tracks file would move this track past 2262"
        }
        // By time, nothing is moved and the file reads.
        #expect((try? Self.read(gpx, name: "end.gpx") { _ in })?.fixes.count == 3)
    }

    @Test("a file of untimed-run records and one bad row still reads: the run is something valid")
    func untimedRunWithBadRow() throws {
        var rows = "time,lat,lon\n"
        for index in 0..<20 { rows += "1901-12-13T20:45:52Z,\(48 + Double(index) * 0.01),11\n" }
        rows += "2024-05-01T10:00:00Z,91,11\n"
        let trace = try Self.read(rows, name: "sentinel.csv") { _ in }
        #expect(trace.diagnostics.untimedRuns.records == 20)
        #expect(trace.diagnostics.skipped[.outOfRange]?.count == 1)
    }

    /// `provider` rows: a CSV with the provider column.
    static func rows(_ rows: [(time: String, latitude: Double, provider: String)]) -> String {
        "time,lat,lon,provider\n" + rows.map { "\($0.time),\($0.latitude),11,\($0.provider)\n" }.joined()
    }

    static func run(_ provider: String = "gps") -> [(time: String, latitude: Double, provider: String)] {
        (0..<10).map { ("1970-01-01T00:00:00Z", 48 + Double($0) * 0.01, provider) }
    }

    static func at(_ time: String, _ provider: String = "gps") -> [(time: String, latitude: Double, provider: String)] {
        [("2024-05-01T" + time + "Z", 49.9, provider)]
    }

    @Test("collisions are judged per epoch over the whole file: out of order, other providers")
    func collisionsPerEpoch() throws {
        // Timed 00:00:21–30 after the latest time read (00:00:20): touches no measured epoch.
        let outOfOrder = Self.rows(Self.at("00:00:10") + Self.at("00:00:20") + Self.run() + Self.at("00:00:15"))
        #expect(try Self.read(outOfOrder, name: "o.csv") { $0.assumedRate = 1 }.fixes.count == 13)
        // A network fix at the time a gps record lands on displaces nothing.
        let otherProvider = Self.rows(Self.at("00:00:00") + Self.run() + Self.at("00:00:05", "network"))
        #expect(try Self.read(otherProvider, name: "p.csv") { $0.assumedRate = 1 }.fixes.count == 12)
        // A measured gps fix later in the file at a time the run lands on is protected.
        let later = Self.rows(Self.at("00:00:00") + Self.run() + Self.at("00:01:00") + Self.at("00:00:03"))
        #expect {
            try Self.read(later, name: "l.csv") { $0.assumedRate = 1 }
        } throws: { error in
            (error as? TraceFormatError)?.description == "l.csv:5: untimed run at 1 Hz lands on line 14's time"
        }
    }

    @Test("a one-point track shifted after a track ending at the clock's last second is refused")
    func shiftTargetPastTheClock() {
        let gpx = """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1">
            <trk><trkseg><trkpt lat="48" lon="11"><time>2262-04-11T23:47:16Z</time></trkpt></trkseg></trk>
            <trk><trkseg><trkpt lat="48" lon="11.1"><time>2262-04-11T23:47:15Z</time></trkpt></trkseg></trk>
            </gpx>

            """
        #expect(throws: TraceFormatError.self) { try Self.read(gpx, name: "late.gpx") { $0.trackOrder = .file } }
    }
}
