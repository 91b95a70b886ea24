import Device
import Geometry
import SimulationCore
import Testing
import Traces

/// The region rules issue 31 calibrated to field data: crossings the OS misses, and where a
/// small region's exit is decided.
@Suite("Device rules: region misses and the exit cushion")
struct RegionCalibrationRuleTests {
    /// An Always app monitoring a 100 m region at the origin, walked out to 400 m and back
    /// `laps` times (a fix a second, 2 m/s), each leg past the hysteresis; the log's region
    /// actions with their times in seconds.
    static func laps(
        _ laps: Int, missProbability: Double, latencyMaximum: Double = 0, seed: UInt64 = 11
    ) -> [(seconds: Double, action: DeviceAction)] {
        var parameters = DeviceParameters()
        parameters.regionMissProbability = missProbability
        parameters.regionLatencyMaximumSeconds = latencyMaximum
        var configuration = Setup.authorized(.authorizedAlways, parameters: parameters)
        configuration.seed = seed
        var timeline = DeviceRun.testing(configuration)
        timeline.at(0, .user(.launchedApp))
        timeline.at(1, .app(.startedMonitoring(MonitoredRegion(identifier: "r", center: DeviceRun.origin, radiusMeters: 100))))
        timeline.record(2, north: 0)
        var second = 3.0
        for _ in 0..<laps {
            for meters in Array(stride(from: 0.0, through: 400, by: 2)) + Array(stride(from: 400.0, through: 0, by: -2)) {
                timeline.record(second, north: meters)
                second += 1
            }
        }
        timeline.advance(to: second + 400)
        return timeline.log.compactMap { entry in
            switch entry.action {
            case .regionEvent, .regionEventDropped: (entry.time.seconds(since: timeline.start), entry.action)
            default: nil
            }
        }
    }

    static func isMissed(_ action: DeviceAction) -> Bool {
        if case .regionEventDropped(_, _, .regionCrossingMissed) = action { true } else { false }
    }

    @Test("regionCrossingMissed: at 1 every crossing is missed and reaches nobody; at 0 every one reaches the app")
    func regionCrossingMissed() {
        let never = Self.laps(5, missProbability: 0)
        let always = Self.laps(5, missProbability: 1)
        // Five laps: an exit and an entry each, in order.
        let expected: [RegionCrossing] = Array(repeating: [.exit, .enter], count: 5).flatMap { $0 }
        #expect(never.map(\.action) == expected.map { .regionEvent(identifier: "r", $0) })
        #expect(always.map(\.action) == expected.map { .regionEventDropped(identifier: "r", $0, .regionCrossingMissed) })
        // A missed crossing still moves the OS to the other side: the next crossing is the way back,
        // decided at the same moment as when nothing is missed.
        #expect(always.map(\.seconds) == never.map(\.seconds))
    }

    @Test("regionCrossingMissed: the draws come from a stream of their own, so misses move no other draw")
    func missesHaveTheirOwnStream() {
        let reported = Self.laps(20, missProbability: 0, latencyMaximum: 300)
        let sometimes = Self.laps(20, missProbability: 0.5, latencyMaximum: 300)
        let missed = sometimes.filter { Self.isMissed($0.action) }
        let delivered = sometimes.filter { !Self.isMissed($0.action) }
        // About half of 40 crossings are missed, and some are not.
        #expect((8...32).contains(missed.count), "\(missed.count) missed")
        // Every crossing that got through arrives when it arrives with no misses at all: the
        // latency draws did not move.
        let reportedTimes = Set(reported.map { "\($0.seconds) \($0.action)" })
        #expect(delivered.allSatisfy { reportedTimes.contains("\($0.seconds) \($0.action)") })
        #expect(delivered.count + missed.count == reported.count)
        // And which crossings are missed does not depend on the latency draws.
        let immediate = Self.laps(20, missProbability: 0.5, latencyMaximum: 0)
        #expect(immediate.filter { Self.isMissed($0.action) }.map(\.seconds) == missed.map(\.seconds))
        // The same seed gives the same misses; another seed others.
        #expect(Self.laps(20, missProbability: 0.5, latencyMaximum: 300).map(\.seconds) == sometimes.map(\.seconds))
        #expect(
            Self.laps(20, missProbability: 0.5, seed: 12).filter { Self.isMissed($0.action) }.map(\.seconds)
                != immediate.filter { Self.isMissed($0.action) }.map(\.seconds))
    }

    @Test("regionHysteresis: a small region exits no nearer its centre than it enters, a large one at radius + 50 m")
    func exitNeverInsideTheEntry() {
        func exits(radius: Double, at distance: Double) -> Bool {
            var timeline = DeviceRun.testing(Setup.authorized(.authorizedAlways, parameters: Setup.immediateRegions))
            timeline.at(0, .user(.launchedApp))
            timeline.at(1, .app(.startedMonitoring(MonitoredRegion(identifier: "r", center: DeviceRun.origin, radiusMeters: radius))))
            timeline.record(2, north: 0)
            for second in stride(from: 10.0, through: 60, by: 1) { timeline.record(second, north: distance) }
            return timeline.log.contains { $0.action == .regionEvent(identifier: "r", .exit) }
        }
        // A 25 m region (an SDK's stationary fence) enters within 100 m of its centre, so it exits
        // only beyond 100 m, not at 75 m (radius + cushion), where it would enter again.
        #expect(!exits(radius: 25, at: 95))
        #expect(exits(radius: 25, at: 105))
        // A 500 m region exits 50 m past its radius.
        #expect(!exits(radius: 500, at: 545))
        #expect(exits(radius: 500, at: 555))
    }
}
