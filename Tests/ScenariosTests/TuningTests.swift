import Foundation
import Geometry
import SimulationCore
import Testing
import Traces

@testable import Scenarios

@Suite("Tuning sweeps")
struct TuningTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Traces/gps-measurement-tools")

    @Test("sweep syntax: the last value is included when the steps land on it; bad specs say why")
    func parse() throws {
        let sweep = try Tuning.Sweep.parse("gate.horizontalAccuracy=10:30:10").get()
        #expect(sweep.values == [10, 20, 30])
        let stops = try Tuning.Sweep.parse("stopTimeout=60:100:30").get()
        #expect(stops.values == [60, 90])
        for bad in [
            "gate.horizontalAccuracy", "speed=1:2:1", "distanceFilter=5:1:1", "distanceFilter=1:5:0",
            "distanceFilter=1:x:1", "distanceFilter=0:100000:1",
        ] {
            guard case .failure = Tuning.Sweep.parse(bad) else {
                Issue.record("'\(bad)' should not parse")
                continue
            }
        }
    }

    @Test("the Pareto front: more kept at no greater cost, or as many at lower cost, dominates")
    func front() {
        func point(_ kept: Int, _ p95: Double) -> Tuning.Point {
            Tuning.Point(values: [], kept: kept, delivered: 100, medianError: p95, p95Error: p95, distanceInflation: nil)
        }
        var points = [point(50, 1), point(80, 2), point(80, 3), point(90, 2), point(100, 5)]
        Tuning.markFront(&points, truth: true)
        #expect(points.map(\.isOnFront) == [true, false, false, true, true])
    }

    @Test("u-blox against its SPAN reference: sub-metre median error, and a tighter gate keeps fewer fixes")
    func truthOnRealDrive() throws {
        let options = ImportOptions(nmeaStartDate: CalendarDate("2020-02-07"))
        let drive = try TraceImporter.load(path: Self.folder.appendingPathComponent("MTV.Local1.ublox-F9K.20200206-181434.nmea").path)
        let truth = try TraceImporter.load(
            path: Self.folder.appendingPathComponent("MTV.Local1.SPAN.20200206-181434.gga").path, options: options)
        let points = try Tuning.run([drive], sweeps: [try Tuning.Sweep.parse("gate.horizontalAccuracy=10:30:10").get()], truth: truth)
        #expect(points.map(\.kept) == points.map(\.kept).sorted())
        #expect(points[0].kept < points[2].kept)
        let median = try #require(points[2].medianError)
        #expect(median > 0.05 && median < 2, "\(median) m")
        #expect((points[2].p95Error ?? 0) >= median)
        #expect(points.contains { $0.isOnFront })
    }

    @Test("errors interpolate the truth and skip its gaps")
    func interpolation() throws {
        let start = SimInstant(nanosecondsSinceEpoch: 1_700_000_000_000_000_000)
        func fix(_ seconds: Double, _ north: Double) -> Fix {
            let position = Geodesy.destination(
                from: Coordinate(latitude: 37, longitude: -122), bearingDegrees: 0, distanceMeters: north)
            return Fix(
                timestamp: start.advanced(byNanoseconds: Int64(seconds * 1e9)), latitude: position.latitude,
                longitude: position.longitude, horizontalAccuracy: .meters(1), provider: .gps)
        }
        let truth = Trace(fixes: [fix(0, 0), fix(1, 10), fix(2, 20), fix(10, 100)], provenance: TraceProvenance(format: .nmea))
        let trace = Trace(fixes: [fix(0.5, 8), fix(1.5, 15), fix(5, 50)], provenance: TraceProvenance(format: .nmea))
        var scenario = try #require(Scenario.preset(named: "ideal"))
        scenario.engine.startsMoving = true
        scenario.engine.gate.confirmsFirstFix = false
        let run = try ScenarioRunner.run(trace, scenario)
        let errors = Tuning.errors(run.recorder, against: truth)
        // 0.5 s: truth at 5 m, fix at 8 m; 1.5 s: truth 15 m, fix 15 m; 5 s falls in an 8 s truth gap.
        #expect(errors.count == 2)
        #expect(abs(errors[0] - 3) < 0.01 && errors[1] < 0.01, "\(errors)")
    }
}
