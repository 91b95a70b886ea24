import Device
import Engine
import Geometry
import Scenarios
import SimulationCore
import TestSupport
import Testing
import Traces

/// Issue 30 §6: a run counts its `didUpdateLocations` calls, the largest, and what a recording
/// app was handed but did not keep.
@Suite("Replay: delivery counts per run")
struct DeliveryTallyTests {
    /// `count` fixes one second apart, 10 m apart going north, with accuracy, speed and course.
    static func trace(count: Int) -> Trace {
        let start = SimInstant(nanosecondsSinceEpoch: 1_700_000_000_000_000_000)
        let origin = Coordinate(latitude: 37.4, longitude: -122.1)
        let fixes = (0..<count).map { index in
            let position = Geodesy.destination(from: origin, bearingDegrees: 0, distanceMeters: Double(index) * 10)
            return Fix(
                timestamp: start.advanced(bySeconds: Double(index)), latitude: position.latitude,
                longitude: position.longitude, horizontalAccuracy: .meters(5), speedMetersPerSecond: 10,
                courseDegrees: 0, provider: .gps)
        }
        return Trace(fixes: fixes, provenance: TraceProvenance(format: .jsonLines))
    }

    static func run(locationsPerDelivery: Int, count: Int = 22) throws -> ScenarioRun {
        var scenario = try #require(Scenario.preset(named: "wheninuse-foreground"))
        scenario.device.parameters.locationsPerDelivery = locationsPerDelivery
        return try ScenarioRunner.run(
            trace(count: count), scenario,
            engine: .custom(named: "last-only") { _ in KeepingClient(.lastOfEachCall) })
    }

    @Test("With the default, one location per call: 22 calls, nothing lost by keeping locations.last")
    func oneLocationPerCall() throws {
        let tally = try Self.run(locationsPerDelivery: 1).deliveries
        #expect(tally.calls == 22)
        #expect(tally.locations == 22)
        #expect(tally.largestCall == 1)
        #expect(tally.deliveredNotKept == 0)
        #expect(tally.heldWhenTraceEnded == 0)
        #expect(tally.derivedByDevice.isEmpty)
    }

    @Test("locationsPerDelivery 4: 5 calls of 4, the last 2 fixes still held; keeping locations.last loses 15")
    func severalLocationsPerCallShowLoss() throws {
        let tally = try Self.run(locationsPerDelivery: 4).deliveries
        #expect(tally.calls == 5)
        #expect(tally.locations == 20)
        #expect(tally.largestCall == 4)
        #expect(tally.heldWhenTraceEnded == 2)
        #expect(tally.deliveredNotKept == 15)
    }

    @Test("A client that keeps nothing shows every location it was handed as delivered but not kept")
    func keepNothingLosesAll() throws {
        var scenario = try #require(Scenario.preset(named: "wheninuse-foreground"))
        scenario.device.parameters.locationsPerDelivery = 4
        let tally = try ScenarioRunner.run(
            Self.trace(count: 22), scenario, engine: .custom(named: "keep-nothing") { _ in KeepingClient(.nothing) }
        ).deliveries
        #expect(tally.locations == 20)
        #expect(tally.significantChanges == 0)
        #expect(tally.deliveredNotKept == 20)
    }

    @Test("A timeline suspend of an app kept running is refused with a note, not dropped without a word")
    func refusedSuspensionIsNoted() throws {
        var scenario = try #require(Scenario.preset(named: "wheninuse-foreground"))
        scenario.timeline = [Scenario.TimelineEvent(.seconds(5), .system(.suspendedApp))]
        let run = try ScenarioRunner.run(
            Self.trace(count: 22), scenario, engine: .custom(named: "last-only") { _ in KeepingClient(.lastOfEachCall) })
        #expect(run.notes.count == 1)
        let note = try #require(run.notes.first)
        #expect(note.message.hasPrefix("the timeline's suspend was not carried out: the app was in the foreground"))
        #expect(note.time == Self.trace(count: 1).fixes[0].timestamp.advanced(bySeconds: 5))
        // The app kept running: every fix reached it.
        #expect(run.deliveries.locations == 22)
    }
}
