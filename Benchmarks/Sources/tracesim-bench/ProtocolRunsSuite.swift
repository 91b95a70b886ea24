import BenchmarkKit
import Device
import Foundation
import Scenarios
import SimulationCore
import Traces

#if canImport(Glibc)
    import Glibc
#endif

/// The engine protocol in runs (issue 32's target: the trivial Python engine takes at least
/// 300 k delivered locations/s on the generated 10⁶-fix drive): delivered locations per second,
/// counted as locations whatever the number of messages, through the ideal scenario. The floor
/// in the same run: the very lines TraceSim sent (captured once through `tee`) written to the
/// same Python engine in lock step, with no replay and no encoding on TraceSim's side.
///
/// With runs the engine gets up to 4,096 locations a message; until the replay hands runs over,
/// it gets one a message, and the row shows it (and takes about a minute).
enum ProtocolRunsSuite {
    /// The row the issue's target is judged on.
    static let runsCase = "trivial Python engine, in runs"

    static func run(_ bench: Bench) throws {
        bench.progress("protocol (runs)")
        let count = bench.options.pipelineFixes
        let trace = Trace(
            fixes: TraceGenerator.drive(fixes: count, seed: bench.options.seed),
            provenance: TraceProvenance(format: .canonicalCSV))
        guard let scenario = Scenario.preset(named: "ideal") else {
            throw MergeSuite.BenchError(description: "no ideal preset")
        }
        let python = bench.options.python ?? "python3"
        let engine = "\(python) \(bench.options.root)/Benchmarks/peers/trivial_engine.py"
        let probe = ScenarioRunner.replay(trace, scenario, client: DeliveryCountingClient()).replay.client
        let locations = probe.locations
        let input = "generated drive, \(Bench.grouped(count)) fixes, ideal: \(Bench.grouped(locations)) locations"

        // The lines TraceSim sends, captured once outside the measurement.
        try FileManager.default.createDirectory(atPath: bench.options.work, withIntermediateDirectories: true)
        let capture = "\(bench.options.work)/protocol-runs-\(count).jsonl"
        _ = try ScenarioRunner.run(
            trace, scenario, engine: .subprocess(command: "tee \(capture) | \(engine)", timeoutSeconds: 60),
            traceName: "drive")
        let lines = try Data(contentsOf: URL(fileURLWithPath: capture)).split(separator: 0x0A).map {
            Array($0) + [0x0A]
        }
        let runLines = lines.filter { $0.starts(with: Array(#"{"type":"didUpdateLocationRun""#.utf8)) }.count
        let plan = RunPlan(warmups: 1, runs: min(3, bench.options.plan.runs))
        // The hello is answered by a hello, not a done: the floor starts after it.
        let replayedLines = Array(lines.dropFirst())
        let pipe = try PingPong(command: engine)
        let (floor, answered) = try measure(plan) { try pipe.exchange(lines: replayedLines) }
        if answered != replayedLines.count { bench.fail("protocol (runs): the floor lost answers") }
        let bytes = replayedLines.reduce(0) { $0 + $1.count }
        bench.record(
            BenchmarkRow(
                suite: "protocol", name: "bare round trips of TraceSim's lines to the trivial Python engine",
                input: "\(input), \(Bench.grouped(replayedLines.count)) lines (\(Bench.grouped(runLines)) runs), "
                    + "\(Bench.grouped(bytes / 1_000_000)) MB",
                unit: "locations/s", timing: floor, work: Double(locations),
                figures: ["locationsPerLine": Double(locations) / Double(max(1, replayedLines.count - 2))]))

        let subprocess = EngineUnderTest.subprocess(command: engine, timeoutSeconds: 60)
        let (timing, run) = try measure(plan) {
            try ScenarioRunner.run(trace, scenario, engine: subprocess, traceName: "drive")
        }
        if run.recorder.deliveredFixCount != 0 { bench.fail("protocol (runs): the trivial engine recorded fixes") }
        bench.record(
            BenchmarkRow(
                suite: "protocol", name: runsCase,
                input: "\(input), \(Bench.grouped(runLines)) run messages", unit: "locations/s", timing: timing,
                work: Double(locations),
                figures: [
                    "fractionOfFloor": floor.median / timing.median,
                    "runMessages": Double(runLines),
                ]))
    }
}

/// What the trivial Python engine does (start updates, nothing else), taking runs, counting
/// every location it is handed either way.
struct DeliveryCountingClient: LocationClient {
    var locations = 0
    var takesLocationRuns: Bool { true }

    mutating func start(
        _ launch: LocationClientLaunch, at now: SimInstant, into requests: inout [LocationClientRequest<Never>]
    ) {
        requests.append(.device(.startedLocationUpdates(LocationUpdateOptions())))
    }
    mutating func didUpdateLocations(
        _ locations: [LocationDelivery], at now: SimInstant, into requests: inout [LocationClientRequest<Never>]
    ) {
        self.locations += locations.count
    }
    mutating func didUpdateLocationRun(_ run: LocationRun, into requests: inout [LocationClientRequest<Never>]) -> Int {
        locations += run.deliveries.count
        return run.deliveries.count
    }
    mutating func finish(at now: SimInstant) {}
}

extension PingPong {
    /// Sends each of `lines` (newline included) after the answer to the previous one is
    /// complete (it ends in a `done`); returns the answers read.
    func exchange(lines: [[UInt8]]) throws -> Int {
        let done = Array(#"{"type":"done"}"#.utf8) + [0x0A]
        var answered = 0
        var tail: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        for line in lines {
            try send(line)
            tail.removeAll(keepingCapacity: true)
            while !(tail.count >= done.count && tail.suffix(done.count).elementsEqual(done)) {
                let read = try receive(into: &chunk)
                tail += chunk[0..<read].suffix(done.count)
            }
            answered += 1
        }
        return answered
    }
}
