import BenchmarkKit
import Device
import Engine
import EngineProtocol
import Foundation
import Geometry
import Scenarios
import SimulationCore
import Traces

#if canImport(Glibc)
    import Glibc
#endif

/// The subprocess engine protocol: lock-step events per second between TraceSim and an engine
/// process, on the bundled MTV drive through the ideal scenario (one delivery per fix). Two
/// engines: a trivial Python engine (starts updates, answers `done`: the protocol's own cost,
/// the issue's target of 20,000 events/s) and the built-in engine behind `serve-engine` (this
/// benchmark binary serves it through the command-line library, as `tracesim serve-engine`
/// does). The process is started in the warm-up and reused, as a matrix worker reuses it.
/// Each run's event count comes from an in-process twin of the engine that counts callbacks:
/// the replay is deterministic, so the subprocess sees exactly as many.
enum ProtocolSuite {
    static func run(_ bench: Bench) throws {
        bench.progress("protocol")
        let path = bench.options.root + "/Traces/gps-measurement-tools/MTV.Local1.SPAN.20200206-181434.gga"
        let trace = try TraceImporter.load(
            path: path, options: ImportOptions(nmeaStartDate: CalendarDate("2020-02-07")))
        guard let scenario = Scenario.preset(named: "ideal") else {
            throw MergeSuite.BenchError(description: "no ideal preset")
        }
        let python = bench.options.python ?? "python3"
        let engines: [(name: String, command: String, events: Int, check: (ScenarioRun) -> Bool)] = [
            (
                "trivial Python engine", "\(python) \(bench.options.root)/Benchmarks/peers/trivial_engine.py",
                countedEvents(trace, scenario, client: StartOnlyClient()), { $0.recorder.deliveredFixCount == 0 }
            ),
            (
                "serve-engine (built-in)", "\(CommandLine.arguments[0]) serve-engine",
                countedEvents(trace, scenario, client: try builtIn(scenario, trace)),
                { run in
                    let direct = try? ScenarioRunner.run(trace, scenario)
                    return run.recorder.acceptedTimes == direct?.recorder.acceptedTimes
                        && run.odometerMeters == direct?.odometerMeters
                }
            ),
        ]
        let (inProcess, _) = try measure(bench.options.plan) { try ScenarioRunner.run(trace, scenario) }
        // The floor: the same number of bare line round trips to the same Python process,
        // with no replay, no JSON and no protocol checks on TraceSim's side.
        let roundTrips = engines[0].events
        let pingPong = try PingPong(command: engines[0].command)
        let (floor, answered) = try measure(bench.options.plan) { try pingPong.exchange(roundTrips) }
        if answered != roundTrips { bench.fail("protocol: the ping-pong lost answers") }
        bench.record(
            BenchmarkRow(
                suite: "protocol", name: "bare round trips to the trivial Python engine",
                input: "\(Bench.grouped(roundTrips)) lines", unit: "events/s", timing: floor, work: Double(roundTrips),
                figures: ["microsecondsPerEvent": floor.median / Double(roundTrips) * 1e6]))
        for engine in engines {
            let subprocess = EngineUnderTest.subprocess(command: engine.command, timeoutSeconds: 10)
            let (timing, run) = try measure(bench.options.plan) {
                try ScenarioRunner.run(trace, scenario, engine: subprocess, traceName: "MTV")
            }
            if !engine.check(run) { bench.fail("protocol: \(engine.name) did not record what was expected") }
            bench.record(
                BenchmarkRow(
                    suite: "protocol", name: engine.name,
                    input: "MTV drive, ideal: \(Bench.grouped(engine.events)) lock-step events",
                    unit: "events/s", timing: timing, work: Double(engine.events),
                    figures: [
                        "microsecondsPerEvent": timing.median / Double(engine.events) * 1e6,
                        "inProcessSeconds": inProcess.median,
                    ]))
        }
        try ProtocolRunsSuite.run(bench)
    }

    /// Callbacks of one replay plus its `reset`: the round trips a subprocess makes.
    static func countedEvents<Client: LocationClient>(_ trace: Trace, _ scenario: Scenario, client: Client) -> Int {
        let counting = CountingClient(inner: client)
        let replay = ScenarioRunner.replay(trace, scenario, client: counting).replay
        return replay.client.events + 1
    }

    static func builtIn(_ scenario: Scenario, _ trace: Trace) throws -> TrackingEngine {
        try TrackingEngine(
            configuration: scenario.engine, context: GEOSContext(), expectedFixCount: trace.fixes.count)
    }
}

/// What the trivial Python engine does: start updates at launch, nothing else.
struct StartOnlyClient: LocationClient {
    mutating func start(
        _ launch: LocationClientLaunch, at now: SimInstant, into requests: inout [LocationClientRequest<Never>]
    ) {
        requests.append(.device(.startedLocationUpdates(LocationUpdateOptions())))
    }
    mutating func didUpdateLocations(
        _ locations: [LocationDelivery], at now: SimInstant, into requests: inout [LocationClientRequest<Never>]
    ) {}
    mutating func finish(at now: SimInstant) {}
}

/// Forwards every callback to `inner` and counts them.
struct CountingClient<Inner: LocationClient>: LocationClient {
    typealias Timer = Inner.Timer
    var inner: Inner
    var events = 0

    mutating func start(
        _ launch: LocationClientLaunch, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]
    ) {
        events += 1
        inner.start(launch, at: now, into: &requests)
    }
    mutating func didUpdateLocations(
        _ locations: [LocationDelivery], at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]
    ) {
        events += 1
        inner.didUpdateLocations(locations, at: now, into: &requests)
    }
    mutating func didReceiveSignificantChange(
        _ location: Fix, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]
    ) {
        events += 1
        inner.didReceiveSignificantChange(location, at: now, into: &requests)
    }
    mutating func didUpdateMotionActivity(
        _ sample: MotionSample, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]
    ) {
        events += 1
        inner.didUpdateMotionActivity(sample, at: now, into: &requests)
    }
    mutating func didCrossRegion(
        _ identifier: String, _ crossing: RegionCrossing, at now: SimInstant,
        into requests: inout [LocationClientRequest<Timer>]
    ) {
        events += 1
        inner.didCrossRegion(identifier, crossing, at: now, into: &requests)
    }
    mutating func monitoringDidFail(
        forRegion identifier: String, _ rule: DeviceRule, at now: SimInstant,
        into requests: inout [LocationClientRequest<Timer>]
    ) {
        events += 1
        inner.monitoringDidFail(forRegion: identifier, rule, at: now, into: &requests)
    }
    mutating func didVisit(_ visit: VisitEvent, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>])
    {
        events += 1
        inner.didVisit(visit, at: now, into: &requests)
    }
    mutating func didChangeAuthorization(
        _ status: AuthorizationStatus, _ accuracy: AccuracyAuthorization, at now: SimInstant,
        into requests: inout [LocationClientRequest<Timer>]
    ) {
        events += 1
        inner.didChangeAuthorization(status, accuracy, at: now, into: &requests)
    }
    mutating func didChangeMotionAuthorization(
        _ status: MotionAuthorizationStatus, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]
    ) {
        events += 1
        inner.didChangeMotionAuthorization(status, at: now, into: &requests)
    }
    mutating func didCompleteTemporaryFullAccuracyRequest(
        granted: Bool, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]
    ) {
        events += 1
        inner.didCompleteTemporaryFullAccuracyRequest(granted: granted, at: now, into: &requests)
    }
    mutating func didFailLocationUpdates(
        _ rule: DeviceRule, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]
    ) {
        events += 1
        inner.didFailLocationUpdates(rule, at: now, into: &requests)
    }
    mutating func didPauseLocationUpdates(at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]) {
        events += 1
        inner.didPauseLocationUpdates(at: now, into: &requests)
    }
    mutating func didLaunch(
        _ reason: LaunchReason, inBackground: Bool, at now: SimInstant,
        into requests: inout [LocationClientRequest<Timer>]
    ) {
        events += 1
        inner.didLaunch(reason, inBackground: inBackground, at: now, into: &requests)
    }
    mutating func timerFired(_ timer: Timer, at now: SimInstant, into requests: inout [LocationClientRequest<Timer>]) {
        events += 1
        inner.timerFired(timer, at: now, into: &requests)
    }
    mutating func finish(at now: SimInstant) {
        events += 1
        inner.finish(at: now)
    }
}

/// A process spoken to in bare lines: one line out, one line back, nothing parsed.
final class PingPong {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer = [UInt8](repeating: 0, count: 65_536)

    init(command: String) throws {
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Writes all of `bytes` to the engine.
    func send(_ bytes: [UInt8]) throws {
        let out = input.fileHandleForWriting.fileDescriptor
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(out, $0.baseAddress, $0.count) }
            guard count > 0 else { throw MergeSuite.BenchError(description: "ping-pong: write failed") }
            written += count
        }
    }

    /// Reads what the engine wrote so far into `chunk` (at least a byte): how many bytes.
    func receive(into chunk: inout [UInt8]) throws -> Int {
        let back = output.fileHandleForReading.fileDescriptor
        let read = chunk.withUnsafeMutableBytes { Glibc.read(back, $0.baseAddress, $0.count) }
        guard read > 0 else { throw MergeSuite.BenchError(description: "ping-pong: the engine ended") }
        return read
    }

    /// Sends `count` event lines, each after the previous answer; returns the answers read.
    func exchange(_ count: Int) throws -> Int {
        let line = Array(#"{"type":"timerFired","now":1581041612000000000,"timer":"t"}"#.utf8) + [0x0A]
        let out = input.fileHandleForWriting.fileDescriptor
        let back = output.fileHandleForReading.fileDescriptor
        var answered = 0
        for _ in 0..<count {
            guard line.withUnsafeBytes({ write(out, $0.baseAddress, $0.count) }) == line.count else {
                throw MergeSuite.BenchError(description: "ping-pong: write failed")
            }
            var sawNewline = false
            while !sawNewline {
                let read = buffer.withUnsafeMutableBytes { Glibc.read(back, $0.baseAddress, $0.count) }
                guard read > 0 else { throw MergeSuite.BenchError(description: "ping-pong: the engine ended") }
                sawNewline = buffer[0..<read].contains(0x0A)
            }
            answered += 1
        }
        return answered
    }
}
