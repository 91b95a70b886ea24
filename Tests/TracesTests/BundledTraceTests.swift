import SimulationCore
import TestSupport
import Testing
import Traces

/// Pins what every bundled real trace imports to. The counts were checked against an
/// independent line-by-line reading of each file; where they differ from the survey in
/// `Traces/SOURCES.md`, the reason is noted on the row.
@Suite("Bundled real traces")
struct BundledTraceTests {
    struct Expectation: CustomTestStringConvertible, Sendable {
        var path: String
        var format: TraceFormat
        var fixes: Int
        var byProvider: [Provider: Int]
        var first: String?
        var last: String?
        var accuracy: AccuracyKind
        var skipped: [SkipReason: Int] = [:]
        var merged = 0
        var untimed = 0
        var motion = 0
        var date: String?

        var testDescription: String { path }
    }

    static let expectations: [Expectation] = [
        // The survey counted 1653 RMC rows; one epoch (02:32:30) has only a valid GLL
        // sentence during an outage, and it is a fix too. 13 corrupted sentences fail checksum.
        Expectation(
            path: "gps-measurement-tools/MTV.Local1.ublox-F9K.20200206-181434.nmea", format: .nmea, fixes: 1654,
            byProvider: [.gps: 1654], first: "2020-02-07T02:14:17.000Z", last: "2020-02-07T02:43:04.000Z",
            accuracy: .dilution, skipped: [.badChecksum: 13]),
        // Every RMC in this file fails its checksum (the publisher rounded RMC positions
        // without updating it), so nothing in the file dates the GGA epochs.
        Expectation(
            path: "gps-measurement-tools/MTV.Local1.SPAN.20200206-181434.gga", format: .nmea, fixes: 0,
            byProvider: [:], first: nil, last: nil, accuracy: .none, skipped: [.badChecksum: 1748], untimed: 1748),
        Expectation(
            path: "gps-measurement-tools/MTV.Local1.SPAN.20200206-181434.gga", format: .nmea, fixes: 1748,
            byProvider: [.gps: 1748], first: "2020-02-07T02:13:31.000Z", last: "2020-02-07T02:42:38.000Z",
            accuracy: .dilution, skipped: [.badChecksum: 1748], date: "2020-02-07"),
        Expectation(
            path: "gps-measurement-tools/pseudoranges_log_2016_08_22_14_45_50.txt", format: .gnssLogger, fixes: 207,
            byProvider: [.gps: 207], first: "2016-08-22T21:45:55.999Z", last: "2016-08-22T21:49:21.999Z",
            accuracy: .meters),
        Expectation(
            path: "gnss_lib_py/pixel6.txt", format: .gnssLogger, fixes: 243,
            byProvider: [.gps: 94, .fused: 95, .network: 54], first: "2023-11-07T23:43:02.000Z",
            last: "2023-11-07T23:52:20.587Z", accuracy: .meters),
        Expectation(
            path: "gnss_lib_py/pixel6.nmea", format: .gnssLoggerNMEA, fixes: 48, byProvider: [.gps: 48],
            first: "2023-11-07T23:42:57.000Z", last: "2023-11-07T23:52:21.000Z", accuracy: .dilution),
        // The tunnel fixture repeats its last fix verbatim: 13 records, 12 epochs.
        Expectation(
            path: "mapbox-navigation-ios/tunnel.json", format: .clLocationJSON, fixes: 12, byProvider: [.fused: 12],
            first: "2017-06-14T21:24:59.025679Z", last: "2017-06-14T21:25:30.028078Z", accuracy: .meters, merged: 1),
        Expectation(
            path: "mapbox-navigation-ios/38512A3B-032C-452D-95EA-06C845B64780.json", format: .clLocationJSON,
            fixes: 39, byProvider: [.fused: 39], first: "2017-09-29T14:59:42.008Z", last: "2017-09-29T15:00:20.007Z",
            accuracy: .meters),
        // 7140 rows: 2 void, 548 repeat a second already logged.
        Expectation(
            path: "gpsbabel/GPSData000001-A810-Doriel.txt", format: .seventyMai, fixes: 6590, byProvider: [.gps: 6590],
            first: "2025-02-21T20:45:56.000Z", last: "2025-02-22T08:50:30.000Z", accuracy: .none,
            skipped: [.noFix: 2], merged: 548),
        // Raw points of activity segments (100) and place visits (20); two share a time. Motion:
        // a sample at the start of each of the 227 segments and visits, and a close at the end of
        // the 74 activity segments no other object starts by.
        Expectation(
            path: "gpsbabel/2013_JUNE.json", format: .googleTakeout, fixes: 119, byProvider: [.unknown: 119],
            first: "2013-06-01T16:13:41.460Z", last: "2013-06-18T23:57:14.050Z", accuracy: .meters, merged: 1,
            motion: 301),
        Expectation(
            path: "gpsbabel/bike.tcx", format: .tcx, fixes: 1812, byProvider: [.gps: 1812],
            first: "2013-04-30T19:23:57.000Z", last: "2013-04-30T19:54:11.000Z", accuracy: .none),
        // 742 rows: the 58 button-press (C) rows repeat a track row's second.
        Expectation(
            path: "gpsbabel/24173415.CSV", format: .columbusCSV, fixes: 684, byProvider: [.gps: 684],
            first: "2025-07-24T17:34:18.000Z", last: "2025-07-24T17:45:41.000Z", accuracy: .none, merged: 58),
        Expectation(
            path: "gpsbabel/google_ext.kml", format: .kml, fixes: 451, byProvider: [.unknown: 451],
            first: "2014-05-25T18:30:59.000Z", last: "2014-05-25T20:13:09.000Z", accuracy: .none),
        Expectation(
            path: "gpsd/skytraq-dgps.log", format: .nmea, fixes: 96, byProvider: [.gps: 96],
            first: "2016-04-07T21:31:21.000Z", last: "2016-04-07T21:32:56.000Z", accuracy: .meters),
        // The survey counted 74 RMC rows; the first 6 epochs are void (status V, quality 0).
        Expectation(
            path: "gpsd/haicom-305N.log", format: .nmea, fixes: 68, byProvider: [.gps: 68],
            first: "2007-04-08T09:53:04.802Z", last: "2007-04-08T09:54:15.787Z", accuracy: .dilution,
            skipped: [.noFix: 6]),
    ]

    @Test("imports each bundled trace to its pinned counts", arguments: expectations)
    func pinnedCounts(_ expected: Expectation) throws {
        let options = ImportOptions(nmeaStartDate: expected.date.flatMap(CalendarDate.init))
        let trace = try TraceImporter.load(path: Repository.trace(expected.path), options: options)
        let summary = TraceSummary(trace)
        #expect(summary.format == expected.format)
        #expect(summary.fixCount == expected.fixes)
        #expect(Dictionary(uniqueKeysWithValues: summary.fixesByProvider.map { ($0.provider, $0.count) }) == expected.byProvider)
        #expect(summary.first.map { ISO8601.format($0) } == expected.first)
        #expect(summary.last.map { ISO8601.format($0) } == expected.last)
        #expect(summary.accuracyKind == expected.accuracy)
        #expect(trace.diagnostics.skipped.mapValues(\.count) == expected.skipped)
        #expect(trace.diagnostics.merged.count == expected.merged)
        #expect(trace.diagnostics.untimed.count == expected.untimed)
        #expect(trace.motionSamples.count == expected.motion)
        #expect(
            trace.fixes == trace.fixes.sorted { $0.timestamp < $1.timestamp || ($0.timestamp == $1.timestamp && $0.provider < $1.provider) }
        )
    }

    @Test("every bundled trace is detected from its content, whatever its file name")
    func detectionIgnoresExtension() throws {
        for expected in Self.expectations where expected.date == nil {
            let bytes = try Array(FileBytes.read(Repository.trace(expected.path)))
            let trace = try TraceImporter.read(bytes, name: "renamed.bin")
            #expect(trace.provenance.format == expected.format, "\(expected.path)")
        }
    }

    @Test("SkyTraq GST sigmas become measured metres; HDOP never does")
    func skytraqAccuracy() throws {
        let trace = try TraceImporter.load(path: Repository.trace("gpsd/skytraq-dgps.log"))
        let first = try #require(trace.fixes.first)
        // $GPGST,213121.000,16.1,22.2,10.2,2.0,0.4,0.6,1.4: sigma lat 0.4 m, lon 0.6 m, alt 1.4 m.
        #expect(first.horizontalAccuracy == .meters((0.4 * 0.4 + 0.6 * 0.6).squareRoot()))
        #expect(first.verticalAccuracy == .meters(Double(Float(1.4))))
        #expect(first.horizontalAccuracyMeters()?.isEstimated == false)
        // 4404.1295864 N, 12118.8685453 W; altitude above mean sea level from GGA.
        #expect(abs(first.latitude - (44 + 4.1295864 / 60)) < 1e-12)
        #expect(abs(first.longitude + (121 + 18.8685453 / 60)) < 1e-12)
        #expect(first.altitudeMeters == 1102.537)
        #expect(first.speedMetersPerSecond == 0)
        #expect(first.courseDegrees == 122.7)
    }

    @Test("haicom HDOP stays a dilution, and its metres are flagged as estimated")
    func haicomDilution() throws {
        let trace = try TraceImporter.load(path: Repository.trace("gpsd/haicom-305N.log"))
        let first = try #require(trace.fixes.first)
        #expect(first.horizontalAccuracy == .dilution(17.0))
        let estimate = try #require(first.horizontalAccuracyMeters())
        #expect(estimate.isEstimated)
        #expect(estimate.meters == 17.0 * UserEquivalentRangeError.standard.horizontalMeters)
        // $GPRMC,095304.802,A,2712.6520,S,15303.1397,E,0.00,133.96,080407
        #expect(abs(first.latitude + (27 + 12.6520 / 60)) < 1e-12)
        #expect(first.speedMetersPerSecond == 0)
        #expect(first.courseDegrees == 133.96)
    }

    @Test("GnssLogger v3 keeps absent fields absent and each provider's own accuracy")
    func pixelProviders() throws {
        let trace = try TraceImporter.load(path: Repository.trace("gnss_lib_py/pixel6.txt"))
        #expect(trace.provenance.device == "Google Pixel 7")
        let network = try #require(trace.fixes.first { $0.provider == .network })
        // Fix,NLP,37.4266961000,-122.1735829000,8.300000190734863,,15.136,,1699400585063,...
        #expect(network.speedMetersPerSecond == nil)
        #expect(network.courseDegrees == nil)
        #expect(network.horizontalAccuracy == .meters(15.136))
        #expect(network.timestamp == SimInstant(millisecondsSinceEpoch: 1_699_400_585_063))
        let gps = try #require(trace.fixes.first { $0.provider == .gps })
        #expect(gps.speedMetersPerSecond == 0)
        #expect(gps.courseDegrees == nil)
        #expect(gps.speedAccuracyMetersPerSecond == Float("0.19259089"))
    }

    @Test("70mai course is centi-degrees and speed cm/s")
    func seventyMaiUnits() throws {
        let trace = try TraceImporter.load(path: Repository.trace("gpsbabel/GPSData000001-A810-Doriel.txt"))
        let first = try #require(trace.fixes.first)
        // 1740170756,A,46.840330,29.463088,32500,777,...
        #expect(first.courseDegrees == 325)
        #expect(first.speedMetersPerSecond == Float(777) / 100)
        #expect(first.latitude == 46.840330)
    }

    @Test("Columbus hemisphere letters, km/h speeds and two-digit years")
    func columbusUnits() throws {
        let trace = try TraceImporter.load(path: Repository.trace("gpsbabel/24173415.CSV"))
        let first = try #require(trace.fixes.first)
        // 1,T,250724,173418,49.0733336N,125.7648551W,38,0.2,0
        #expect(first.latitude == 49.0733336)
        #expect(first.longitude == -125.7648551)
        #expect(first.altitudeMeters == 38)
        #expect(first.speedMetersPerSecond == Float(0.2) / 3.6)
        #expect(first.courseDegrees == 0)
    }

    @Test("Takeout activity segments become coarse motion samples with the segment's confidence")
    func takeoutMotion() throws {
        let trace = try TraceImporter.load(path: Repository.trace("gpsbabel/2013_JUNE.json"))
        #expect(trace.motionSamples.allSatisfy { $0.isCoarse })
        let first = try #require(trace.motionSamples.first)
        // The first segment's probabilities are all 0, so its WALK travel mode decides.
        #expect(first.activity == .walking)
        #expect(first.confidence == .medium)
        #expect(ISO8601.format(first.timestamp) == "2013-06-01T16:06:54.349Z")
        #expect(trace.motionSamples.filter { $0.activity == .automotive }.count == 75)
        // 60 visits and 74 closed segments (`TakeoutSegmentCloseTests`).
        #expect(trace.motionSamples.filter { $0.activity == .stationary }.count == 134)
        let raw = try #require(trace.fixes.first)
        #expect(raw.latitude == 37.426857)
        #expect(raw.horizontalAccuracy == .meters(20))
    }
}
