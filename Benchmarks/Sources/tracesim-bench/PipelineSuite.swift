import BenchmarkKit
import Engine
import Foundation
import Scenarios
import Traces

/// The pipeline: the accuracy gate and odometer alone (the part the NumPy peer implements),
/// then every preset scenario's whole replay (device, permission flow, engine), as fixes/s
/// and trace seconds per wall second. Geofencing is off: presets carry no fences.
enum PipelineSuite {
    /// What the gate and odometer made of a trace; the NumPy peer must answer the same.
    struct KernelAnswer: Equatable {
        var accepted = 0
        var lowAccuracy = 0
        var impliedSpeed = 0
        var staleFirstFix = 0
        var odometerMeters = 0.0
    }

    static func run(_ bench: Bench) throws {
        bench.progress("pipeline")
        let count = bench.options.pipelineFixes
        let fixes = TraceGenerator.drive(fixes: count, seed: bench.options.seed)
        let trace = Trace(fixes: fixes, provenance: TraceProvenance(format: .canonicalCSV))
        let traceSeconds = fixes.last.map { $0.timestamp.seconds(since: fixes[0].timestamp) } ?? 0
        let input = "\(Bench.grouped(count)) fixes, \(BenchmarkReport.number(traceSeconds / 3600)) h at 1 Hz"
        let memoryLimit = memoryStreamingRate(bytes: count * MemoryLayout<Fix>.stride, bench)

        let (timing, answer) = measure(bench.options.plan) { gateAndOdometer(fixes) }
        let rate = Double(count) / timing.median
        let csv = try bench.driveFile(.csv, fixes: fixes)
        let numpy = bench.peer("pipeline_peer.py", [csv])
        let numpyAgrees = numpy.map { agree(answer, $0.answer) } ?? false
        if let numpy, !numpyAgrees { bench.fail("the NumPy gate answered \(numpy.answer), TraceSim \(answer)") }
        // The NumPy peer beside a TraceSim rate over the same fixes.
        func comparedWithNumPy(_ traceSimRate: Double) -> [PeerComparison] {
            numpy.map {
                [
                    PeerComparison(
                        peer: $0.peer, version: $0.version, timing: $0.timing, work: Double(count),
                        traceSimRate: traceSimRate, agrees: numpyAgrees)
                ]
            } ?? []
        }
        bench.record(
            BenchmarkRow(
                suite: "pipeline", name: "accuracy gate + odometer", input: input, unit: "fixes/s", timing: timing,
                work: Double(count),
                figures: [
                    "realTimeFactor": traceSeconds / timing.median,
                    "fractionOfMemoryStreamingLimit": rate * Double(MemoryLayout<Fix>.stride) / memoryLimit,
                ], peers: comparedWithNumPy(rate)))

        var idealAccepted: Int?
        for preset in Scenario.presets {
            let (timing, run) = try measure(RunPlan(warmups: 0, runs: min(3, bench.options.plan.runs))) {
                try ScenarioRunner.run(trace, preset)
            }
            // A second run must be identical (determinism), and nothing collects more than ideal.
            let again = try ScenarioRunner.run(trace, preset)
            if again.recorder.acceptedTimes != run.recorder.acceptedTimes || again.odometerMeters != run.odometerMeters
            {
                bench.fail("preset \(preset.name) gave different runs for the same seed")
            }
            if preset.name == "ideal" {
                idealAccepted = run.recorder.acceptedFixCount
                // The engine also pauses GPS while parked, so it keeps slightly fewer fixes than
                // the gate alone; a replay that lost more than 1 % of them is wrong.
                let accepted = run.recorder.acceptedFixCount
                if accepted > answer.accepted || Double(accepted) < 0.99 * Double(answer.accepted) {
                    bench.fail("the ideal replay accepted \(accepted) fixes; the gate alone \(answer.accepted)")
                }
            } else if let idealAccepted, run.recorder.acceptedFixCount > idealAccepted {
                bench.fail("preset \(preset.name) accepted more fixes than the ideal run")
            }
            let rate = Double(count) / timing.median
            bench.record(
                BenchmarkRow(
                    suite: "pipeline", name: preset.name, input: input, unit: "fixes/s", timing: timing,
                    work: Double(count),
                    figures: [
                        "realTimeFactor": traceSeconds / timing.median,
                        "acceptedFixes": Double(run.recorder.acceptedFixCount),
                        "fractionOfMemoryStreamingLimit": rate * Double(MemoryLayout<Fix>.stride) / memoryLimit,
                    ],
                    // The NumPy peer does far less than a whole replay; the ideal run shows the gap.
                    peers: preset.name == "ideal" ? comparedWithNumPy(rate) : []))
        }
    }

    /// The engine's gate and odometer over every fix, delivered when taken.
    static func gateAndOdometer(_ fixes: [Fix]) -> KernelAnswer {
        var gate = AccuracyGate()
        var odometer = Odometer()
        var answer = KernelAnswer()
        let uere = gate.configuration.uere
        for fix in fixes {
            switch gate.evaluate(fix, deliveredAt: fix.timestamp) {
            case .accept(let accepted, let held):
                if let held {
                    odometer.add(held, accuracyMeters: held.horizontalAccuracyMeters(uere: uere)?.meters)
                    answer.accepted += 1
                }
                odometer.add(accepted, accuracyMeters: accepted.horizontalAccuracyMeters(uere: uere)?.meters)
                answer.accepted += 1
            case .reject(.lowAccuracy): answer.lowAccuracy += 1
            case .reject(.impliedSpeed): answer.impliedSpeed += 1
            case .rejectHeld(.staleFirstFix): answer.staleFirstFix += 1
            case .reject, .rejectHeld, .hold: break
            }
        }
        answer.odometerMeters = odometer.meters
        return answer
    }

    /// Counts must match exactly; the odometer to a part in a billion (NumPy adds in a
    /// different order and uses its own sine and cosine).
    static func agree(_ answer: KernelAnswer, _ peer: [String: Double]) -> Bool {
        peer["accepted"] == Double(answer.accepted) && peer["lowAccuracy"] == Double(answer.lowAccuracy)
            && peer["impliedSpeed"] == Double(answer.impliedSpeed)
            && peer["staleFirstFix"] == Double(answer.staleFirstFix)
            && abs((peer["odometerMeters"] ?? -1) - answer.odometerMeters) <= 1e-9 * answer.odometerMeters
    }

    /// Bytes per second summing a buffer of `bytes` already in memory: the limit for a pass
    /// over that many fixes.
    static func memoryStreamingRate(bytes: Int, _ bench: Bench) -> Double {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes, 64), alignment: 64)
        defer { buffer.deallocate() }
        for index in 0..<buffer.count { buffer[index] = UInt8(truncatingIfNeeded: index) }
        let (timing, _) = measure(bench.options.plan) { StreamingLimit.sum(UnsafeRawBufferPointer(buffer)) }
        let rate = Double(buffer.count) / timing.median
        bench.record(
            BenchmarkRow(
                suite: "bandwidth", name: "sum bytes in memory",
                input: "\(BenchmarkReport.number(Double(buffer.count) / 1e6)) MB (the fixes' size)", unit: "MB/s",
                timing: timing, work: Double(buffer.count) / 1e6))
        return rate
    }
}
