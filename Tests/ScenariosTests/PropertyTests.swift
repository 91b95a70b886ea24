import Device
import Engine
import Scenarios
import SimulationCore
import TestSupport
import Testing
import Traces

/// Properties checked on generated traces and scenarios (GeneratedInputs): a dozen cases by
/// default, hundreds of longer ones with TRACESIM_LONG_TESTS=1.
@Suite("Properties on generated traces")
struct PropertyTests {
    @Test("converting to CSV, JSON Lines or GPX and back gives every fix back exactly")
    func roundTrips() throws {
        for seed in 0..<UInt64(GeneratedInputs.caseCount) {
            let trace = GeneratedInputs.trace(seed: seed)
            for format in ExportFormat.allCases {
                let text = TraceExporter.export(trace, as: format)
                let back = try TraceImporter.read(Array(text.utf8), name: "generated.\(format.rawValue)")
                #expect(back.fixes.count == trace.fixes.count, "seed \(seed), \(format)")
                let first = zip(back.fixes, trace.fixes).enumerated().first { $0.element.0 != $0.element.1 }
                #expect(first == nil, "seed \(seed), \(format): fix \(first?.offset ?? -1) differs")
            }
        }
    }

    @Test("a replay is deterministic: the same trace, scenario and seed give the same record")
    func replayIsDeterministic() throws {
        for seed in 0..<UInt64(GeneratedInputs.caseCount) {
            let trace = GeneratedInputs.trace(seed: seed)
            var scenario = Scenario(
                name: "generated", summary: "random timeline", timeline: GeneratedInputs.timeline(seed: seed))
            scenario.seed = seed
            scenario.device.authorization.isPrecise = seed % 2 == 0
            let first = try ScenarioRunner.run(trace, scenario)
            let second = try ScenarioRunner.run(trace, scenario)
            #expect(first.recorder.acceptedTimes == second.recorder.acceptedTimes, "seed \(seed)")
            #expect(
                first.recorder.recordedIndices == second.recorder.recordedIndices
                    && first.recorder.acceptedPositions == second.recorder.acceptedPositions, "seed \(seed)")
            #expect(first.odometerMeters == second.odometerMeters && first.deliveryTimes == second.deliveryTimes)
        }
    }

    @Test("a weaker permission never collects more: Always ≥ When-In-Use ≥ Allow Once ≥ Denied")
    func monotoneDegradation() throws {
        for seed in 0..<UInt64(GeneratedInputs.caseCount) {
            let trace = GeneratedInputs.trace(seed: seed)
            let timeline = GeneratedInputs.timeline(seed: seed)
            let levels: [(String, (inout Device.Configuration) -> Void)] = [
                ("always", { _ in }),
                ("when-in-use", { $0.authorization.storedStatus = .authorizedWhenInUse }),
                (
                    "allow-once",
                    {
                        $0.authorization.storedStatus = .authorizedWhenInUse
                        $0.authorization.isAllowOnce = true
                    }
                ),
                ("denied", { $0.authorization.storedStatus = .denied }),
            ]
            var collected: [(level: String, delivered: Int, accepted: Int)] = []
            for (name, change) in levels {
                var device = Scenario.idealDevice
                change(&device)
                var scenario = Scenario(name: name, summary: name, device: device, timeline: timeline)
                scenario.seed = seed
                let run = try ScenarioRunner.run(trace, scenario)
                collected.append((name, run.deliveryTimes.count, run.recorder.acceptedFixCount))
            }
            for (stronger, weaker) in zip(collected, collected.dropFirst()) {
                #expect(
                    stronger.delivered >= weaker.delivered,
                    "seed \(seed): \(weaker.level) got \(weaker.delivered) fixes, \(stronger.level) \(stronger.delivered)")
                #expect(
                    stronger.accepted >= weaker.accepted,
                    "seed \(seed): \(weaker.level) accepted \(weaker.accepted), \(stronger.level) \(stronger.accepted)")
            }
            #expect(collected.last?.delivered == 0)
        }
    }
}
