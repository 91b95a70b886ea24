import Device
import Engine
import Foundation
import Geometry
import Scenarios
import SimulationCore
import Traces

/// Seeded inputs for the property tests: traces with every optional field sometimes absent,
/// accuracy measured, from a dilution or missing, several providers, stops and jumps; and
/// timelines of locks, unlocks and trips to the background.
package enum GeneratedInputs {
    /// Whether the long versions run (`TRACESIM_LONG_TESTS=1`): many more and longer cases.
    package static let isLong = ProcessInfo.processInfo.environment["TRACESIM_LONG_TESTS"] != nil

    /// How many cases a property runs: a handful by default, hundreds in the long run.
    package static var caseCount: Int { isLong ? 300 : 12 }

    package static func trace(seed: UInt64) -> Trace {
        var random = SplitMix64(seed: seed)
        let count = Int(random.uniform(50...(isLong ? 20_000 : 1_500)))
        let start = SimInstant(nanosecondsSinceEpoch: 1_600_000_000_000_000_000 + Int64(seed % 1_000) * 86_400_000_000_000)
        var latitude = random.uniform(-60...60)
        var longitude = random.uniform(-170...170)
        var heading = random.uniform(0...360)
        var speed = random.uniform(0...25)
        var time = start
        var fixes: [Fix] = []
        let providers: [Provider] = [.gps, .fused, .network, .unknown]
        for _ in 0..<count {
            // Mostly 1 Hz, sometimes a gap of minutes, sometimes sub-second.
            let roll = random.uniform(0...1)
            let step = roll < 0.01 ? random.uniform(60...900) : roll < 0.05 ? random.uniform(0.1...0.9) : 1
            time = time.advanced(byNanoseconds: Int64((step * 1e9).rounded()))
            speed = random.uniform(0...1) < 0.01 ? 0 : min(40, max(0, speed + random.uniform(-2...2)))
            heading = (heading + random.uniform(-10...10) + 360).truncatingRemainder(dividingBy: 360)
            latitude += speed * step * cos(heading * .pi / 180) / 111_195
            longitude += speed * step * sin(heading * .pi / 180) / (111_195 * cos(latitude * .pi / 180))
            var reported = latitude
            if random.uniform(0...1) < 0.005 { reported += random.uniform(-0.05...0.05) }
            let accuracy: Accuracy? =
                switch random.next() % 10 {
                case 0: nil
                case 1, 2: .dilution((random.uniform(0.5...20) * 10).rounded() / 10)
                default: .meters((random.uniform(2...250) * 100).rounded() / 100)
                }
            fixes.append(
                Fix(
                    timestamp: time, latitude: (reported * 1e7).rounded() / 1e7,
                    longitude: (longitude * 1e7).rounded() / 1e7,
                    altitudeMeters: random.next() % 4 == 0 ? nil : (random.uniform(-50...3_000) * 100).rounded() / 100,
                    horizontalAccuracy: accuracy,
                    verticalAccuracy: random.next() % 3 == 0 ? nil : .meters(Double(Float(random.uniform(1...60)))),
                    speedMetersPerSecond: random.next() % 5 == 0 ? nil : Float(speed),
                    speedAccuracyMetersPerSecond: random.next() % 2 == 0 ? nil : Float(random.uniform(0.1...5)),
                    courseDegrees: random.next() % 5 == 0 ? nil : Float(heading),
                    courseAccuracyDegrees: random.next() % 2 == 0 ? nil : Float(random.uniform(1...90)),
                    provider: providers[Int(random.next() % 4)]))
        }
        return Trace(fixes: fixes, provenance: TraceProvenance(format: .canonicalCSV))
    }

    /// Random locks, unlocks and trips to the background, sorted by time.
    package static func timeline(seed: UInt64) -> [Scenario.TimelineEvent] {
        var random = SplitMix64(seed: seed ^ 0x5EED)
        let events: [DeviceEvent] = [
            .user(.lockedScreen), .user(.unlockedScreen), .user(.movedAppToBackground), .user(.movedAppToForeground),
        ]
        let count = Int(random.next() % 7)
        return (0..<count).map { _ in random.uniform(0...1) }.sorted().map {
            Scenario.TimelineEvent(.fraction($0), events[Int(random.next() % 4)])
        }
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension GeneratedInputs {
    /// The built-in engine as a custom engine would make it for `context`: what a test's own
    /// engine wraps when only its failures or its calls are under test.
    package static func builtInClient(_ context: EngineContext) throws(EngineFailure) -> TrackingEngine {
        do {
            return try TrackingEngine(
                configuration: context.scenario.engine, fences: context.fences, context: GEOSContext(),
                expectedFixCount: context.expectedFixCount)
        } catch {
            throw EngineFailure("\(error)")
        }
    }
}
