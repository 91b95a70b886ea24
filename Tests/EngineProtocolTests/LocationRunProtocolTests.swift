import ConfigJSON
import Device
import Engine
@testable import EngineProtocol
import Foundation
import Geometry
import Scenarios
import SimulationCore
import TestSupport
import Testing
import Traces

/// The engine protocol in runs (capability `runs`, issue 32): the run message's bytes, the
/// client's checks of the answer, and the same record with runs as without, for the built-in
/// engine served in-process and for the Python example engine.
@Suite("Engine protocol in runs")
struct LocationRunProtocolTests {
    static let mtv: Trace = {
        do {
            return try TraceImporter.load(path: Paths.mtv, options: ImportOptions(nmeaStartDate: CalendarDate("2020-02-07")))
        } catch {
            fatalError("bundled trace: \(error)")
        }
    }()

    /// Each fix of `trace` delivered at its own timestamp.
    static func deliveries(_ trace: Trace) -> [LocationDelivery] {
        trace.fixes.map { LocationDelivery(fix: $0, time: $0.timestamp) }
    }

    static let launch = LocationClientLaunch(
        authorizationStatus: .authorizedAlways, accuracyAuthorization: .fullAccuracy,
        motionAuthorizationStatus: .authorized, isMotionActivityAvailable: true)

    static func context(_ trace: Trace, _ scenario: String = "always-precise") throws -> EngineContext {
        EngineContext(
            scenario: try #require(Scenario.preset(named: scenario)), fences: [], traceName: "mtv",
            expectedFixCount: trace.fixes.count)
    }

    /// `deliveries` with the device held still for 400 s after the 100th, the rest later by
    /// as much: the Python example stops updates 300 s into it, in the middle of a run.
    static func withStop(_ deliveries: [LocationDelivery]) -> [LocationDelivery] {
        let still = deliveries[99]
        let pause: Int64 = 400
        var result = Array(deliveries.prefix(100))
        for second in 1...pause {
            var fix = still.fix
            fix.timestamp = SimInstant(nanosecondsSinceEpoch: fix.timestamp.nanosecondsSinceEpoch + second * 1_000_000_000)
            result.append(LocationDelivery(fix: fix, time: fix.timestamp))
        }
        for delivery in deliveries.dropFirst(100) {
            var fix = delivery.fix
            fix.timestamp = SimInstant(nanosecondsSinceEpoch: fix.timestamp.nanosecondsSinceEpoch + pause * 1_000_000_000)
            result.append(LocationDelivery(fix: fix, time: fix.timestamp))
        }
        return result
    }

    // MARK: The message

    @Test("a run line carries its count first and each location exactly as didUpdateLocations writes it")
    func runLineBytes() throws {
        var full = Fix(
            timestamp: SimInstant(nanosecondsSinceEpoch: -1_500_000_000), latitude: -33.856784, longitude: 151.215297)
        full.altitudeMeters = -12.25
        full.horizontalAccuracy = .dilution(1.3)
        full.verticalAccuracy = .meters(4.7)
        full.speedMetersPerSecond = 13.4
        full.speedAccuracyMetersPerSecond = 0.5
        full.courseDegrees = 359.9
        full.courseAccuracyDegrees = 2
        full.provider = .gps
        let deliveries =
            [LocationDelivery(fix: full, time: SimInstant(nanosecondsSinceEpoch: 0))]
            + Self.deliveries(Self.mtv).prefix(40)
        var message = LocationRunMessage()
        message.write(deliveries[...])
        let expected =
            #"{"type":"didUpdateLocationRun","count":41,"locations":["#
            + deliveries.map { ProtocolValues.fix($0.fix, deliveredAt: $0.time) }.joined(separator: ",") + "]}\n"
        #expect(String(decoding: message.bytes, as: UTF8.self) == expected)
        // The buffer is reused: a shorter run leaves nothing of the longer one behind.
        message.write(deliveries[1..<2])
        #expect(
            String(decoding: message.bytes, as: UTF8.self)
                == #"{"type":"didUpdateLocationRun","count":1,"locations":["#
                + ProtocolValues.fix(deliveries[1].fix, deliveredAt: deliveries[1].time) + "]}\n")
        message.write(deliveries[...])
        let (value, type) = try JSONValue.message(message.bytes.dropLast())
        #expect(type == LocationRunMessage.type)
        #expect(try LocationRunMessage.parse(value) == deliveries)
    }

    @Test(
        "the serving side refuses a run line whose count is wrong, whose locations are empty, or that it did not ask for",
        arguments: [
            (
                #"{"type":"didUpdateLocationRun","count":2,"locations":[{"timestamp":1,"deliveredAt":1,"latitude":0,"longitude":0}]}"#,
                #"didUpdateLocationRun: "count" is 2, but "locations" holds 1"#
            ),
            (#"{"type":"didUpdateLocationRun","count":0,"locations":[]}"#, #"didUpdateLocationRun: "locations" is empty"#),
            (
                #"{"type":"didUpdateLocationRun","count":1,"locations":[{"timestamp":1,"latitude":0,"longitude":0}]}"#,
                #"didUpdateLocationRun: locations[0]: "deliveredAt" is missing"#
            ),
            (
                #"{"type":"didUpdateLocationRun","locations":[{"timestamp":1,"deliveredAt":1,"latitude":0,"longitude":0}]}"#,
                #"didUpdateLocationRun: "count" is missing"#
            ),
        ])
    func servingSideChecksRunLines(line: String, message: String) throws {
        let opening = [RunMessages.helloLine, RunMessages.resetLine(try Self.context(Self.mtv))]
        for declaresRuns in [true, false] {
            var server = EngineServer(declaresRuns: declaresRuns)
            for line in opening { _ = try server.answer(Array(line.utf8)[...]) }
            do {
                _ = try server.answer(Array(line.utf8)[...])
                Issue.record("accepted \(line)")
            } catch {
                let expected =
                    declaresRuns ? message : "'didUpdateLocationRun' from a TraceSim this engine did not declare 'runs' to"
                #expect(error.message == expected)
            }
        }
    }

    @Test("serve-engine declares runs in version 2 unless told not to, and never in version 1")
    func serverDeclaresRuns() throws {
        let hello = Array(RunMessages.helloLine.utf8)[...]
        var withRuns = EngineServer()
        #expect(try withRuns.answer(hello).contains(#""capabilities":["replaceTimers","runs"]"#))
        var withoutRuns = EngineServer(declaresRuns: false)
        #expect(try withoutRuns.answer(hello).contains(#""capabilities":["replaceTimers"]}"#))
        var version1 = EngineServer(highestVersion: 1)
        #expect(try !version1.answer(hello).contains("capabilities"))
    }

    // MARK: The client against the built-in engine

    /// What a client did with the MTV drive's fixes: each request with the index of the
    /// delivery it answered, and the record.
    struct Outcome: Equatable, Sendable {
        var requests: [(Int, LocationClientRequest<SubprocessTimer>)]
        var accepted: [SimInstant]
        var recorded: [UInt32]
        var delivered: Int
        var motion: [Recorder.MotionTransition]
        var odometer: Double
        var rejections: [Int]

        static func == (lhs: Outcome, rhs: Outcome) -> Bool {
            lhs.requests.map(\.0) == rhs.requests.map(\.0) && lhs.requests.map(\.1) == rhs.requests.map(\.1)
                && lhs.accepted == rhs.accepted && lhs.recorded == rhs.recorded && lhs.delivered == rhs.delivered
                && lhs.motion == rhs.motion && lhs.odometer == rhs.odometer && lhs.rejections == rhs.rejections
        }
    }

    /// Starts `client`, hands it every delivery (in runs when `inRuns`), and finishes it.
    static func drive(
        _ client: SubprocessClient, _ deliveries: [LocationDelivery], inRuns: Bool
    ) -> (outcome: Outcome, consumedCounts: [Int]) {
        var requests: [LocationClientRequest<SubprocessTimer>] = []
        var answered: [(Int, LocationClientRequest<SubprocessTimer>)] = []
        var counts: [Int] = []
        client.start(launch, at: deliveries[0].time, into: &requests)
        answered += requests.map { (-1, $0) }
        var index = 0
        while index < deliveries.count {
            requests.removeAll()
            let handled: Int
            if inRuns {
                handled = client.didUpdateLocationRun(LocationRun(deliveries[index...]), into: &requests)
                counts.append(handled)
            } else {
                client.didUpdateLocations([deliveries[index]], at: deliveries[index].time, into: &requests)
                handled = 1
            }
            answered += requests.map { (index + handled - 1, $0) }
            index += handled
        }
        client.finish(at: deliveries[deliveries.count - 1].time)
        let recorder = client.recorder
        return (
            Outcome(
                requests: answered, accepted: recorder.acceptedTimes, recorded: recorder.recordedIndices,
                delivered: recorder.deliveredFixCount, motion: recorder.motionTransitions,
                odometer: client.odometerMeters, rejections: recorder.rejections.map(\.count)),
            counts
        )
    }

    @Test("the built-in engine served in-process records the same with runs as one location at a time")
    func runsRecordWhatSingleLocationsRecord() throws {
        let deliveries = Self.deliveries(Self.mtv)
        let context = try Self.context(Self.mtv)
        let single = try SubprocessClient(
            connection: LoopbackConnection(server: EngineServer(declaresRuns: false)), context: context,
            timeoutSeconds: 10)
        #expect(!single.takesLocationRuns)
        let inRuns = try SubprocessClient(connection: LoopbackConnection(), context: context, timeoutSeconds: 10)
        #expect(inRuns.takesLocationRuns)
        let (expected, _) = Self.drive(single, deliveries, inRuns: false)
        let (outcome, counts) = Self.drive(inRuns, deliveries, inRuns: true)
        #expect(single.failure == nil && inRuns.failure == nil, "\(String(describing: inRuns.failure))")
        #expect(outcome == expected)
        #expect(expected.accepted.count == 1_633 && expected.delivered == 1_748, "\(expected.accepted.count) \(expected.delivered)")
        // Some runs ended early, at a request or a timer: the resumption is exercised too.
        #expect(counts.count > 1 && counts.count < deliveries.count, "\(counts.count) runs")
        #expect(inRuns.runMessagesSent == counts.count && inRuns.runLocationsConsumed == deliveries.count)
        #expect(single.runMessagesSent == 0)
    }

    // MARK: The client's checks

    /// A client whose engine said hello with `capabilities`, answered reset, and then writes
    /// `answers` (one per line) to whatever comes next.
    static func scripted(_ answers: [String], capabilities: String = #"["runs"]"#) throws -> SubprocessClient {
        let output =
            [#"{"type":"hello","protocolVersion":2,"name":"scripted","capabilities":\#(capabilities)}"#, #"{"type":"done"}"#]
            + answers
        return try SubprocessClient(
            connection: ScriptedConnection(output: Array((output.joined(separator: "\n") + "\n").utf8), pieceBytes: 5),
            context: try context(mtv), timeoutSeconds: 10)
    }

    static var threeDeliveries: LocationRun { LocationRun(deliveries(mtv)[0..<3]) }
    /// The timestamp of the drive's second fix, which a run consumed only up to the first
    /// has not delivered.
    static let secondTime = mtv.fixes[1].timestamp.nanosecondsSinceEpoch

    static let brokenAnswers: [(answers: [String], message: String)] = [
        ([#"{"type":"consumed","count":0}"#], "output line 3: 'consumed' count 0 is not between 1 and the 3 locations"),
        ([#"{"type":"consumed","count":4}"#], "output line 3: 'consumed' count 4 is not between 1 and the 3 locations"),
        ([#"{"type":"consumed","count":-1}"#], "output line 3: 'consumed' count -1 is not between 1 and the 3 locations"),
        ([#"{"type":"consumed"}"#], #"output line 3: consumed: "count" is missing"#),
        ([#"{"type":"consumed","count":"2"}"#], #"output line 3: consumed: "count""#),
        ([#"{"type":"consumed","count":1.5}"#], #"output line 3: consumed: "count""#),
        ([#"{"type":"consumed","count":1,"extra":true}"#], #"output line 3: consumed: unknown member "extra""#),
        ([#"{"type":"done"}"#], "output line 3: 'done' before 'consumed'"),
        (
            [#"{"type":"request","call":"stopUpdatingLocation"}"#],
            "output line 3: 'request' before 'consumed': the answer to didUpdateLocationRun opens with how many"
        ),
        ([#"{"type":"record","kind":"delivered"}"#], "output line 3: 'record' before 'consumed'"),
        (
            [#"{"type":"consumed","count":1}"#, #"{"type":"consumed","count":1}"#],
            "output line 4: 'consumed' twice in one answer"
        ),
        // Only the consumed locations count as delivered: a later one cannot be accepted.
        (
            [
                #"{"type":"consumed","count":1}"#,
                #"{"type":"record","kind":"accepted","time":\#(secondTime),"latitude":37,"longitude":-122}"#,
            ],
            #"output line 4: record accepted: "time" \#(secondTime) is not the timestamp of a fix delivered"#
        ),
        ([], "after output line 2: it exited with status 0 while TraceSim waited for its done for didUpdateLocationRun"),
        (["{\"type\":\"consumed\",\"count\":3"], "output line 3: not JSON"),
    ]

    @Test("an answer to a run that breaks the protocol fails the run, naming the line", arguments: brokenAnswers)
    func brokenRunAnswers(answers: [String], message: String) throws {
        let client = try Self.scripted(answers)
        var requests: [LocationClientRequest<SubprocessTimer>] = []
        let handled = client.didUpdateLocationRun(Self.threeDeliveries, into: &requests)
        let failure = try #require(client.failure, "accepted \(answers)")
        #expect(failure.message.hasPrefix("run mtv/always-precise: "), "\(failure.message)")
        #expect(failure.message.contains(message), "\(failure.message)")
        #expect((1...3).contains(handled))
        // A failed run takes the rest without a word to the engine.
        #expect(client.didUpdateLocationRun(Self.threeDeliveries, into: &requests) == 3)
    }

    @Test("consumed answers only a run; an engine without runs is never sent one")
    func consumedOutsideARun() throws {
        let client = try Self.scripted([#"{"type":"consumed","count":1}"#])
        var requests: [LocationClientRequest<SubprocessTimer>] = []
        client.start(Self.launch, at: Self.threeDeliveries.deliveries[0].time, into: &requests)
        #expect(
            client.failure?.message.contains("output line 3: 'consumed' answers only didUpdateLocationRun, not an event")
                == true, "\(String(describing: client.failure))")
        let withoutRuns = try Self.scripted([], capabilities: "[]")
        #expect(!withoutRuns.takesLocationRuns)
    }

    @Test("a run answered in order: the consumed count, then requests and records, then done")
    func wellFormedRunAnswer() throws {
        let run = Self.threeDeliveries
        let second = run.deliveries[1].fix
        let client = try Self.scripted([
            #"{"type":"log","message":"thinking"}"#, #"{"type":"consumed","count":2}"#,
            #"{"type":"request","call":"stopUpdatingLocation"}"#,
            #"{"type":"schedule","timer":"t","at":\#(run.deliveries[1].time.nanosecondsSinceEpoch)}"#,
            #"{"type":"record","kind":"accepted","time":\#(second.timestamp.nanosecondsSinceEpoch),"latitude":\#(second.latitude),"longitude":\#(second.longitude)}"#,
            #"{"type":"record","kind":"motion","state":"stationary"}"#, #"{"type":"done"}"#,
        ])
        var requests: [LocationClientRequest<SubprocessTimer>] = []
        // Through the protocol, as the replay calls it: the client's own entry, not the default.
        var asClient = client
        #expect(Self.handOver(run, to: &asClient, into: &requests) == 2)
        #expect(client.failure == nil, "\(String(describing: client.failure))")
        #expect(
            requests == [
                .device(.stoppedLocationUpdates),
                .schedule(SubprocessTimer(id: "t", serial: 0), at: run.deliveries[1].time),
            ])
        #expect(client.recorder.acceptedTimes == [second.timestamp])
        // A record without a time is at the last consumed location's delivery.
        #expect(client.recorder.motionTransitions.map(\.time) == [run.deliveries[1].time])
        #expect(client.runMessagesSent == 1 && client.runLocationsConsumed == 2)
    }

    /// Hands `run` to `client` as generic code does (the replay): through the protocol.
    static func handOver<Client: LocationClient>(
        _ run: LocationRun, to client: inout Client, into requests: inout [LocationClientRequest<Client.Timer>]
    ) -> Int {
        #expect(client.takesLocationRuns)
        return client.didUpdateLocationRun(run, into: &requests)
    }

    @Test("a timer scheduled before the last consumed location's delivery is refused")
    func timerBeforeRunNow() throws {
        let run = Self.threeDeliveries
        let client = try Self.scripted([
            #"{"type":"consumed","count":2}"#,
            #"{"type":"schedule","timer":"t","at":\#(run.deliveries[0].time.nanosecondsSinceEpoch)}"#,
        ])
        var requests: [LocationClientRequest<SubprocessTimer>] = []
        _ = client.didUpdateLocationRun(run, into: &requests)
        #expect(client.failure?.message.contains("output line 4: timer 't' is scheduled at") == true)
    }

    // MARK: Python engines

    @Test("the Python example and the trivial engine take runs, and the example records the same without them")
    func pythonEnginesTakeRuns() async throws {
        let deliveries = Self.withStop(Self.deliveries(Self.mtv))
        let context = try Self.context(Self.mtv)
        let outcomes = try await offPool {
            try ["", " --no-runs"].map { option in
                let pool = EngineProcessPool(command: "python3 \(Paths.pythonExample)\(option)", timeoutSeconds: 10)
                let client = try SubprocessClient(pool: pool, context: context)
                let driven = Self.drive(client, deliveries, inRuns: client.takesLocationRuns)
                return (driven.outcome, driven.consumedCounts, client.failure, pool.runMessages)
            }
        }
        #expect(outcomes[0].2 == nil && outcomes[1].2 == nil, "\(String(describing: outcomes[0].2))")
        #expect(outcomes[0].0 == outcomes[1].0)
        #expect(outcomes[0].0.accepted.count == 1_901, "\(outcomes[0].0.accepted.count)")
        // The stop ended a run early: the example consumed up to it, and got the rest again.
        #expect(outcomes[0].1.count > 1 && outcomes[0].1[0] < deliveries.count && outcomes[1].1.isEmpty)
        #expect(outcomes[0].0.requests.contains { $0.1 == .device(.stoppedLocationUpdates) })
        #expect(outcomes[0].3.messages == outcomes[0].1.count && outcomes[0].3.locations == deliveries.count)
        #expect(outcomes[1].3.messages == 0)

        let trivial = Repository.path("Benchmarks/peers/trivial_engine.py")
        let counts = try await offPool {
            let pool = EngineProcessPool(command: "python3 \(trivial)", timeoutSeconds: 10)
            let client = try SubprocessClient(pool: pool, context: context)
            let driven = Self.drive(client, deliveries, inRuns: client.takesLocationRuns)
            return (driven.consumedCounts, client.failure)
        }
        #expect(counts.1 == nil)
        #expect(counts.0 == [deliveries.count])
    }
}
