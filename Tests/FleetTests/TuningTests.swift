import Foundation
import Geometry
import Scenarios
import SimulationCore
import TestSupport
import Testing
import Traces

@testable import Fleet

@Suite("Tuning: sweeps, objectives and constraints")
struct TuningTests {
    static let folder = Repository.tracesFolder.appendingPathComponent("gps-measurement-tools")

    @Test("sweep syntax: ranges include the last value the steps land on, lists take numbers, switches and words")
    func parse() throws {
        let sweep = try Tuning.Sweep.parse("gate.horizontalAccuracy=10:30:10").get()
        #expect(sweep.values == [.number(10), .number(20), .number(30)])
        #expect(try Tuning.Sweep.parse("stopTimeout=60:100:30").get().values == [.number(60), .number(90)])
        #expect(try Tuning.Sweep.parse("distanceFilter=5,25").get().values == [.number(5), .number(25)])
        #expect(try Tuning.Sweep.parse("preventSuspend=false,true").get().values == [.bool(false), .bool(true)])
        #expect(try Tuning.Sweep.parse("stopRule=radar").get().values == [.token("radar")])
        #expect(try Tuning.Sweep.parse("geofencing.maximumRegistered=1,20").get().values.count == 2)
    }

    @Test(
        "malformed, empty and hostile sweeps are refused with a reason",
        arguments: [
            "", "=", "gate.horizontalAccuracy", "gate.horizontalAccuracy=", "speed=1:2:1", "distanceFilter=5:1:1",
            "distanceFilter=1:5:0", "distanceFilter=1:x:1", "distanceFilter=0:100000:1", "distanceFilter=1,,2",
            "distanceFilter=nan", "distanceFilter=inf", "distanceFilter=-5", "preventSuspend=yes", "stopRule=fast",
            "stopRule=0:1:1", "geofencing.maximumRegistered=1.5", "geofencing.maximumRegistered=21",
            "distanceFilter=" + String(repeating: "1,", count: 1001) + "1", "distanceFilter=1e308:1e308:1e-308",
            "\u{0}=1", "distanceFilter=1:2:3:4",
        ])
    func badSweeps(_ text: String) {
        guard case .failure(let error) = Tuning.Sweep.parse(text) else {
            Issue.record("'\(text)' should not parse")
            return
        }
        #expect(!error.description.isEmpty)
    }

    @Test("objectives: a metric name with an optional direction; its default direction otherwise")
    func objectives() throws {
        #expect(try Tuning.Objective.parse("gpsOnSeconds").get() == Tuning.Objective(.gpsOnSeconds, .min))
        #expect(try Tuning.Objective.parse("recordedFixes:min").get() == Tuning.Objective(.recordedFixes, .min))
        #expect(try Tuning.Objective.parse("distanceRatio").get().direction == .max)
        #expect(try Tuning.Objective.parse("missedStops").get().direction == .min)
        for bad in ["", ":", "kept", "gpsOnSeconds:", "gpsOnSeconds:down", "gpsOnSeconds:min:max", "GPSONSECONDS"] {
            guard case .failure(let error) = Tuning.Objective.parse(bad) else {
                Issue.record("'\(bad)' should not parse")
                continue
            }
            if bad == "kept" { #expect(error.description.contains("recordedFixes, acceptedFixes")) }
        }
        #expect(Tuning.Objective.defaults(hasTruth: true).map(\.metric) == [.recordedFixes, .positionErrorP95Meters])
        #expect(Tuning.Objective.defaults(hasTruth: false).map(\.metric) == [.recordedFixes, .gpsOnSeconds])
    }

    @Test("every metric the brief names is an objective, spelled as the run JSON's key")
    func metricNames() {
        let names = Set(Tuning.Metric.allCases.map(\.rawValue))
        for name in [
            "recordedFixes", "acceptedFixes", "collectionRatio", "timeCoverage", "maxGapSeconds",
            "positionErrorMedianMeters", "positionErrorP95Meters", "distanceRatio", "gpsOnSeconds",
            "departureDelaySeconds", "arrivalDelaySeconds", "geofenceMissed", "geofenceSpurious", "missedStops",
        ] {
            #expect(names.contains(name), "\(name)")
        }
    }

    @Test("constraints: NAME op NUMBER with >=, <=, > and <; absent values fail them")
    func constraints() throws {
        let ratio = try Tuning.Constraint.parse("distanceRatio>=0.95").get()
        #expect(ratio == Tuning.Constraint(metric: .distanceRatio, comparison: .atLeast, bound: 0.95))
        #expect(ratio.isMet(by: 0.95) && !ratio.isMet(by: 0.9499) && !ratio.isMet(by: nil))
        #expect(try Tuning.Constraint.parse(" gpsOnSeconds < 600 ").get().comparison == .below)
        #expect(try Tuning.Constraint.parse("maxGapSeconds<=30").get().isMet(by: 30))
        #expect(try !Tuning.Constraint.parse("missedStops>0").get().isMet(by: 0))
        #expect(ratio.description == "distanceRatio>=0.95")
        for bad in [
            "", "distanceRatio", "distanceRatio>=", ">=0.95", "distanceRatio=>0.95", "distanceRatio==1",
            "ratio>=1", "distanceRatio>=nan", "distanceRatio>=1e999", "distanceRatio>=0.9x", "distanceRatio>=<1",
        ] {
            guard case .failure = Tuning.Constraint.parse(bad) else {
                Issue.record("'\(bad)' should not parse")
                continue
            }
        }
    }
}
