import BenchmarkKit
import Device
import Engine
import Foundation
import Geometry
import Scenarios
import SimulationCore
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
        let csv = try bench.driveFile(.csv, fixes: fixes)
        let numpy = bench.peer("pipeline_peer.py", [csv])
        let numpyAgrees = numpy.map { agree(answer, $0.answer) } ?? false
        if let numpy, !numpyAgrees { bench.fail("the NumPy gate answered \(numpy.answer), TraceSim \(answer)") }
        // Every row over the drive's fixes: its rate in fixes/s, trace seconds per wall second,
        // its share of the memory streaming limit, and the NumPy peer beside it where asked.
        func recordFixRateRow(
            _ name: String, _ timing: Timing, figures: [String: Double] = [:], comparedWithNumPy: Bool = true
        ) {
            let rate = Double(count) / timing.median
            var figures = figures
            figures["realTimeFactor"] = traceSeconds / timing.median
            figures["fractionOfMemoryStreamingLimit"] = rate * Double(MemoryLayout<Fix>.stride) / memoryLimit
            var peers: [PeerComparison] = []
            if comparedWithNumPy, let numpy {
                peers.append(
                    PeerComparison(
                        peer: numpy.peer, version: numpy.version, timing: numpy.timing, work: Double(count),
                        traceSimRate: rate, agrees: numpyAgrees))
            }
            bench.record(
                BenchmarkRow(
                    suite: "pipeline", name: name, input: input, unit: "fixes/s", timing: timing, work: Double(count),
                    figures: figures, peers: peers))
        }
        recordFixRateRow("accuracy gate + odometer", timing)

        // The same gate and odometer as the replay runs them: the engine's own callback, fed
        // one delivery per call as the device hands them over, with its recorder, distance
        // filter and motion machine behind the gate. It must accept and measure what the
        // kernel above does.
        let (engineTiming, engineAnswer) = try measure(
            bench.options.plan,
            setup: { try TrackingEngine(configuration: movingEngine, context: GEOSContext(), expectedFixCount: count) }
        ) { engine in engineDeliveries(fixes, to: engine) }
        if engineAnswer.accepted != answer.accepted || engineAnswer.odometerMeters != answer.odometerMeters {
            bench.fail("the engine's pipeline answered \(engineAnswer), the gate and odometer \(answer)")
        }
        recordFixRateRow(Self.engineCase, engineTiming)

        // The same engine fed whole runs (`didUpdateLocationRun`), as a replay hands them to a
        // client that takes runs (issue 32): a run goes on until the engine writes a request.
        // It must record exactly what the engine fed one delivery per call did.
        let deliveries = fixes.map { LocationDelivery(fix: $0, time: $0.timestamp) }
        let (runsTiming, runsAnswer) = try measure(
            bench.options.plan,
            setup: { try TrackingEngine(configuration: movingEngine, context: GEOSContext(), expectedFixCount: count) }
        ) { engine in engineRuns(deliveries, to: engine) }
        if runsAnswer != engineAnswer {
            bench.fail("the engine in runs answered \(runsAnswer), one delivery per call \(engineAnswer)")
        }
        recordFixRateRow(Self.engineRunsCase, runsTiming)

        var idealAccepted: Int?
        // What every run of the trace shares (its path, unobserved spans, covered seconds) is
        // measured once, like the import, outside the timed replays: a matrix does the same.
        let measures = TraceMeasures(trace)
        for preset in Scenario.presets {
            let (timing, run) = try measure(RunPlan(warmups: 0, runs: min(3, bench.options.plan.runs))) {
                try ScenarioRunner.run(measures, preset)
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
            // The NumPy peer does far less than a whole replay; the ideal run shows the gap.
            recordFixRateRow(
                preset.name, timing, figures: ["acceptedFixes": Double(run.recorder.acceptedFixCount)],
                comparedWithNumPy: preset.name == "ideal")
        }
        recordRunRows(trace, input: input, bench)
    }

    /// The ideal phone with an app whose own work costs nothing (`RunTakingClient`): the device
    /// and the replay alone, one location per call, in runs of locations (issue 32), and in runs
    /// cut every seven locations by a request, the built-in engine's rhythm when driving.
    static func recordRunRows(_ trace: Trace, input: String, _ bench: Bench) {
        guard let ideal = Scenario.preset(named: "ideal") else { return }
        let count = trace.fixes.count
        let cases = [
            ("ideal, a client that counts", RunTakingClient(takesRuns: false)),
            ("ideal, a client that takes runs", RunTakingClient(takesRuns: true)),
            ("ideal, a client that takes runs, asking every 7", RunTakingClient(takesRuns: true, requestEvery: 7)),
        ]
        for (name, client) in cases {
            let (timing, locations) = measure(RunPlan(warmups: 0, runs: min(3, bench.options.plan.runs))) {
                ScenarioRunner.replay(trace, ideal, client: client).replay.client.locations
            }
            if locations == 0 { bench.fail("\(name): nothing delivered") }
            bench.record(
                BenchmarkRow(
                    suite: "pipeline", name: name, input: input, unit: "fixes/s", timing: timing,
                    work: Double(count), figures: ["deliveredLocations": Double(locations)]))
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

    /// The row of the gate and odometer as the replay runs them.
    static let engineCase = "engine pipeline (gate + odometer as replayed)"

    /// The default engine, moving from the start (as after `changePace(true)`), so its GPS is
    /// on for the whole drive as in the ideal replay's drives.
    static var movingEngine: EngineConfiguration {
        var configuration = EngineConfiguration()
        configuration.startsMoving = true
        return configuration
    }

    /// Every fix through `TrackingEngine.didUpdateLocations`, the call a replay makes, one
    /// delivery per call at the fix's own time.
    static func engineDeliveries(_ fixes: [Fix], to engine: TrackingEngine) -> KernelAnswer {
        var requests: [LocationClientRequest<EngineTimer>] = []
        requests.reserveCapacity(16)
        var delivery: [LocationDelivery] = []
        delivery.reserveCapacity(1)
        let launch = LocationClientLaunch(
            authorizationStatus: .authorizedAlways, accuracyAuthorization: .fullAccuracy,
            motionAuthorizationStatus: .authorized, isMotionActivityAvailable: true)
        engine.start(launch, at: fixes.first?.timestamp ?? SimInstant(nanosecondsSinceEpoch: 0), into: &requests)
        for fix in fixes {
            delivery.append(LocationDelivery(fix: fix, time: fix.timestamp))
            engine.didUpdateLocations(delivery, at: fix.timestamp, into: &requests)
            delivery.removeLast()
            // What the engine asks of the device (the moving region every 100 m) is dropped:
            // there is no device here.
            while !requests.isEmpty { requests.removeLast() }
        }
        return answer(engine)
    }

    /// The row of the engine fed runs.
    static let engineRunsCase = "engine pipeline, runs"

    /// Every delivery through `TrackingEngine.didUpdateLocationRun`, each run from the first
    /// unhandled delivery to the end; the requests the engine writes are dropped, as above.
    static func engineRuns(_ deliveries: [LocationDelivery], to engine: TrackingEngine) -> KernelAnswer {
        var requests: [LocationClientRequest<EngineTimer>] = []
        requests.reserveCapacity(16)
        let launch = LocationClientLaunch(
            authorizationStatus: .authorizedAlways, accuracyAuthorization: .fullAccuracy,
            motionAuthorizationStatus: .authorized, isMotionActivityAvailable: true)
        engine.start(launch, at: deliveries.first?.time ?? SimInstant(nanosecondsSinceEpoch: 0), into: &requests)
        var next = deliveries.startIndex
        while next < deliveries.endIndex {
            next += engine.didUpdateLocationRun(LocationRun(deliveries[next...]), into: &requests)
            requests.removeAll(keepingCapacity: true)
        }
        return answer(engine)
    }

    /// What the engine's recorder and odometer say, in the kernel's terms.
    static func answer(_ engine: TrackingEngine) -> KernelAnswer {
        var answer = KernelAnswer()
        answer.accepted = engine.recorder.acceptedFixCount
        answer.lowAccuracy = engine.recorder.rejectionCount(.lowAccuracy)
        answer.impliedSpeed = engine.recorder.rejectionCount(.impliedSpeed)
        answer.staleFirstFix = engine.recorder.rejectionCount(.staleFirstFix)
        answer.odometerMeters = engine.odometerMeters
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
