import Device
import Engine
import Geometry
import Scenarios
import SimulationCore
import Testing
import Traces

/// App code that starts standard updates at launch, without background updates, and counts
/// what reaches it: the smallest engine a team could bring.
private struct CountingClient: LocationClient {
    var deliveries: [SimInstant] = []

    mutating func start(
        _ launch: LocationClientLaunch, at now: SimInstant, into requests: inout [LocationClientRequest<Never>]
    ) {
        requests.append(.device(.requestedWhenInUse))
        requests.append(.device(.startedLocationUpdates(LocationUpdateOptions())))
    }

    mutating func didUpdateLocations(
        _ locations: [LocationDelivery], at now: SimInstant, into requests: inout [LocationClientRequest<Never>]
    ) {
        deliveries += locations.map(\.time)
    }

    mutating func finish(at now: SimInstant) {}
}

@Suite("A scenario replayed through any LocationClient")
struct ScenarioReplayTests {
    /// Ten minutes at 1 Hz, walking north.
    private let trace: Trace = {
        let start = SimInstant(nanosecondsSinceEpoch: 1_700_000_000_000_000_000)
        let origin = Coordinate(latitude: 37.7749, longitude: -122.4194)
        let fixes = (0..<600).map { second in
            let position = Geodesy.destination(from: origin, bearingDegrees: 0, distanceMeters: Double(second) * 1.4)
            return Fix(
                timestamp: start.advanced(bySeconds: Double(second)), latitude: position.latitude,
                longitude: position.longitude, horizontalAccuracy: .meters(5), speedMetersPerSecond: 1.4,
                provider: .gps)
        }
        return Trace(fixes: fixes, provenance: TraceProvenance(format: .canonicalCSV))
    }()

    @Test("a custom client gets the preset's phone, person and lock: nothing after the When-In-Use cutoff")
    func presetReachesCustomClient() throws {
        let locked = try #require(Scenario.preset(named: "wheninuse-locked"))
        let ideal = try #require(Scenario.preset(named: "ideal"))
        let lockedRun = ScenarioRunner.replay(trace, locked, client: CountingClient())
        let idealRun = ScenarioRunner.replay(trace, ideal, client: CountingClient())
        let start = try #require(trace.fixes.first?.timestamp)
        let cutoff = DeviceParameters().whenInUseLockCutoffSeconds
        // The preset locks the phone at 60 s; When-In-Use delivers until the cutoff after it.
        let last = try #require(lockedRun.replay.client.deliveries.last)
        #expect(last.seconds(since: start) < 60 + cutoff)
        #expect(last.seconds(since: start) >= 60 + cutoff - 1)
        #expect(idealRun.replay.client.deliveries.count == trace.fixes.count)
        #expect(lockedRun.deviceConfiguration.parameters.whenInUseLockCutoffSeconds == cutoff)
    }

    @Test("the built-in engine through the generic entry point replays as ScenarioRunner.run does")
    func builtInEngineMatchesRun() throws {
        let scenario = try #require(Scenario.preset(named: "always-force-quit"))
        let run = try ScenarioRunner.run(trace, scenario)
        let engine = try TrackingEngine(
            configuration: scenario.engine, context: GEOSContext(), expectedFixCount: trace.fixes.count)
        let replayed = ScenarioRunner.replay(trace, scenario, client: engine)
        #expect(replayed.replay.deliveryTimes == run.deliveryTimes)
        #expect(replayed.replay.gpsOn == run.gpsOn)
        #expect(replayed.replay.lifecycleTimeline == run.lifecycle)
        #expect(engine.recorder.recordedFixCount == run.recorder.recordedFixCount)
        #expect(run.lifecycle.contains { $0.phase == .forceQuit })
    }
}
