@testable import Engine
@testable import Scenarios
import SimulationCore
import Testing

/// The geofence and motion comparisons of `Metrics` on small hand-made runs, at the boundary
/// where an event here falls at the same instant as the ideal one: exact values, so a match
/// rule loosened or tightened by one comparison fails.
@Suite("Metrics: geofence event matching and delays")
struct MetricsEventMatchingTests {
    static let origin: Int64 = 1_700_000_000_000_000_000

    static func at(_ seconds: Double) -> SimInstant {
        SimInstant(nanosecondsSinceEpoch: origin + Int64(seconds * 1e9))
    }

    /// A run whose recorder holds `events` (fence, action, second) and `motion` (state, second).
    static func run(
        _ events: [(String, GeofenceEvent.Action, Double)], motion: [(MotionStateMachine.State, Double)] = []
    ) -> ScenarioRun {
        var recorder = Recorder()
        for (fence, action, seconds) in events {
            recorder.geofence(GeofenceEvent(identifier: fence, action: action, time: at(seconds)))
        }
        for (state, seconds) in motion { recorder.motionChanged(to: state, at: at(seconds)) }
        return ScenarioRun(
            scenario: "test", seed: 0, traceStart: at(0), traceEnd: at(600), flowSeconds: 0, recorder: recorder,
            gpsOn: GPSOnTime(),
            odometerMeters: 0, deliveryTimes: [], lifecycle: [], promptLog: [], wizardSteps: nil)
    }

    @Test("an event at the same instant as the ideal one matches with no delay")
    func sameInstantMatches() {
        let ideal = Self.run([("home", .enter, 10)])
        let metrics = Metrics(Self.run([("home", .enter, 10)]), ideal: ideal)
        #expect(metrics.geofenceEvents == 1)
        #expect(metrics.geofenceMissed == 0)
        #expect(metrics.geofenceSpurious == 0)
        #expect(metrics.geofenceMeanDelaySeconds == 0)
        #expect(metrics.geofenceMaxDelaySeconds == 0)
    }

    @Test("an event before the ideal one is not its match: one missed and one spurious")
    func earlierEventDoesNotMatch() {
        let ideal = Self.run([("home", .enter, 10)])
        let metrics = Metrics(Self.run([("home", .enter, 9.999)]), ideal: ideal)
        #expect(metrics.geofenceMissed == 1)
        #expect(metrics.geofenceSpurious == 1)
        #expect(metrics.geofenceMeanDelaySeconds == 0)
        #expect(metrics.geofenceMaxDelaySeconds == 0)
    }

    @Test("each ideal event takes the earliest unmatched event of the same fence and action at or after it")
    func earliestMatchAndDelays() {
        let ideal = Self.run([("home", .enter, 10), ("home", .exit, 20), ("home", .enter, 30)])
        let here = Self.run([
            ("work", .enter, 5), ("home", .exit, 20), ("home", .enter, 12), ("home", .enter, 36), ("home", .dwell, 40),
        ])
        let metrics = Metrics(here, ideal: ideal)
        // enter 10 → 12 (2 s), exit 20 → 20 (0 s), enter 30 → 36 (6 s); work and the dwell are extra.
        #expect(metrics.geofenceEvents == 5)
        #expect(metrics.geofenceMissed == 0)
        #expect(metrics.geofenceSpurious == 2)
        #expect(metrics.geofenceMeanDelaySeconds == 8.0 / 3)
        #expect(metrics.geofenceMaxDelaySeconds == 6)
    }

    @Test("another fence or another action never matches")
    func fenceAndActionMustAgree() {
        let ideal = Self.run([("home", .enter, 10), ("work", .exit, 10)])
        let metrics = Metrics(Self.run([("home", .exit, 10), ("work", .enter, 10)]), ideal: ideal)
        #expect(metrics.geofenceMissed == 2)
        #expect(metrics.geofenceSpurious == 2)
    }

    @Test("departure and arrival delays are the first transitions here minus the ideal run's, nil when either lacks one")
    func motionDelays() {
        let ideal = Self.run([], motion: [(.moving, 100), (.stationary, 200), (.moving, 250)])
        let late = Metrics(Self.run([], motion: [(.moving, 130), (.stationary, 190)]), ideal: ideal)
        #expect(late.departureDelaySeconds == 30)
        #expect(late.arrivalDelaySeconds == -10)
        let sameInstant = Metrics(Self.run([], motion: [(.moving, 100), (.stationary, 200)]), ideal: ideal)
        #expect(sameInstant.departureDelaySeconds == 0)
        #expect(sameInstant.arrivalDelaySeconds == 0)
        let never = Metrics(Self.run([], motion: [(.moving, 100)]), ideal: ideal)
        #expect(never.departureDelaySeconds == 0)
        #expect(never.arrivalDelaySeconds == nil)
        let idealStill = Metrics(Self.run([], motion: [(.moving, 5)]), ideal: Self.run([]))
        #expect(idealStill.departureDelaySeconds == nil)
    }
}
