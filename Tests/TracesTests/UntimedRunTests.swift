import SimulationCore
import TestSupport
import Testing
import Traces

/// Runs of one placeholder timestamp that cover ground (the INT32_MIN epoch, 1970-01-01):
/// not merged as duplicates of an epoch, but counted as untimed, and timed on request by
/// `ImportOptions.assumedRate`.
@Suite("Untimed runs")
struct UntimedRunTests {
    static let int32MinEpoch = "1901-12-13T20:45:52Z"
    static let unixEpoch = "1970-01-01T00:00:00Z"
    /// One metre of latitude in degrees, on the sphere the rule measures with.
    static let degreesPerMeter = 180 / Double.pi / 6_371_008.8

    /// A GPX 1.1 track; the first point is on line 4. Points are `(time, latitude)`.
    static func gpx(_ points: [(time: String, latitude: Double)]) -> String {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
            <trk><trkseg>

            """
        for point in points {
            text += "<trkpt lat=\"\(point.latitude)\" lon=\"11.5\"><time>\(point.time)</time></trkpt>\n"
        }
        return text + "</trkseg></trk></gpx>\n"
    }

    /// TraceSim CSV: a header, then one row per point from line 2.
    static func csv(_ points: [(time: String, latitude: Double)]) -> String {
        "time,lat,lon\n" + points.map { "\($0.time),\($0.latitude),11.5\n" }.joined()
    }

    /// TraceSim JSON Lines: one point per line from line 1.
    static func jsonLines(_ points: [(time: String, latitude: Double)], provider: String = "gps") -> String {
        points.map { "{\"time\":\"\($0.time)\",\"lat\":\($0.latitude),\"lon\":11.5,\"provider\":\"\(provider)\"}\n" }
            .joined()
    }

    /// `count` points at one time, 100 m apart northwards: kilometres in all.
    static func spread(_ count: Int, at time: String, from latitude: Double = 48.0) -> [(time: String, latitude: Double)] {
        (0..<count).map { (time, latitude + Double($0) * 100 * degreesPerMeter) }
    }

    /// Ten points at one time: nine on the first, the last `meters` north of it.
    static func tenSpanning(_ meters: Double) -> [(time: String, latitude: Double)] {
        (0..<10).map { (unixEpoch, 48.0 + ($0 == 9 ? meters * degreesPerMeter : 0)) }
    }

    static func seconds(_ fix: Fix) -> Double { fix.timestamp.secondsSinceEpoch }

    static let may1 = CalendarDate("2024-05-01")

    @Test(
        "184 points kilometres apart at one sentinel time are an untimed run, not 1 fix and 183 merges",
        arguments: [("t.gpx", 4), ("t.csv", 2), ("t.jsonl", 1)])
    func sentinelRunIsUntimed(_ name: String, _ firstLine: Int) throws {
        for sentinel in [Self.int32MinEpoch, Self.unixEpoch] {
            let points = Self.spread(184, at: sentinel)
            let text = name.hasSuffix("gpx") ? Self.gpx(points) : name.hasSuffix("csv") ? Self.csv(points) : Self.jsonLines(points)
            let trace = try importText(text, name: name)
            #expect(trace.fixes.isEmpty)
            #expect(trace.diagnostics.merged.count == 0)
            #expect(trace.diagnostics.outOfOrder.count == 0)
            #expect(trace.diagnostics.untimedRuns.runs.count == 1)
            #expect(trace.diagnostics.untimedRuns.runs.firstLines == [firstLine])
            #expect(trace.diagnostics.untimedRuns.records == 184)
            #expect(trace.diagnostics.untimedRuns.timed == 0)
        }
    }

    @Test("at 1 Hz with a date, the 184 records become 184 fixes 1 s apart from that midnight, in file order")
    func assumedRateFromDate() throws {
        var options = ImportOptions()
        options.assumedRate = 1
        options.nmeaStartDate = Self.may1
        let trace = try importText(Self.gpx(Self.spread(184, at: Self.int32MinEpoch)), name: "t.gpx", options: options)
        #expect(trace.fixes.count == 184)
        #expect(trace.fixes.first.map { ISO8601.format($0.timestamp) } == "2024-05-01T00:00:00.000Z")
        #expect(trace.fixes.last.map { ISO8601.format($0.timestamp) } == "2024-05-01T00:03:03.000Z")
        #expect(zip(trace.fixes, trace.fixes.dropFirst()).allSatisfy { Self.seconds($1) - Self.seconds($0) == 1 })
        #expect(zip(trace.fixes, trace.fixes.dropFirst()).allSatisfy { $0.latitude < $1.latitude })
        #expect(trace.diagnostics.untimedRuns.records == 184)
        #expect(trace.diagnostics.untimedRuns.timed == 184)
        #expect(trace.diagnostics.merged.count == 0)
    }

    @Test("a rate that does not divide a second rounds each record's offset to the nanosecond")
    func fractionalRate() throws {
        var options = ImportOptions()
        options.assumedRate = 3
        options.nmeaStartDate = Self.may1
        let trace = try importText(Self.jsonLines(Self.spread(12, at: Self.unixEpoch)), name: "t.jsonl", options: options)
        let midnight = try #require(Self.may1).daysSinceEpoch * 86_400 * 1_000_000_000
        #expect(
            trace.fixes.prefix(4).map { Int($0.timestamp.nanosecondsSinceEpoch) - midnight } == [
                0, 333_333_333, 666_666_667, 1_000_000_000,
            ])
    }

    @Test("with a rate but no timed record and no date, the import fails naming the file and the run's line")
    func assumedRateNeedsAStart() {
        var options = ImportOptions()
        options.assumedRate = 1
        let error = #expect(throws: TraceFormatError.self) {
            try importText(Self.gpx(Self.spread(184, at: Self.int32MinEpoch)), name: "t.gpx", options: options)
        }
        #expect(error?.description == "t.gpx:4: untimed run has no start time: pass --date YYYY-MM-DD")
    }

    /// Five timed points one second apart, then a sentinel run of 184.
    static let mixed =
        gpx((0..<5).map { ("2024-05-01T10:00:0\($0)Z", 47.0 + Double($0) * 0.0001) } + spread(184, at: int32MinEpoch))

    @Test("a timed part then a sentinel run keeps the timed fixes, and the run is not 'out of order'")
    func mixedWithoutRate() throws {
        let trace = try importText(Self.mixed, name: "t.gpx")
        #expect(trace.fixes.count == 5)
        #expect(trace.diagnostics.untimedRuns.records == 184)
        #expect(trace.diagnostics.untimedRuns.runs.firstLines == [9])
        #expect(trace.diagnostics.outOfOrder.count == 0)
        #expect(trace.diagnostics.merged.count == 0)
    }

    @Test("the run is timed from one period after the last timed fix before it, with the date ignored")
    func mixedAnchorsAfterTheLastTimedFix() throws {
        var options = ImportOptions()
        options.assumedRate = 2
        options.nmeaStartDate = Self.may1
        let trace = try importText(Self.mixed, name: "t.gpx", options: options)
        #expect(trace.fixes.count == 189)
        #expect(ISO8601.format(trace.fixes[4].timestamp) == "2024-05-01T10:00:04.000Z")
        #expect(ISO8601.format(trace.fixes[5].timestamp) == "2024-05-01T10:00:04.500Z")
        #expect(trace.fixes[5].latitude == 48.0)
        #expect(trace.fixes.last.map { ISO8601.format($0.timestamp) } == "2024-05-01T10:01:36.000Z")
        #expect(trace.diagnostics.outOfOrder.count == 0)
    }

    @Test("a run before every timed record ends one period before the first of them")
    func leadingRunEndsBeforeTheFirstTimedFix() throws {
        var options = ImportOptions()
        options.assumedRate = 1
        let points = Self.spread(20, at: Self.unixEpoch) + [("2024-05-01T10:00:00Z", 47.0), ("2024-05-01T10:00:01Z", 47.0)]
        let trace = try importText(Self.jsonLines(points), name: "t.jsonl", options: options)
        #expect(trace.fixes.count == 22)
        #expect(ISO8601.format(trace.fixes[0].timestamp) == "2024-05-01T09:59:40.000Z")
        #expect(ISO8601.format(trace.fixes[19].timestamp) == "2024-05-01T09:59:59.000Z")
        #expect(trace.fixes[0].latitude == 48.0)
        #expect(trace.diagnostics.outOfOrder.count == 0)
    }

    @Test("nine records of one time stay merged however far apart; ten become an untimed run")
    func nineVersusTenRecords() throws {
        let nine = try importText(Self.jsonLines(Self.spread(9, at: Self.unixEpoch)), name: "t.jsonl")
        #expect(nine.fixes.count == 1)
        #expect(nine.diagnostics.merged.count == 8)
        #expect(nine.diagnostics.untimedRuns.records == 0)
        let ten = try importText(Self.jsonLines(Self.spread(10, at: Self.unixEpoch)), name: "t.jsonl")
        #expect(ten.fixes.isEmpty)
        #expect(ten.diagnostics.merged.count == 0)
        #expect(ten.diagnostics.untimedRuns.records == 10)
    }

    @Test("ten records spanning exactly 100 m stay merged; 100.5 m make an untimed run")
    func hundredMetreBoundary() throws {
        let exact = try importText(Self.jsonLines(Self.tenSpanning(100)), name: "t.jsonl")
        #expect(exact.fixes.count == 1)
        #expect(exact.diagnostics.merged.count == 9)
        #expect(exact.diagnostics.untimedRuns.runs.count == 0)
        let over = try importText(Self.jsonLines(Self.tenSpanning(100.5)), name: "t.jsonl")
        #expect(over.fixes.isEmpty)
        #expect(over.diagnostics.merged.count == 0)
        #expect(over.diagnostics.untimedRuns.records == 10)
    }

    @Test("a run is counted per provider: another provider's records in between do not break it")
    func runsArePerProvider() throws {
        let gps = Self.jsonLines(Self.spread(12, at: Self.unixEpoch), provider: "gps").split(separator: "\n")
        let network = Self.jsonLines((0..<12).map { ("2024-05-01T10:00:\($0 + 10)Z", 47.0) }, provider: "network")
            .split(separator: "\n")
        let text = zip(gps, network).map { "\($0)\n\($1)\n" }.joined()
        let trace = try importText(text, name: "t.jsonl")
        #expect(trace.fixes.count == 12)
        #expect(trace.fixes.allSatisfy { $0.provider == .network })
        #expect(trace.diagnostics.untimedRuns.records == 12)
        #expect(trace.diagnostics.untimedRuns.runs.firstLines == [1])
    }

    @Test("many records of one epoch at one place are still merged, as a receiver repeating itself")
    func samePlaceRepeatsStayMerged() throws {
        let trace = try importText(Self.jsonLines(Self.tenSpanning(3) + Self.tenSpanning(3)), name: "t.jsonl")
        #expect(trace.fixes.count == 1)
        #expect(trace.diagnostics.merged.count == 19)
        #expect(trace.diagnostics.untimedRuns.records == 0)
    }

    @Test(
        "the bundled 70mai and Columbus traces merge what they merged before and have no untimed run",
        arguments: [("gpsbabel/GPSData000001-A810-Doriel.txt", 548), ("gpsbabel/24173415.CSV", 58)])
    func bundledMergesUnchanged(_ path: String, _ merged: Int) throws {
        var options = ImportOptions()
        options.assumedRate = 1
        for options in [ImportOptions(), options] {
            let trace = try TraceImporter.load(path: Repository.trace(path), options: options)
            #expect(trace.diagnostics.merged.count == merged)
            #expect(trace.diagnostics.untimedRuns == UntimedRunTally())
        }
    }

    @Test("the same bytes give the same fixes")
    func deterministic() throws {
        var options = ImportOptions()
        options.assumedRate = 7
        let text = Self.jsonLines(Self.spread(30, at: Self.unixEpoch) + [("2024-05-01T10:00:00Z", 47.0)])
        let runs = try (0..<2).map { _ in
            try importText(text, name: "t.jsonl", options: options).fixes.map {
                [Double($0.timestamp.nanosecondsSinceEpoch), $0.latitude, $0.longitude]
            }
        }
        #expect(runs[0] == runs[1])
        #expect(runs[0].count == 31)
    }

    @Test("a rate that is not positive and finite leaves the runs untimed", arguments: [0, -1, Double.nan, .infinity])
    func unusableRateIsIgnored(_ rate: Double) throws {
        var options = ImportOptions()
        options.assumedRate = rate
        options.nmeaStartDate = Self.may1
        let trace = try importText(Self.jsonLines(Self.spread(10, at: Self.unixEpoch)), name: "t.jsonl", options: options)
        #expect(trace.fixes.isEmpty)
        #expect(trace.diagnostics.untimedRuns.timed == 0)
    }
}
