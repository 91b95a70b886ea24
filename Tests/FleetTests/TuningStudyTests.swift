import Foundation
import Geometry
import Scenarios
import TestSupport
import Testing
import Traces

@testable import Fleet

@Suite("Tuning: rows against a fixed reference, and what every setting changes")
struct TuningStudyTests {
    static let root = Repository.tracesFolder
    static let drive = load("gps-measurement-tools/MTV.Local1.ublox-F9K.20200206-181434.nmea")
    /// The 12-hour dash-cam log: the only bundled drive long enough, with stops, for the
    /// moving-region refresh and iOS's automatic pause to matter.
    static let dashCam = load("gpsbabel/GPSData000001-A810-Doriel.txt")
    /// Circles of 150 m on every 60th fix of the drive, so the geofencing settings have fences to rank.
    static let fences: [Geofence] = stride(from: 0, to: drive.fixes.count, by: 60).map { index in
        let fix = drive.fixes[index]
        return Geofence(
            identifier: "f\(index)",
            shape: .circle(center: Coordinate(latitude: fix.latitude, longitude: fix.longitude), radiusMeters: 150))
    }

    static func load(_ relative: String) -> Trace {
        do {
            return try TraceImporter.load(path: root.appendingPathComponent(relative).path)
        } catch {
            fatalError("bundled trace: \(error)")
        }
    }

    static func pools(_ sweep: String, scenario: String, trace: Trace, fences: [Geofence] = []) throws -> [Tuning.Pool] {
        let preset = try #require(Scenario.preset(named: scenario))
        let study = Tuning.Study(
            scenarios: [(preset, nil)], sweeps: [try Tuning.Sweep.parse(sweep).get()], fences: fences)
        return try study.measure([Tuning.TraceInput(trace)], jobs: 2)
    }

    /// For each setting: a scenario and trace on which two of its values give a different
    /// figure for `metric`.
    static let cases: [(sweep: String, scenario: String, dashCam: Bool, fenced: Bool, metric: Tuning.Metric)] = [
        ("startsMoving=true,false", "ideal", false, false, .acceptedFixes),
        ("stopRule=timeout,radar", "ideal", false, false, .recordedFixes),
        ("stopTimeout=60,600", "ideal", false, false, .gpsOnSeconds),
        ("stationaryRadius=25,500", "always-precise", false, false, .gpsOnSeconds),
        ("smoothing=passThrough,conservative", "ideal", false, false, .recordedFixes),
        ("gate.horizontalAccuracy=5,100", "ideal", false, false, .acceptedFixes),
        ("gate.maxImpliedSpeed=5,60", "ideal", false, false, .acceptedFixes),
        ("distanceFilter=0,50", "ideal", false, false, .recordedFixes),
        ("elasticity=transistorsoft,none", "ideal", false, false, .recordedFixes),
        ("odometerAccuracy=0.5,20", "ideal", false, false, .distanceRatio),
        ("backgroundUpdates=true,false", "always-precise", false, false, .recordedFixes),
        ("backgroundSession=true,false", "wheninuse-background-session", false, false, .recordedFixes),
        ("pausesLocationUpdatesAutomatically=true,false", "always-automatic-pause", true, false, .recordedFixes),
        ("preventSuspend=true,false", "ideal", false, false, .gpsOnSeconds),
        ("movingRegionRefresh=10,1000", "ideal", true, false, .recordedFixes),
        ("requestsMotionActivity=true,false", "ideal", false, false, .recordedFixes),
        ("geofencing.proximityRadius=100,5000", "ideal", false, true, .geofenceMissed),
        ("geofencing.maximumRegistered=1,20", "ideal", false, true, .geofenceMissed),
        ("geofencing.rerankInterval=1,3600", "ideal", false, true, .geofenceMissed),
        ("geofencing.initialTriggerEntry=true,false", "ideal", false, true, .geofenceMissed),
    ]

    @Test("every setting changes a metric on some bundled trace", arguments: cases)
    func everySettingMatters(
        _ sweep: String, _ scenario: String, _ dashCam: Bool, _ fenced: Bool, _ metric: Tuning.Metric
    ) throws {
        let pools = try Self.pools(
            sweep, scenario: scenario, trace: dashCam ? Self.dashCam : Self.drive, fences: fenced ? Self.fences : [])
        #expect(pools[0].value(of: metric) != pools[1].value(of: metric), "\(sweep): \(metric)")
    }

    @Test("the table covers every setting but the two no bundled trace can move")
    func coverage() {
        // gate.maxAge: every bundled trace is replayed with each fix delivered at its own time,
        // so no fix arrives old enough for the age check. heartbeatInterval: a heartbeat only
        // records its time (`Recorder.heartbeatTimes`); no metric reads it.
        let untestable: Set = ["gate.maxAge", "heartbeatInterval"]
        let covered = Set(Self.cases.map { String($0.sweep.prefix { $0 != "=" }) })
        #expect(covered.union(untestable) == Set(Tuning.parameters.map(\.name)))
        #expect(covered.isDisjoint(with: untestable))
    }

    @Test("the reference is fixed: sweeping a setting never moves a ratio's denominator")
    func fixedReference() throws {
        let pools = try Self.pools("distanceFilter=0,50", scenario: "always-precise", trace: Self.drive)
        #expect(pools[0].referenceAcceptedFixes == pools[1].referenceAcceptedFixes)
        #expect(pools[0].referenceDistanceMeters == pools[1].referenceDistanceMeters)
        // The reference is the ideal run with the default engine: an ideal row with default
        // settings measures exactly 1.
        let ideal = try Self.pools("distanceFilter=10", scenario: "ideal", trace: Self.drive)
        #expect(ideal[0].value(of: .collectionRatio) == 1 && ideal[0].value(of: .distanceRatio) == 1)
        #expect(pools[0].referenceAcceptedFixes == ideal[0].referenceAcceptedFixes)
    }

    @Test("pooling sums counts, divides sums for ratios, and averages delays over traces that have one")
    func pooling() {
        var metrics = Metrics()
        metrics.acceptedFixes = 10
        metrics.idealAcceptedFixes = 20
        metrics.distanceMeters = 50
        metrics.idealDistanceMeters = 100
        metrics.coveredSeconds = 30
        metrics.departureDelaySeconds = 4
        var pool = Tuning.Pool(metrics, traceSeconds: 60, truthLengthMeters: nil, errors: nil)
        metrics.acceptedFixes = 30
        metrics.idealAcceptedFixes = 30
        metrics.distanceMeters = 150
        metrics.idealDistanceMeters = 100
        metrics.coveredSeconds = 60
        metrics.departureDelaySeconds = nil
        metrics.maxGapSeconds = 12
        pool.add(Tuning.Pool(metrics, traceSeconds: 60, truthLengthMeters: nil, errors: nil))
        #expect(pool.value(of: .acceptedFixes) == 40)
        #expect(pool.value(of: .collectionRatio) == 0.8)
        #expect(pool.value(of: .distanceRatio) == 1)
        #expect(pool.value(of: .timeCoverage) == 0.75)
        #expect(pool.value(of: .departureDelaySeconds) == 4)
        #expect(pool.value(of: .arrivalDelaySeconds) == nil)
        #expect(pool.value(of: .maxGapSeconds) == 12)
        #expect(pool.value(of: .positionErrorP95Meters) == nil)
    }

    @Test("a truth elsewhere in time and place is a problem naming both; the SPAN truth of the drive is not")
    func overlap() throws {
        let bike = Self.load("gpsbabel/bike.tcx")
        let problem = try #require(Tuning.overlapProblem(truth: bike, trace: Self.drive))
        #expect(!problem.overlapsInTime && !problem.overlapsInSpace)
        #expect(problem.boxDistanceMeters > 3_000_000, "\(problem.boxDistanceMeters)")
        let span = try TraceImporter.load(
            path: Self.root.appendingPathComponent("gps-measurement-tools/MTV.Local1.SPAN.20200206-181434.gga").path,
            options: ImportOptions(nmeaStartDate: CalendarDate("2020-02-07")))
        #expect(Tuning.overlapProblem(truth: span, trace: Self.drive) == nil)
    }
}
