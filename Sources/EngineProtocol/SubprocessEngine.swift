import Device
import Engine
import Scenarios
import SimulationCore
import Synchronization
import Traces

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension EngineUnderTest {
    /// An engine in any language: `command` run through `/bin/sh -c`, spoken to over the
    /// lock-step JSON Lines protocol on its standard input and output
    /// (Documentation/Protocol/EngineProtocol.md).
    ///
    /// One process serves one run at a time and is reused for the next run with a `reset`,
    /// so a matrix starts at most one process per worker. A run whose engine exits, stays
    /// silent for more than `timeoutSeconds` on one event, or writes a line that is not a
    /// protocol message fails with an `EngineFailure` naming the run and the line of the
    /// engine's output; that process is killed with its process group and never reused. A
    /// process that cannot be started or does not say `hello` fails every later run of the
    /// pool at once, with its own failure.
    ///
    /// Writing to an engine that has exited must fail with `EPIPE`, not kill TraceSim, so the
    /// first use ignores `SIGPIPE` for the whole process (the `tracesim` executable does so
    /// anyway).
    ///
    /// - Parameters:
    ///   - command: a shell command line, e.g. `python3 engine.py`.
    ///   - timeoutSeconds: how long the engine may take over one event, from TraceSim's
    ///     message to the engine's `done`. A new process's `hello` may take at least 30 s.
    public static func subprocess(command: String, timeoutSeconds: Double = 10) -> EngineUnderTest {
        subprocess(pool: EngineProcessPool(command: command, timeoutSeconds: timeoutSeconds))
    }

    /// The engine behind `pool` (tests count its spawns).
    package static func subprocess(pool: EngineProcessPool) -> EngineUnderTest {
        .custom(named: "'\(pool.command)'") { context throws(EngineFailure) in
            try SubprocessClient(pool: pool, context: context)
        }
    }
}

/// The engine processes of one command: idle ones wait here between runs.
package final class EngineProcessPool: Sendable {
    package let command: String
    package let timeoutSeconds: Double
    private struct State {
        var idle: [EngineProcess] = []
        var spawned = 0
        /// The failure of the first process of this command that could not be started or did
        /// not say hello: every later take fails with it at once, instead of starting another
        /// process and waiting for a hello that will not come.
        var helloFailure: EngineFailure?
    }
    private let state = Mutex(State())

    package init(command: String, timeoutSeconds: Double) {
        self.command = command
        self.timeoutSeconds = timeoutSeconds
        signal(SIGPIPE, SIG_IGN)
    }

    deinit {
        let idle = state.withLock { state in
            let idle = state.idle
            state.idle = []
            return idle
        }
        for process in idle { process.shutDown(grace: 1) }
    }

    /// How many processes were started so far.
    package var spawnCount: Int { state.withLock { $0.spawned } }

    /// A live idle process, or a new one that has said `hello`.
    ///
    /// An idle process that has exited since its last run (or wrote something after it) is
    /// reaped and passed over: its end belongs to no run, and must not fail this one.
    func take(run: String) throws(EngineFailure) -> (process: EngineProcess, isReused: Bool) {
        while true {
            let (process, helloFailure) = state.withLock { ($0.idle.popLast(), $0.helloFailure) }
            if let helloFailure { throw helloFailure }
            guard let process else { break }
            if process.isReusable() { return (process, true) }
        }
        let process: EngineProcess
        do {
            process = try EngineProcess(command: command)
        } catch {
            throw remember(EngineFailure("run \(run): the engine could not be started: \(error)"))
        }
        state.withLock { $0.spawned += 1 }
        do {
            try greet(process, run: run)
        } catch {
            throw remember(error)
        }
        return (process, false)
    }

    /// Keeps the first start or hello failure, and returns the one every take now fails with.
    private func remember(_ failure: EngineFailure) -> EngineFailure {
        state.withLock { state in
            if state.helloFailure == nil { state.helloFailure = failure }
            return state.helloFailure ?? failure
        }
    }

    /// A process whose run finished cleanly, ready for the next `reset`; one with output
    /// pending after its `done` (a late `log`, junk) or that has exited is ended instead, so
    /// no run is charged with what the engine wrote after another.
    func giveBack(_ process: EngineProcess) {
        guard process.isReusable() else { return }
        state.withLock { $0.idle.append(process) }
    }

    /// How long a new process may take to say hello at least: starting an interpreter or a
    /// virtual machine under load is slower than answering one event.
    static let minimumHelloSeconds = 30.0

    private func greet(_ process: EngineProcess, run: String) throws(EngineFailure) {
        let seconds = max(timeoutSeconds, Self.minimumHelloSeconds)
        let deadline = Deadline(secondsFromNow: seconds)
        let exchange = Exchange(process: process, run: run, waitingFor: "its hello", timeoutSeconds: seconds)
        do {
            try process.send(RunMessages.helloLine, deadline: deadline)
            let line = try process.readLine(deadline: deadline)
            let (value, type) = try exchange.message(line)
            guard type == "hello" else { throw exchange.failure("expected hello, not '\(type)'") }
            guard case .hello(let version, _)? = try exchange.answer(value, type: type) else {
                throw exchange.failure("expected hello")
            }
            guard version == RunMessages.version else {
                throw exchange.failure(
                    "the engine speaks protocol version \(version); this TraceSim speaks \(RunMessages.version)")
            }
        } catch let failure as EngineFailure {
            process.terminate()
            throw failure
        } catch let failure as EngineProcess.Failure {
            process.terminate()
            throw exchange.failure(failure)
        } catch {
            process.terminate()
            throw EngineFailure("run \(run): \(error)")
        }
    }
}

/// The wording of one wait for an engine's answer: the run, the line, what TraceSim waited for.
struct Exchange {
    let process: EngineProcess
    let run: String
    let waitingFor: String
    let timeoutSeconds: Double

    /// A problem with the line just read.
    func failure(_ what: String) -> EngineFailure {
        EngineFailure("run \(run): output line \(process.linesRead): \(what)")
    }

    /// A problem while waiting for a line.
    func failure(_ failure: EngineProcess.Failure) -> EngineFailure {
        let place = process.linesRead == 0 ? "before any output" : "after output line \(process.linesRead)"
        let what: String
        switch failure {
        case .timedOut:
            what = "no answer within \(ProtocolLine.seconds(timeoutSeconds)) s while waiting for \(waitingFor)"
        case .exited(let how): what = "\(how) while TraceSim waited for \(waitingFor)"
        case .lineTooLong:
            return EngineFailure(
                "run \(run): output line \(process.linesRead + 1): longer than \(EngineProcess.maximumLineBytes) bytes")
        case .writeFailed(let reason): what = "writing to the engine failed (\(reason)) before \(waitingFor)"
        case .spawnFailed(let reason): what = "the engine could not be started: \(reason)"
        }
        return EngineFailure("run \(run): \(place): \(what)")
    }

    /// Parses a line into a JSON object and its `type`.
    func message(_ line: ArraySlice<UInt8>) throws(EngineFailure) -> (ProtocolJSON, String) {
        let value: ProtocolJSON
        do {
            value = try ProtocolJSON.parse(line)
        } catch {
            throw failure("not JSON (\(error.message) at byte \(error.offset + 1)): \(Self.excerpt(line))")
        }
        guard case .string(let type)? = value["type"] else {
            throw failure("a message is a JSON object with a string \"type\": \(Self.excerpt(line))")
        }
        return (value, type)
    }

    /// Reads an answer; unknown types and malformed members fail.
    func answer(_ value: ProtocolJSON, type: String) throws(EngineFailure) -> EngineAnswer? {
        do {
            guard let answer = try EngineAnswer.parse(value, type: type) else {
                if EngineEvent.types.contains(type) || type == "reset" {
                    throw failure("'\(type)' is a message TraceSim sends, not an answer")
                }
                throw failure("unknown message type '\(type)'")
            }
            return answer
        } catch let failure as EngineFailure {
            throw failure
        } catch let error as ProtocolMessageError {
            throw failure(error.message)
        } catch {
            throw failure("\(error)")
        }
    }

    /// The start of an offending line, quoted: enough to recognise a traceback or a stray print.
    static func excerpt(_ line: ArraySlice<UInt8>) -> String {
        let text = String(decoding: line, as: UTF8.self)
        let head = text.prefix(60)
        var quoted = ""
        JSONStringLiteral.append(String(head) + (head.count < text.count ? "…" : ""), to: &quoted)
        return quoted
    }
}

/// The app side of one run, played by an engine process: each callback becomes one event line,
/// and the engine's answer lines up to its `done` become requests, timers and the record.
final class SubprocessClient: RecordingClient {
    typealias Timer = String

    private(set) var recorder: Recorder
    private(set) var odometerMeters = 0.0
    private(set) var diagnostics: [ClientDiagnostic] = []
    private(set) var failure: EngineFailure?
    private let pool: EngineProcessPool
    private let run: String
    private var process: EngineProcess?
    /// Whether the last failure was the process ending (its output closed, or writing to it
    /// failed), rather than something it wrote or a timeout.
    private var processEnded = false
    /// Records of the current event that carry no time of their own happen at its `now`.
    private var now = SimInstant(nanosecondsSinceEpoch: 0)

    init(pool: EngineProcessPool, context: EngineContext) throws(EngineFailure) {
        self.pool = pool
        run = RunMessages.runName(context)
        recorder = Recorder(expectedFixCount: context.expectedFixCount)
        while true {
            let (process, isReused) = try pool.take(run: run)
            self.process = process
            var ignored: [LocationClientRequest<String>] = []
            exchange(RunMessages.resetLine(context), waitingFor: "its done for reset", kind: .reset, into: &ignored)
            guard let failure else { return }
            // An idle process can still end between the pool's check and this reset (an engine
            // that exits after each finish): its end belongs to no run, so take another.
            guard isReused, processEnded else { throw failure }
            self.failure = nil
            processEnded = false
        }
    }

    deinit {
        // A client dropped before `finish` left its engine mid-run: never reuse that process.
        process?.terminate()
    }

    func start(_ launch: LocationClientLaunch, at now: SimInstant, into requests: inout [LocationClientRequest<String>])
    {
        event(.start(launch), at: now, into: &requests)
    }

    func didUpdateLocations(
        _ locations: [LocationDelivery], at now: SimInstant, into requests: inout [LocationClientRequest<String>]
    ) {
        event(.didUpdateLocations(locations), at: now, into: &requests)
    }

    func didReceiveSignificantChange(
        _ location: Fix, at now: SimInstant, into requests: inout [LocationClientRequest<String>]
    ) {
        event(.didReceiveSignificantChange(location), at: now, into: &requests)
    }

    func didUpdateMotionActivity(
        _ sample: MotionSample, at now: SimInstant, into requests: inout [LocationClientRequest<String>]
    ) {
        event(.didUpdateMotionActivity(sample), at: now, into: &requests)
    }

    func didCrossRegion(
        _ identifier: String, _ crossing: RegionCrossing, at now: SimInstant,
        into requests: inout [LocationClientRequest<String>]
    ) {
        event(.didCrossRegion(identifier: identifier, crossing), at: now, into: &requests)
    }

    func monitoringDidFail(
        forRegion identifier: String, _ rule: DeviceRule, at now: SimInstant,
        into requests: inout [LocationClientRequest<String>]
    ) {
        event(.monitoringDidFail(identifier: identifier, rule), at: now, into: &requests)
    }

    func didVisit(_ visit: VisitEvent, at now: SimInstant, into requests: inout [LocationClientRequest<String>]) {
        event(.didVisit(visit), at: now, into: &requests)
    }

    func didChangeAuthorization(
        _ status: AuthorizationStatus, _ accuracy: AccuracyAuthorization, at now: SimInstant,
        into requests: inout [LocationClientRequest<String>]
    ) {
        event(.didChangeAuthorization(status, accuracy), at: now, into: &requests)
    }

    func didChangeMotionAuthorization(
        _ status: MotionAuthorizationStatus, at now: SimInstant, into requests: inout [LocationClientRequest<String>]
    ) {
        event(.didChangeMotionAuthorization(status), at: now, into: &requests)
    }

    func didCompleteTemporaryFullAccuracyRequest(
        granted: Bool, at now: SimInstant, into requests: inout [LocationClientRequest<String>]
    ) {
        event(.didCompleteTemporaryFullAccuracy(granted: granted), at: now, into: &requests)
    }

    func didFailLocationUpdates(
        _ rule: DeviceRule, at now: SimInstant, into requests: inout [LocationClientRequest<String>]
    ) {
        event(.didFailWithError(rule), at: now, into: &requests)
    }

    func didPauseLocationUpdates(at now: SimInstant, into requests: inout [LocationClientRequest<String>]) {
        event(.didPauseLocationUpdates, at: now, into: &requests)
    }

    func didLaunch(
        _ reason: LaunchReason, inBackground: Bool, at now: SimInstant,
        into requests: inout [LocationClientRequest<String>]
    ) {
        event(.didLaunch(reason, inBackground: inBackground), at: now, into: &requests)
    }

    func timerFired(_ timer: String, at now: SimInstant, into requests: inout [LocationClientRequest<String>]) {
        event(.timerFired(timer), at: now, into: &requests)
    }

    /// Sends `finish`, takes the last records, and hands a healthy process back to the pool.
    func finish(at now: SimInstant) {
        var ignored: [LocationClientRequest<String>] = []
        event(.finish, at: now, into: &ignored)
        if failure == nil, let process {
            pool.giveBack(process)
            self.process = nil
        }
    }

    // MARK: One round trip

    private enum Kind {
        case reset, event, finish
    }

    private static let doneBytes = Array(EngineAnswer.done.line.utf8)

    private func event(_ event: EngineEvent, at now: SimInstant, into requests: inout [LocationClientRequest<String>]) {
        guard failure == nil else { return }
        self.now = now
        exchange(
            event.line(now: now), waitingFor: "its done for \(event.type)", kind: event == .finish ? .finish : .event,
            into: &requests)
    }

    private func exchange(
        _ line: String, waitingFor: String, kind: Kind, into requests: inout [LocationClientRequest<String>]
    ) {
        guard let process else { return }
        let exchange = Exchange(process: process, run: run, waitingFor: waitingFor, timeoutSeconds: pool.timeoutSeconds)
        let deadline = Deadline(secondsFromNow: pool.timeoutSeconds)
        do {
            // An answer must follow its event. A line already waiting is an extra answer to the
            // previous one (a second done, a late request): taken as this event's, every answer
            // from here on would be one event late.
            if kind != .reset, process.hasUnreadOutput() {
                throw EngineFailure(
                    "run \(run): output line \(process.linesRead + 1): a line after the done for the previous event, "
                        + "before \(waitingFor.replacingOccurrences(of: "its done for ", with: "")) was sent")
            }
            try process.send(line, deadline: deadline)
            while true {
                let line = try process.readLine(deadline: deadline)
                // Most answers are a bare done: recognised by its bytes, without a parse.
                if line.elementsEqual(Self.doneBytes) { return }
                let (value, type) = try exchange.message(line)
                guard let answer = try exchange.answer(value, type: type) else { continue }
                if try apply(answer, kind: kind, exchange, into: &requests) { return }
            }
        } catch let failure as EngineFailure {
            fail(failure)
        } catch let failure as EngineProcess.Failure {
            switch failure {
            case .exited, .writeFailed: processEnded = true
            case .timedOut, .lineTooLong, .spawnFailed: break
            }
            fail(exchange.failure(failure))
        } catch {
            fail(EngineFailure("run \(run): \(error)"))
        }
    }

    /// Applies one answer; true at `done`.
    private func apply(
        _ answer: EngineAnswer, kind: Kind, _ exchange: Exchange, into requests: inout [LocationClientRequest<String>]
    ) throws(EngineFailure) -> Bool {
        switch answer {
        case .done:
            return true
        case .log(let message):
            diagnostics.note(message, at: now)
        case .hello:
            throw exchange.failure("'hello' out of order: the engine said hello already")
        case .request(let request):
            guard kind == .event else {
                throw exchange.failure("a request in answer to \(kind == .reset ? "reset" : "finish")")
            }
            requests.append(.device(request))
        case .schedule(let timer, let at):
            guard kind == .event else {
                throw exchange.failure("a schedule in answer to \(kind == .reset ? "reset" : "finish")")
            }
            guard at >= now else {
                throw exchange.failure(
                    "timer '\(timer)' is scheduled at \(at.nanosecondsSinceEpoch), before now (\(now.nanosecondsSinceEpoch))"
                )
            }
            requests.append(.schedule(timer, at: at))
        case .record(let record):
            guard kind != .reset else { throw exchange.failure("a record in answer to reset") }
            try self.record(record, exchange)
        }
        return false
    }

    private func record(_ record: EngineRecord, _ exchange: Exchange) throws(EngineFailure) {
        switch record {
        case .delivered: recorder.fixDelivered()
        case .rejected(let reason): recorder.rejected(reason)
        case .accepted(let time, let latitude, let longitude):
            recorder.accepted(Fix(timestamp: time, latitude: latitude, longitude: longitude))
        case .recorded:
            guard recorder.acceptedFixCount > 0 else {
                throw exchange.failure("'recorded' before any 'accepted' fix")
            }
            recorder.recordedLastAccepted()
        case .motion(let state, let time): recorder.motionChanged(to: state, at: time ?? now)
        case .geofence(let identifier, let action, let time):
            recorder.geofence(GeofenceEvent(identifier: identifier, action: action, time: time ?? now))
        case .heartbeat(let time): recorder.heartbeat(at: time ?? now)
        case .odometer(let meters): odometerMeters = meters
        }
    }

    private func fail(_ failure: EngineFailure) {
        self.failure = failure
        process?.terminate()
        process = nil
    }
}
