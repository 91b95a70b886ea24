import ConfigJSON
import Device
import Engine
@testable import EngineProtocol
import Fleet
import Foundation
import Scenarios
import SimulationCore
import TestSupport
import Testing
import Traces

/// An engine in another process: every way it can break the protocol fails that run with a
/// message naming the run and the line; healthy processes are reused across runs.
@Suite("Subprocess engine")
struct SubprocessEngineTests {
    static let pixel6: Trace = {
        do { return try TraceImporter.load(path: Paths.pixel6) } catch { fatalError("bundled trace: \(error)") }
    }()

    static func misbehaving(_ mode: String) -> String { "python3 \(Paths.engines)/misbehaving.py \(mode)" }

    /// Replays the pixel 6 walk through always-precise with `pool`'s engine.
    static func run(_ pool: EngineProcessPool) throws -> Result<ScenarioRun, RunFailure> {
        let scenario = try #require(Scenario.preset(named: "always-precise"))
        do {
            return .success(
                try ScenarioRunner.run(pixel6, scenario, engine: .subprocess(pool: pool), traceName: "pixel6"))
        } catch {
            return .failure(error)
        }
    }

    /// When the pixel 6 walk starts: the instant of its first fix.
    static let firstInstant = pixel6.fixes[0].timestamp.nanosecondsSinceEpoch

    static let brokenEngines: [(mode: String, message: String)] = [
        (
            "not-json",
            #"run pixel6/always-precise: output line 5: not JSON (unexpected character at byte 1): "Traceback (most recent call last):""#
        ),
        ("unknown-type", "run pixel6/always-precise: output line 5: unknown message type 'recordd'"),
        (
            "unknown-type-control",
            #"run pixel6/always-precise: output line 5: unknown message type '\u{1B}[2J\rFAIL'"#
        ),
        (
            "exit",
            "run pixel6/always-precise: after output line 4: it exited with status 3 while TraceSim waited for its done for didUpdateLocations"
        ),
        (
            "missing-done",
            "run pixel6/always-precise: after output line 5: no answer within 0.5 s while waiting for its done for didUpdateLocations"
        ),
        (
            "hang",
            "run pixel6/always-precise: after output line 4: no answer within 0.5 s while waiting for its done for didUpdateLocations"
        ),
        ("out-of-order", "run pixel6/always-precise: output line 5: 'hello' out of order: the engine said hello already"),
        (
            "unknown-member",
            #"run pixel6/always-precise: output line 5: request startUpdatingLocation: unknown member "pausesAutomatically""#
        ),
        (
            "extra-done",
            "run pixel6/always-precise: output line 6: a line after the done for the previous event, before didUpdateLocations was sent"
        ),
        (
            "version",
            "run pixel6/always-precise: output line 1: the engine speaks protocol version 3; this TraceSim speaks 1 and 2"
        ),
        (
            "hello-v2-without-capabilities",
            #"run pixel6/always-precise: output line 1: hello: protocol version 2 needs "capabilities" (an array, possibly empty)"#
        ),
        (
            "hello-v1-with-capabilities",
            #"run pixel6/always-precise: output line 1: hello: "capabilities" come with protocol version 2, not 1"#
        ),
        (
            "hello-capability-twice",
            "run pixel6/always-precise: output line 1: hello: capability 'cancel' is listed twice"
        ),
        (
            "cancel-v1",
            "run pixel6/always-precise: output line 5: 'cancel' is an answer of protocol version 2, and the engine said hello with version 1"
        ),
        (
            "cancel-undeclared",
            "run pixel6/always-precise: output line 5: 'cancel' needs the capability 'cancel', which the engine did not declare in its hello"
        ),
        // Records that would corrupt the metrics: a time in milliseconds (collected 100 % at
        // coverage 0), one centuries ahead (a 242-year gap), a position off the globe.
        (
            "accepted-milliseconds",
            #"run pixel6/always-precise: output line 5: record accepted: "time" \#(firstInstant / 1_000_000) is not the timestamp of a fix delivered to the engine in this run"#
        ),
        (
            "accepted-far-future",
            #"run pixel6/always-precise: output line 5: record accepted: "time" 9223372036854775807 is not the timestamp of a fix delivered to the engine in this run"#
        ),
        (
            "accepted-latitude",
            "run pixel6/always-precise: output line 5: record accepted: the position is not a latitude (-90 to 90) and a longitude (-180 to 180)"
        ),
        (
            "accepted-longitude",
            "run pixel6/always-precise: output line 5: record accepted: the position is not a latitude (-90 to 90) and a longitude (-180 to 180)"
        ),
        (
            "accepted-twice",
            "run pixel6/always-precise: output line 6: record accepted: more fixes accepted than the 1 delivered to the engine"
        ),
        ("recorded-twice", "run pixel6/always-precise: output line 7: 'recorded' twice for the fix accepted last"),
        // Times that would feed arrival and geofence delays: centuries ahead, before the run, ahead of now.
        (
            "heartbeat-far-future",
            #"run pixel6/always-precise: output line 5: record heartbeat: "time" 9223372036854775807 is not between the run's first event (\#(firstInstant)) and now (\#(firstInstant))"#
        ),
        (
            "motion-before-run",
            #"run pixel6/always-precise: output line 5: record motion: "time" \#(firstInstant - 1) is not between the run's first event (\#(firstInstant)) and now (\#(firstInstant))"#
        ),
        (
            "geofence-ahead",
            #"run pixel6/always-precise: output line 5: record geofence: "time" \#(firstInstant + 1_000_000_000) is not between the run's first event (\#(firstInstant)) and now (\#(firstInstant))"#
        ),
        // Loops: a timer at now on every event, and one a nanosecond later.
        (
            "timer-now",
            "run pixel6/always-precise: more than 10000 events at one instant (\(firstInstant)): each answer raises another event at once (a timer due now, or a request made again on its own callback), so virtual time never moves on"
        ),
        (
            "timer-creep",
            "run pixel6/always-precise: more than 16000 events for 0 fixes and motion samples delivered over 0 s (the limit is 16 × (deliveries + 1000) + 1 × seconds): the engine's timers fire far more often than fixes arrive or time passes"
        ),
        (
            "answer-flood",
            "run pixel6/always-precise: output line 64068: more than 64064 answers for 1 fixes and motion samples delivered over 0 s (the limit is 64 × (deliveries + 1000) + 4 × seconds)"
        ),
        // Ends told apart from a timeout.
        (
            "hello-exit",
            "run pixel6/always-precise: after its hello: it exited with status 0 while TraceSim waited for its done for reset"
        ),
        (
            "fork-exit",
            "run pixel6/always-precise: after output line 4: it exited with status 0 and left its output open to a process it started while TraceSim waited for its done for didUpdateLocations"
        ),
        (
            "close-stdin",
            "run pixel6/always-precise: after output line 4: it closed its input (standard input) while TraceSim waited for its done for didUpdateLocations"
        ),
    ]

    @Test("an engine that breaks the protocol fails the run with the run, the line and what was wrong", arguments: brokenEngines)
    func brokenEngineFailsTheRun(mode: String, message: String) async throws {
        // The modes that never answer wait out the timeout; the others get a long one, so a busy
        // machine cannot turn an engine's exit or bad line into "no answer". A process that
        // closed its input or left its output to a child is told apart when the timeout runs
        // out, so it gets a few seconds to have done so first.
        let timeout = message.contains("no answer within") ? 0.5 : ["fork-exit", "close-stdin"].contains(mode) ? 3 : 30
        let pool = EngineProcessPool(command: Self.misbehaving(mode), timeoutSeconds: timeout)
        guard case .failure(.engine(let failure)) = try await offPool({ try Self.run(pool) }) else {
            Issue.record("the run should have failed")
            return
        }
        #expect(failure.message == message)
    }

    @Test("an engine that said hello and exited before TraceSim's hello reached it is reported as exited after its hello")
    func helloThenExitBeforeTraceSimWrites() async throws {
        let hello = #"{"type":"hello","protocolVersion":1,"name":"gone"}"#
        // As a pool does: writing to the exited engine must fail with EPIPE, not end the tests.
        signal(SIGPIPE, SIG_IGN)
        let process = try EngineProcess(command: "printf '%s\\n' '\(hello)'")
        // Long enough for printf to have exited, so TraceSim's hello meets a closed pipe.
        usleep(500_000)
        let scenario = try #require(Scenario.preset(named: "always-precise"))
        let context = EngineContext(scenario: scenario, fences: [], traceName: "t", expectedFixCount: 1)
        #expect(
            throws: EngineFailure(
                "run t/always-precise: after its hello: it exited with status 0 while TraceSim waited for its done for reset")
        ) {
            _ = try SubprocessClient(connection: process, context: context, timeoutSeconds: 5)
        }
    }

    @Test("a failed process is killed and never reused; the next run starts a new one")
    func failedProcessIsDiscarded() async throws {
        let pool = EngineProcessPool(command: Self.misbehaving("exit"), timeoutSeconds: 5)
        _ = try await offPool { try Self.run(pool) }
        _ = try await offPool { try Self.run(pool) }
        #expect(pool.spawnCount == 2)
    }

    @Test("one process serves every run of a one-worker matrix, reset between runs")
    func poolReusesProcesses() async throws {
        let pool = EngineProcessPool(command: "python3 \(Paths.pythonExample)", timeoutSeconds: 10)
        var matrix = Matrix(
            traces: [Matrix.NamedTrace(name: "pixel6", trace: Self.pixel6)],
            scenarios: try ["always-precise", "wheninuse-locked", "denied"].map {
                Matrix.Entry(try #require(Scenario.preset(named: $0)))
            })
        matrix.engine = .subprocess(pool: pool)
        let result = try await offPool { [matrix] in try matrix.run(jobs: 1) }
        #expect(result.cells.count == 3)
        #expect(pool.spawnCount == 1)
        _ = try await offPool { [matrix] in try matrix.run(jobs: 1) }
        #expect(pool.spawnCount == 1)
    }

    @Test("the built-in engine behind serve-engine records exactly what it records in-process")
    func serveEngineMatchesBuiltIn() async throws {
        let pool = EngineProcessPool(command: Paths.serveEngine, timeoutSeconds: 10)
        let scenario = try #require(Scenario.preset(named: "always-force-quit"))
        let direct = try ScenarioRunner.run(Self.pixel6, scenario)
        let served = try await offPool {
            try ScenarioRunner.run(Self.pixel6, scenario, engine: .subprocess(pool: pool), traceName: "pixel6")
        }
        #expect(served.recorder.deliveredFixCount == direct.recorder.deliveredFixCount)
        #expect(served.recorder.acceptedTimes == direct.recorder.acceptedTimes)
        #expect(served.recorder.acceptedPositions == direct.recorder.acceptedPositions)
        #expect(served.recorder.recordedIndices == direct.recorder.recordedIndices)
        #expect(served.recorder.motionTransitions == direct.recorder.motionTransitions)
        #expect(served.recorder.rejections.map(\.count) == direct.recorder.rejections.map(\.count))
        #expect(served.odometerMeters == direct.odometerMeters)
        #expect(direct.recorder.acceptedFixCount > 0)
    }

    @Test("log lines become the run's diagnostics, counted once per message")
    func logLinesAreDiagnostics() async throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("log-engine-\(getpid()).py")
        try """
        import sys
        for line in sys.stdin:
            if '"type":"hello"' in line:
                print('{"type":"hello","protocolVersion":1,"name":"logger"}', flush=True)
            elif '"type":"start"' in line:
                print('{"type":"log","message":"started"}', flush=True)
                print('{"type":"log","message":"started"}', flush=True)
                print('{"type":"done"}', flush=True)
            else:
                print('{"type":"done"}', flush=True)
        """.write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let pool = EngineProcessPool(command: "python3 \(script.path)", timeoutSeconds: 10)
        let run = try await offPool { try Self.run(pool).get() }
        #expect(run.diagnostics.map(\.message) == ["started"])
        #expect(run.diagnostics.map(\.count) == [2])
    }

    static func timers(_ mode: String) -> String { "python3 \(Paths.engines)/timers.py \(mode)" }

    /// The run's diagnostics through the `timers.py` engine in `mode`: message and count.
    static func timerLog(_ mode: String) async throws -> [String: Int] {
        let pool = EngineProcessPool(command: timers(mode), timeoutSeconds: 30)
        let run = try await offPool { try Self.run(pool).get() }
        return Dictionary(uniqueKeysWithValues: run.diagnostics.map { ($0.message, $0.count) })
    }

    @Test("a timer id armed again replaces the pending timer only with the capability replaceTimers")
    func timerReplacement() async throws {
        // Armed 30 s ahead at every fix (every 12 s): each fires in version 1, none when replaced.
        let both = try await Self.timerLog("rearm-v1")
        #expect(both["fired tick"] == 10)
        let replaced = try await Self.timerLog("rearm-v2")
        #expect(replaced["fired tick"] == nil)
    }

    @Test("cancel forgets a pending timer (capability cancel); without it the timer fires")
    func timerCancel() async throws {
        #expect(try await Self.timerLog("cancel")["fired once"] == nil)
        #expect(try await Self.timerLog("keep")["fired once"] == 1)
    }

    @Test("capabilities this TraceSim does not know are ignored, and each run says so")
    func unknownCapabilitiesAreNoted() async throws {
        let log = try await Self.timerLog("unknown")
        #expect(
            log == [
                "the engine declared capabilities this TraceSim does not know, and they are ignored: 'batches', 'streams'": 1
            ])
    }

    static func poolHazards(_ mode: String) -> String { "python3 \(Paths.engines)/pool_hazards.py \(mode)" }

    /// The pixel 6 walk through three presets with `engine`, as `matrix` prints it.
    static func hazardMatrix(_ engine: String, jobs: Int) -> [String] {
        [
            "matrix", Paths.pixel6, "--scenarios", "always-precise,wheninuse-locked,denied", "--date", "2020-02-07",
            "--format", "json", "--jobs", "\(jobs)", "--engine-command", engine,
        ]
    }

    @Test("a line an engine writes after its done for finish is charged to no run; its process is not reused")
    func lineAfterFinishIsNotChargedToTheNextRun() async throws {
        let reference = try await offPool { runCommand(Self.hazardMatrix(Self.poolHazards("clean"), jobs: 1)) }
        #expect(reference.exitCode == 0, "\(reference.error)")
        for jobs in [1, 2] {
            let late = try await offPool { runCommand(Self.hazardMatrix(Self.poolHazards("late-log"), jobs: jobs)) }
            #expect(late.exitCode == 0, "\(late.error)")
            #expect(!late.output.contains("written after finish"))
            #expect(late.output == reference.output, "--jobs \(jobs)")
        }
        let pool = EngineProcessPool(command: Self.poolHazards("late-log"), timeoutSeconds: 10)
        for _ in 0..<2 {
            let run = try await offPool { try Self.run(pool).get() }
            #expect(run.diagnostics.isEmpty)
        }
        #expect(pool.spawnCount == 2)
    }

    @Test("an idle process that exited is reaped and replaced: the next run does not fail for it")
    func exitedIdleProcessIsReplaced() async throws {
        let pool = EngineProcessPool(command: Self.poolHazards("exit"), timeoutSeconds: 10)
        var matrix = Matrix(
            traces: [Matrix.NamedTrace(name: "pixel6", trace: Self.pixel6)],
            scenarios: [Matrix.Entry(try #require(Scenario.preset(named: "always-precise")))])
        matrix.engine = .subprocess(pool: pool)
        // One scenario and its ideal run: two runs, one process each.
        #expect(matrix.replayCount() == 2)
        let result = try await offPool { [matrix] in try matrix.run(jobs: 1) }
        #expect(result.cells.count == 1)
        #expect(pool.spawnCount == 2)
    }

    // Slow tier: the hello's 30 s are waited out once.
    @Test(
        "an engine that never says hello fails every run at once after the first, with the first's message",
        .enabled(if: TestTier.isSlow, "waits 30 s for the hello: slow tier"))
    func silentEngineFailsFast() async throws {
        // --engine-timeout below 30 s: hello still gets 30 s, once for the whole matrix.
        let pool = EngineProcessPool(command: "sleep 1000", timeoutSeconds: 0.2)
        var matrix = Matrix(
            traces: [Matrix.NamedTrace(name: "pixel6", trace: Self.pixel6)],
            scenarios: try ["always-precise", "wheninuse-locked", "denied"].map {
                Matrix.Entry(try #require(Scenario.preset(named: $0)))
            })
        matrix.engine = .subprocess(pool: pool)
        let outcome = try await offPool { [matrix] in Result { () throws(RunFailure) in try matrix.run(jobs: 1) } }
        guard case .failure(.engine(let failure)) = outcome else {
            Issue.record("the matrix should have failed")
            return
        }
        #expect(failure.message.hasPrefix("run pixel6/"), "\(failure.message)")
        #expect(
            failure.message.hasSuffix(": before any output: no answer within 30 s while waiting for its hello"),
            "\(failure.message)")
        #expect(pool.spawnCount == 1)
    }
}

/// Messages survive the trip through their lines bit for bit.
@Suite("Engine protocol messages")
struct EngineMessageTests {
    static let fix: Fix = {
        var fix = Fix(
            timestamp: SimInstant(nanosecondsSinceEpoch: 1_581_041_611_123_456_789), latitude: 37.422_094_123_456_78,
            longitude: -122.084_095_987_654_32, altitudeMeters: 31.7, horizontalAccuracy: .meters(4.9),
            verticalAccuracy: .meters(3.3), speedMetersPerSecond: 13.37, speedAccuracyMetersPerSecond: 0.7,
            courseDegrees: 271.1, courseAccuracyDegrees: 5.3, provider: .gps)
        fix.verticalAccuracy = .dilution(1.7)
        return fix
    }()

    static let now = SimInstant(nanosecondsSinceEpoch: 1_581_041_612_000_000_001)

    /// One event of every type.
    static let everyEvent: [EngineEvent] = [
        .start(
            LocationClientLaunch(
                authorizationStatus: .authorizedAlways, accuracyAuthorization: .fullAccuracy,
                motionAuthorizationStatus: .denied, isMotionActivityAvailable: true)),
        .didUpdateLocations([LocationDelivery(fix: fix, time: now), LocationDelivery(fix: fix, time: now)]),
        .didReceiveSignificantChange(fix),
        .didUpdateMotionActivity(MotionSample(timestamp: now, activity: [.stationary], confidence: .low)),
        .didCrossRegion(identifier: "depot", .enter), .didCrossRegion(identifier: "depot", .exit),
        .monitoringDidFail(identifier: "depot", .regionLimit),
        .didVisit(
            VisitEvent(
                kind: .departure, coordinate: .init(latitude: 37.4, longitude: -122.1), arrival: now, departure: now,
                reducedHorizontalAccuracyMeters: 1500)),
        .didChangeAuthorization(.denied, .reducedAccuracy), .didChangeMotionAuthorization(.authorized),
        .didCompleteTemporaryFullAccuracy(granted: false), .didFailWithError(.servicesOffReportsDenied),
        .didPauseLocationUpdates, .didLaunch(.regionEvent, inBackground: true), .timerFired("t"), .finish,
    ]

    /// One answer of every type, every call and every record kind.
    static let everyAnswer: [EngineAnswer] =
        [
            .hello(protocolVersion: 1, name: "x", capabilities: nil),
            .hello(protocolVersion: 2, name: "x", capabilities: ["cancel", "replaceTimers", "later"]),
            .hello(
                protocolVersion: 2, name: "x", capabilities: ["settings"],
                settings: [
                    EngineSetting(name: "n", kind: .number(0...1), defaultValue: .number(0.5), summary: "s"),
                    EngineSetting(name: "i", kind: .integer(-3...3), defaultValue: .number(0)),
                    EngineSetting(name: "b", kind: .bool, defaultValue: .bool(true)),
                    EngineSetting(name: "c", kind: .choice(["x", "y"]), defaultValue: .token("y")),
                ]),
            .hello(protocolVersion: 2, name: "x", capabilities: ["runs"]),
            .schedule(timer: "t", at: now), .cancel(timer: "t"), .log("note"), .consumed(count: 3), .done,
        ]
        + [
            AppRequest.requestedWhenInUse, .requestedAlways, .requestedTemporaryFullAccuracy(purpose: "p"),
            .startedMotionUpdates, .createdCentralManager, .startedLocationUpdates(LocationUpdateOptions()),
            .stoppedLocationUpdates,
            .startedMonitoring(
                MonitoredRegion(identifier: "r", center: .init(latitude: 1, longitude: 2), radiusMeters: 100)),
            .stoppedMonitoring(identifier: "r"), .startedSignificantChanges, .stoppedSignificantChanges,
            .startedVisitMonitoring, .stoppedVisitMonitoring, .startedBackgroundSession, .endedBackgroundSession,
        ].map(EngineAnswer.request)
        + [
            EngineRecord.delivered, .rejected(.impliedSpeed), .accepted(time: now, latitude: 1.5, longitude: -2.5),
            .recorded, .motion(.moving, time: nil), .motion(.stationary, time: now),
            .geofence(identifier: "g", .dwell, time: now), .heartbeat(time: nil), .odometer(meters: 12.5),
        ].map(EngineAnswer.record)

    @Test("an event line reads back as the same event, every fix field exact")
    func eventRoundTrip() throws {
        let now = SimInstant(nanosecondsSinceEpoch: 1_581_041_612_000_000_001)
        let events: [EngineEvent] = [
            .didUpdateLocations([LocationDelivery(fix: Self.fix, time: now)]),
            .didReceiveSignificantChange(Fix(timestamp: now, latitude: 1e-7, longitude: -179.999_999_9)),
            .didUpdateMotionActivity(
                MotionSample(timestamp: now, activity: [.walking, .automotive], confidence: .high, isCoarse: true)),
            .didCrossRegion(identifier: "home \"quoted\"\n", .exit),
            .didChangeAuthorization(.authorizedWhenInUse, .reducedAccuracy),
            .didLaunch(.significantChange, inBackground: true), .timerFired("stop:3"), .finish,
        ]
        for event in events {
            let line = event.line(now: now)
            let parsed = try #require(try EngineEvent.parse(try JSONValue.parse(protocolLine: Array(line.utf8)), type: event.type))
            #expect(parsed.event == event, "\(line)")
            #expect(parsed.now == now)
        }
    }

    @Test("a delivery is written with Core Location's field names and exact numbers")
    func deliveryLine() {
        let line = EngineEvent.didUpdateLocations([
            LocationDelivery(fix: Self.fix, time: SimInstant(nanosecondsSinceEpoch: 1_581_041_612_000_000_000))
        ]).line(now: SimInstant(nanosecondsSinceEpoch: 1_581_041_612_000_000_000))
        #expect(
            line
                == #"{"type":"didUpdateLocations","now":1581041612000000000,"locations":[{"timestamp":1581041611123456789,"deliveredAt":1581041612000000000,"latitude":37.42209412345678,"longitude":-122.08409598765432,"altitude":31.7,"horizontalAccuracy":4.9,"verticalDilution":1.7,"speed":13.37,"speedAccuracy":0.7,"course":271.1,"courseAccuracy":5.3,"provider":"gps"}]}"#
        )
    }

    @Test("every request an app makes reads back as the same request")
    func requestRoundTrip() throws {
        let requests: [AppRequest] = [
            .requestedWhenInUse, .requestedAlways, .requestedTemporaryFullAccuracy(purpose: "Delivery"),
            .startedMotionUpdates, .createdCentralManager,
            .startedLocationUpdates(
                LocationUpdateOptions(allowsBackgroundLocationUpdates: true, pausesLocationUpdatesAutomatically: false)),
            .stoppedLocationUpdates,
            .startedMonitoring(
                MonitoredRegion(
                    identifier: "depot", center: .init(latitude: 37.4, longitude: -122.1), radiusMeters: 150)),
            .stoppedMonitoring(identifier: "depot"), .startedSignificantChanges, .stoppedSignificantChanges,
            .startedVisitMonitoring, .stoppedVisitMonitoring, .startedBackgroundSession, .endedBackgroundSession,
        ]
        for request in requests {
            let line = EngineAnswer.request(request).line
            #expect(try EngineAnswer.parse(try JSONValue.parse(protocolLine: Array(line.utf8)), type: "request") == .request(request))
        }
        #expect(Set(requests.map(EngineAnswer.call)) == Set(EngineAnswer.calls))
    }

    @Test("startUpdatingLocation without options takes Core Location's defaults")
    func startUpdatingDefaults() throws {
        let value = try JSONValue.parse(protocolLine: Array(#"{"type":"request","call":"startUpdatingLocation"}"#.utf8))
        #expect(try EngineAnswer.parse(value, type: "request") == .request(.startedLocationUpdates(LocationUpdateOptions())))
    }

    @Test("a scenario's engine settings read back as the same configuration")
    func settingsRoundTrip() throws {
        for scenario in Scenario.presets {
            let line = RunMessages.settings(scenario.engine)
            let back = try RunMessages.settings(try JSONValue.parse(protocolLine: Array(line.utf8)))
            #expect(RunMessages.settings(back) == line, "\(scenario.name)")
            #expect(String(describing: back) == String(describing: scenario.engine), "\(scenario.name)")
        }
    }

    @Test("JSON the parser refuses, with the byte where it stopped")
    func parserErrors() {
        let cases: [(String, String, Int)] = [
            (#"{"type":"done""#, "the line ends early", 14),
            (#"{"type":01}"#, "not a JSON number", 8),
            (#"{"type":"a","type":"b"}"#, "duplicate member \"type\"", 18),
            ("[1,2] x", "text after the JSON value", 6),
        ]
        for (text, message, offset) in cases {
            #expect(throws: ProtocolJSONError(offset: offset, message)) { try JSONValue.parse(protocolLine: Array(text.utf8)) }
        }
    }
}
