import Device
@testable import Engine
@testable import Scenarios
import SimulationCore
import Testing
import Traces

/// The geofence and motion comparisons of `Metrics` on small hand-made runs, at the boundary
/// where an event here falls at the same instant as the ideal one: exact values, so a match
/// rule loosened or tightened by one comparison fails.
@Suite("Metrics: geofence event matching and delays")
struct MetricsEventMatchingTests {
    static let origin: Int64 = 1_700_000_000_000_000_000

    static func at(_ seconds: Double) -> SimInstant {
        SimInstant(nanosecondsSinceEpoch: origin + Int64(seconds * 1e9))
    }

    /// A run whose recorder holds `events` (fence, action, second), `motion` (state, second)
    /// and fixes accepted and recorded at `recorded` (seconds).
    static func run(
        _ events: [(String, GeofenceEvent.Action, Double)], motion: [(MotionStateMachine.State, Double)] = [],
        recorded: [Double] = []
    ) -> ScenarioRun {
        var recorder = Recorder()
        for (fence, action, seconds) in events {
            recorder.geofence(GeofenceEvent(identifier: fence, action: action, time: at(seconds)))
        }
        for (state, seconds) in motion { recorder.motionChanged(to: state, at: at(seconds)) }
        for seconds in recorded {
            recorder.accepted(Fix(timestamp: at(seconds), latitude: 0, longitude: 0))
            recorder.recordedLastAccepted()
        }
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

    @Test("departure is the first fix recorded while moving, arrival the first stop after it, nil when either lacks one")
    func motionDelays() {
        let ideal = Self.run([], motion: [(.moving, 100), (.stationary, 200), (.moving, 250)], recorded: [100, 150])
        let late = Metrics(
            Self.run([], motion: [(.moving, 130), (.stationary, 190)], recorded: [135]), ideal: ideal)
        #expect(late.departureDelaySeconds == 35)
        #expect(late.arrivalDelaySeconds == -10)
        let sameInstant = Metrics(
            Self.run([], motion: [(.moving, 100), (.stationary, 200)], recorded: [100]), ideal: ideal)
        #expect(sameInstant.departureDelaySeconds == 0)
        #expect(sameInstant.arrivalDelaySeconds == 0)
        let neverStops = Metrics(Self.run([], motion: [(.moving, 100)], recorded: [100]), ideal: ideal)
        #expect(neverStops.departureDelaySeconds == 0)
        #expect(neverStops.arrivalDelaySeconds == nil)
        let idealStill = Metrics(Self.run([], motion: [(.moving, 5)], recorded: [5]), ideal: Self.run([]))
        #expect(idealStill.departureDelaySeconds == nil)
    }

    @Test("an app that receives no location never departs: moving with no fix recorded is no departure")
    func noFixNoDeparture() {
        let ideal = Self.run([], motion: [(.moving, 100), (.stationary, 200)], recorded: [100])
        // Motion activity alone switches the engine to moving at 22 s; no fix ever arrives.
        let blind = Metrics(Self.run([], motion: [(.moving, 22), (.stationary, 400)]), ideal: ideal)
        #expect(blind.departureDelaySeconds == nil)
        #expect(blind.arrivalDelaySeconds == nil)
        // A fix recorded just before the switch to moving is not a departure; one at the switch is.
        let before = Self.run([], motion: [(.moving, 120), (.stationary, 300)], recorded: [119.999])
        #expect(Metrics.departure(in: before.recorder) == nil)
        let at = Self.run([], motion: [(.moving, 120), (.stationary, 300)], recorded: [120])
        #expect(Metrics.departure(in: at.recorder) == Self.at(120))
        // A fix at the stop belongs to the stationary state; the next moving stretch counts.
        let later = Self.run(
            [], motion: [(.moving, 10), (.stationary, 50), (.moving, 80)], recorded: [50, 90])
        #expect(Metrics.departure(in: later.recorder) == Self.at(90))
        #expect(Metrics(later, ideal: ideal).departureDelaySeconds == -10)
    }

    @Test("a reference stop is missed unless a stop here falls from 300 s before it until the reference moves on")
    func missedStopWindows() {
        // The reference departs at 100, stops at 1000 (moving again at 1400) and at 2000 (to the end).
        let ideal = Self.run(
            [], motion: [(.moving, 100), (.stationary, 1000), (.moving, 1400), (.stationary, 2000)],
            recorded: [100, 1450])
        func missed(_ motion: [(MotionStateMachine.State, Double)]) -> Int {
            Metrics.missedStops(Self.run([], motion: motion).recorder, reference: ideal.recorder, end: Self.at(3000))
        }
        #expect(missed([(.moving, 100), (.stationary, 1000), (.moving, 1400), (.stationary, 2000)]) == 0)
        // Both window edges are inside: 300 s early, and at the instant the reference moves on.
        #expect(missed([(.moving, 100), (.stationary, 700), (.moving, 1400), (.stationary, 3000)]) == 0)
        #expect(missed([(.moving, 100), (.stationary, 1400), (.moving, 1500), (.stationary, 2100)]) == 0)
        // One second too early, or after the reference moved on: that stop was not seen.
        #expect(missed([(.moving, 100), (.stationary, 699.999), (.moving, 1400), (.stationary, 2000)]) == 1)
        #expect(missed([(.moving, 100), (.stationary, 1400.001), (.moving, 1500), (.stationary, 2100)]) == 1)
        // One stop here cannot answer for two reference stops; never stopping misses both.
        #expect(missed([(.moving, 100), (.stationary, 1300)]) == 1)
        #expect(missed([(.moving, 100)]) == 2)
        // A starting stationary state is no stop, and a reference that never departs has none.
        #expect(missed([(.stationary, 0)]) == 2)
        let still = Self.run([], motion: [(.stationary, 0)])
        #expect(Metrics.missedStops(ideal.recorder, reference: still.recorder, end: Self.at(3000)) == 0)
        #expect(Metrics(ideal, ideal: ideal).missedStops == 0)
    }
}
