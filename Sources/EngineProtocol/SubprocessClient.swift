import Device
import Engine
import Scenarios
import SimulationCore
import Traces

/// A subprocess engine's timer as the replay holds it: the engine's id, and a serial that
/// tells a replaced or cancelled timer from the live one (protocol version 2).
struct SubprocessTimer: Sendable, Equatable {
    var id: String
    var serial: Int
}

/// The app side of one run, played by an engine process: each callback becomes one event line,
/// and the engine's answer lines up to its `done` become requests, timers and the record.
///
/// What the engine says is checked before it is kept: an accepted fix must be one delivered to
/// it in this run and on the globe, and the run stays within `EngineLimits`.
final class SubprocessClient: RecordingClient {
    typealias Timer = SubprocessTimer

    private(set) var recorder: Recorder
    private(set) var odometerMeters = 0.0
    private var log = ClientDiagnostics()
    private(set) var failure: EngineFailure?
    private let pool: EngineProcessPool?
    private let timeoutSeconds: Double
    private let run: String
    private var connection: (any EngineConnection)?
    private var session = EngineSession.version1
    /// Whether the last failure was the process ending (its output closed, or it stopped
    /// reading its input), rather than something it wrote or a timeout.
    private var processEnded = false
    /// Records of the current event that carry no time of their own happen at its `now`.
    private var now = SimInstant(nanosecondsSinceEpoch: 0)
    /// Said once, at the run's first event: capabilities the engine declared that this TraceSim
    /// does not know.
    private var capabilityNote: String?

    // What the limits count.
    /// Fixes and motion samples delivered so far.
    private var deliveries = 0
    private var eventsSent = 0
    private var answers = 0
    private var instant: SimInstant?
    private var eventsAtInstant = 0
    /// The run's first event: the limits grow with the virtual time since.
    private var firstEventTime: SimInstant?

    /// The timestamps of the fixes delivered so far (standard, queued and significant-change):
    /// the times an `accepted` record may name.
    private var deliveredTimes = DeliveredFixTimes()
    private var deliveredFixes = 0

    private var nextTimerSerial = 0
    /// For each timer id replaced or cancelled, the lowest serial still live: a timer below it
    /// comes due silently. Its entry stays in the replay's queue until then, so a run holds one
    /// entry per `schedule` still ahead, up to the answer limit (the protocol document's
    /// "Limits" gives the bound and why the queue does not drop them).
    private var liveTimerFloor: [String: Int] = [:]

    /// `didUpdateLocationRun` messages sent in this run, and the locations consumed from them:
    /// how a test tells that runs were used (`EngineProcessPool.runMessages`).
    private(set) var runMessagesSent = 0
    private(set) var runLocationsConsumed = 0
    /// The run line's buffer, kept from message to message.
    private var runMessage = LocationRunMessage()
    /// An event's line, kept from event to event.
    private var eventLine = ProtocolBytes()
    /// While the answer to a run message is read: the run's deliveries, and how many of them
    /// the engine consumed once it said so.
    private var pendingRun: ArraySlice<LocationDelivery> = []
    private var consumedCount: Int?

    var diagnostics: [ClientDiagnostic] { log.kept }
    var droppedDiagnostics: DroppedDiagnostics { log.dropped }

    /// The client of a run on one of `pool`'s processes.
    init(pool: EngineProcessPool, context: EngineContext) throws(EngineFailure) {
        self.pool = pool
        timeoutSeconds = pool.timeoutSeconds
        run = RunMessages.runName(context)
        recorder = Recorder(expectedFixCount: context.expectedFixCount)
        while true {
            let (process, isReused) = try pool.take(run: run)
            connection = process
            reset(context)
            guard let failure else { return }
            // An idle process can still end between the pool's check and this reset (an engine
            // that exits after each finish): its end belongs to no run, so take another.
            guard isReused, processEnded else { throw failure }
            self.failure = nil
            processEnded = false
        }
    }

    /// The client of a run on `connection`, greeted here unless it was before: the seam through
    /// which lines in memory drive the client (`EngineProtocolHarness`).
    init(connection: any EngineConnection, context: EngineContext, timeoutSeconds: Double) throws(EngineFailure) {
        pool = nil
        self.timeoutSeconds = timeoutSeconds
        run = RunMessages.runName(context)
        recorder = Recorder(expectedFixCount: context.expectedFixCount)
        if connection.session == nil {
            _ = try Exchange.greet(connection, run: run, timeoutSeconds: timeoutSeconds)
        }
        self.connection = connection
        reset(context)
        if let failure { throw failure }
    }

    deinit {
        // A client dropped before `finish` left its engine mid-run: never reuse that process.
        connection?.terminate()
    }

    private func reset(_ context: EngineContext) {
        session = connection?.session ?? .version1
        capabilityNote =
            session.unknownCapabilities.isEmpty
            ? nil
            : "the engine declared capabilities this TraceSim does not know, and they are ignored: "
                + session.unknownCapabilities.map { "'\($0)'" }.joined(separator: ", ")
        var ignored: [LocationClientRequest<SubprocessTimer>] = []
        let line: String
        do {
            line = try EngineSettingDeclarations.resetLine(context, session: session)
        } catch {
            // The scenario names a setting this engine does not declare: nothing to send.
            connection?.terminate()
            failure = EngineFailure("run \(run): \(error.message)")
            return
        }
        exchange(line, answering: "reset", kind: .reset, into: &ignored)
    }

    func start(
        _ launch: LocationClientLaunch, at now: SimInstant,
        into requests: inout [LocationClientRequest<SubprocessTimer>]
    ) {
        event(.start(launch), at: now, into: &requests)
    }

    func didUpdateLocations(
        _ locations: [LocationDelivery], at now: SimInstant,
        into requests: inout [LocationClientRequest<SubprocessTimer>]
    ) {
        event(.didUpdateLocations(locations), at: now, into: &requests)
    }

    /// Whether the engine takes locations in runs: it declared the capability `runs`.
    var takesLocationRuns: Bool { session.has(.runs) }

    /// The whole run in one `didUpdateLocationRun` message; the engine's answer opens with how
    /// many of its deliveries it consumed (1 to all of them), and TraceSim resumes after those.
    func didUpdateLocationRun(
        _ run: LocationRun, into requests: inout [LocationClientRequest<SubprocessTimer>]
    ) -> Int {
        // A long run goes in pieces: the engine cannot tell, since the locations after a piece
        // come again in the next message, and no line grows past about a megabyte.
        let deliveries = run.deliveries.prefix(LocationRunMessage.maximumLocations)
        guard failure == nil, let first = deliveries.first else { return deliveries.count }
        now = first.time
        if let note = capabilityNote {
            log.note(note, at: now)
            capabilityNote = nil
        }
        // Counted as the first delivery alone, as its own event would be; the rest are counted
        // once the engine says how many it consumed.
        self.deliveries += 1
        guard isWithinEventLimits(at: now) else { return deliveries.count }
        runMessage.write(deliveries)
        runMessagesSent += 1
        pendingRun = deliveries
        consumedCount = nil
        exchange(bytes: runMessage.bytes, answering: LocationRunMessage.type, kind: .run, into: &requests)
        let consumed = consumedCount ?? deliveries.count
        runLocationsConsumed += consumed
        pendingRun = []
        consumedCount = nil
        return consumed
    }

    func didReceiveSignificantChange(
        _ location: Fix, at now: SimInstant, into requests: inout [LocationClientRequest<SubprocessTimer>]
    ) {
        event(.didReceiveSignificantChange(location), at: now, into: &requests)
    }

    func didUpdateMotionActivity(
        _ sample: MotionSample, at now: SimInstant, into requests: inout [LocationClientRequest<SubprocessTimer>]
    ) {
        event(.didUpdateMotionActivity(sample), at: now, into: &requests)
    }

    func didCrossRegion(
        _ identifier: String, _ crossing: RegionCrossing, at now: SimInstant,
        into requests: inout [LocationClientRequest<SubprocessTimer>]
    ) {
        event(.didCrossRegion(identifier: identifier, crossing), at: now, into: &requests)
    }

    func monitoringDidFail(
        forRegion identifier: String, _ rule: DeviceRule, at now: SimInstant,
        into requests: inout [LocationClientRequest<SubprocessTimer>]
    ) {
        event(.monitoringDidFail(identifier: identifier, rule), at: now, into: &requests)
    }

    func didVisit(
        _ visit: VisitEvent, at now: SimInstant, into requests: inout [LocationClientRequest<SubprocessTimer>]
    ) {
        event(.didVisit(visit), at: now, into: &requests)
    }

    func didChangeAuthorization(
        _ status: AuthorizationStatus, _ accuracy: AccuracyAuthorization, at now: SimInstant,
        into requests: inout [LocationClientRequest<SubprocessTimer>]
    ) {
        event(.didChangeAuthorization(status, accuracy), at: now, into: &requests)
    }

    func didChangeMotionAuthorization(
        _ status: MotionAuthorizationStatus, at now: SimInstant,
        into requests: inout [LocationClientRequest<SubprocessTimer>]
    ) {
        event(.didChangeMotionAuthorization(status), at: now, into: &requests)
    }

    func didCompleteTemporaryFullAccuracyRequest(
        granted: Bool, at now: SimInstant, into requests: inout [LocationClientRequest<SubprocessTimer>]
    ) {
        event(.didCompleteTemporaryFullAccuracy(granted: granted), at: now, into: &requests)
    }

    func didFailLocationUpdates(
        _ rule: DeviceRule, at now: SimInstant, into requests: inout [LocationClientRequest<SubprocessTimer>]
    ) {
        event(.didFailWithError(rule), at: now, into: &requests)
    }

    func didPauseLocationUpdates(at now: SimInstant, into requests: inout [LocationClientRequest<SubprocessTimer>]) {
        event(.didPauseLocationUpdates, at: now, into: &requests)
    }

    func didLaunch(
        _ reason: LaunchReason, inBackground: Bool, at now: SimInstant,
        into requests: inout [LocationClientRequest<SubprocessTimer>]
    ) {
        event(.didLaunch(reason, inBackground: inBackground), at: now, into: &requests)
    }

    func timerFired(
        _ timer: SubprocessTimer, at now: SimInstant, into requests: inout [LocationClientRequest<SubprocessTimer>]
    ) {
        // Replaced or cancelled: the engine no longer expects it.
        if let floor = liveTimerFloor[timer.id], timer.serial < floor { return }
        event(.timerFired(timer.id), at: now, into: &requests)
    }

    /// Sends `finish`, takes the last records, and hands a healthy process back to the pool.
    func finish(at now: SimInstant) {
        var ignored: [LocationClientRequest<SubprocessTimer>] = []
        event(.finish, at: now, into: &ignored)
        pool?.count(runMessages: runMessagesSent, locations: runLocationsConsumed)
        if failure == nil, let process = connection as? EngineProcess, let pool {
            pool.giveBack(process)
            connection = nil
        }
    }

    // MARK: One round trip

    private enum Kind {
        case reset, event, run, finish

        var name: String {
            switch self {
            case .reset: "reset"
            case .event: "an event"
            case .run: LocationRunMessage.type
            case .finish: "finish"
            }
        }

        /// Whether the answer may make calls to the device and arm or cancel timers.
        var takesRequests: Bool { self == .event || self == .run }
    }

    private static let doneBytes = Array(EngineAnswer.done.line.utf8)

    private func event(
        _ event: EngineEvent, at now: SimInstant, into requests: inout [LocationClientRequest<SubprocessTimer>]
    ) {
        guard failure == nil else { return }
        self.now = now
        if let note = capabilityNote {
            log.note(note, at: now)
            capabilityNote = nil
        }
        switch event {
        case .didUpdateLocations(let deliveries):
            for delivery in deliveries { deliveredTimes.insert(delivery.fix.timestamp) }
            deliveredFixes += deliveries.count
            self.deliveries += deliveries.count
        case .didReceiveSignificantChange(let fix):
            deliveredTimes.insert(fix.timestamp)
            deliveredFixes += 1
            deliveries += 1
        case .didUpdateMotionActivity:
            deliveries += 1
        default:
            break
        }
        guard isWithinEventLimits(at: now) else { return }
        eventLine.removeAll()
        event.write(now: now, into: &eventLine)
        exchange(
            bytes: eventLine.bytes, answering: event.type, kind: event == .finish ? .finish : .event, into: &requests)
    }

    /// Whole seconds of virtual time from the run's first event to now.
    private var elapsedSeconds: Int64 {
        guard let firstEventTime else { return 0 }
        return (now.nanosecondsSinceEpoch &- firstEventTime.nanosecondsSinceEpoch) / 1_000_000_000
    }

    /// Counts one more event at `now`; fails the run past `EngineLimits`.
    private func isWithinEventLimits(at now: SimInstant) -> Bool {
        if firstEventTime == nil { firstEventTime = now }
        if now == instant {
            eventsAtInstant += 1
        } else {
            instant = now
            eventsAtInstant = 1
        }
        eventsSent += 1
        if eventsAtInstant > EngineLimits.maximumEventsAtOneInstant {
            fail(
                EngineFailure(
                    "run \(run): more than \(EngineLimits.maximumEventsAtOneInstant) events at one instant "
                        + "(\(now.nanosecondsSinceEpoch)): each answer raises another event at once (a timer due "
                        + "now, or a request made again on its own callback), so virtual time never moves on"))
            return false
        }
        let maximum = EngineLimits.maximumEvents(deliveries: deliveries, seconds: elapsedSeconds)
        if eventsSent > maximum {
            fail(
                EngineFailure(
                    "run \(run): more than \(maximum) events for \(deliveries) fixes and motion samples delivered "
                        + "over \(elapsedSeconds) s (the limit is \(EngineLimits.eventsPerDelivery) × (deliveries + "
                        + "\(EngineLimits.deliveryAllowance)) + \(EngineLimits.eventsPerSecond) × seconds): the "
                        + "engine's timers fire far more often than fixes arrive or time passes"))
            return false
        }
        return true
    }

    private func exchange(
        _ line: String, answering type: String, kind: Kind,
        into requests: inout [LocationClientRequest<SubprocessTimer>]
    ) {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        exchange(bytes: bytes, answering: type, kind: kind, into: &requests)
    }

    private func exchange(
        bytes line: [UInt8], answering messageType: String, kind: Kind,
        into requests: inout [LocationClientRequest<SubprocessTimer>]
    ) {
        guard let connection else { return }
        let exchange = Exchange(
            connection: connection, run: run, awaited: .done(for: messageType), timeoutSeconds: timeoutSeconds)
        let deadline = Deadline(secondsFromNow: timeoutSeconds)
        do {
            // An answer must follow its event. A line already waiting is an extra answer to the
            // previous one (a second done, a late request): taken as this event's, every answer
            // from here on would be one event late.
            if kind != .reset, connection.hasUnreadOutput() {
                throw EngineFailure(
                    "run \(run): output line \(connection.linesRead + 1): a line after the done for the previous "
                        + "event, before \(messageType) was sent")
            }
            try connection.send(lineBytes: line, deadline: deadline)
            while true {
                let line = try connection.readLine(deadline: deadline)
                // Most answers are a bare done: recognised by its bytes, without a parse.
                if line.elementsEqual(Self.doneBytes) {
                    try checkConsumedBeforeDone(kind, exchange)
                    return
                }
                let (value, type) = try exchange.message(line)
                if try apply(try exchange.answer(value, type: type), kind: kind, exchange, into: &requests) { return }
            }
        } catch let failure as EngineFailure {
            fail(failure)
        } catch let failure as EngineProcess.Failure {
            switch failure {
            case .exited, .inputClosed, .writeFailed: processEnded = true
            case .timedOut, .lineTooLong, .spawnFailed: break
            }
            fail(exchange.failure(failure))
        } catch {
            fail(EngineFailure("run \(run): \(error)"))
        }
    }

    /// Applies one answer; true at `done`.
    private func apply(
        _ answer: EngineAnswer, kind: Kind, _ exchange: Exchange,
        into requests: inout [LocationClientRequest<SubprocessTimer>]
    ) throws(EngineFailure) -> Bool {
        switch answer {
        case .done: return true
        // Kept in bounded form (`ClientDiagnostics`), and bounded in time by the timeout: a
        // chatty engine is not a broken one.
        case .log: break
        default: answers += 1
        }
        let maximum = EngineLimits.maximumAnswers(deliveries: deliveries, seconds: elapsedSeconds)
        if answers > maximum {
            throw exchange.failure(
                "more than \(maximum) answers for \(deliveries) fixes and motion samples delivered over "
                    + "\(elapsedSeconds) s (the limit is \(EngineLimits.answersPerDelivery) × (deliveries + "
                    + "\(EngineLimits.deliveryAllowance)) + \(EngineLimits.answersPerSecond) × seconds)")
        }
        if kind == .run, consumedCount == nil {
            switch answer {
            case .log, .consumed, .hello: break
            case .done: try checkConsumedBeforeDone(kind, exchange)
            case .request, .schedule, .cancel, .record:
                let type =
                    switch answer {
                    case .request: "request"
                    case .schedule: "schedule"
                    case .cancel: "cancel"
                    default: "record"
                    }
                throw exchange.failure(
                    "'\(type)' before 'consumed': the answer to \(LocationRunMessage.type) opens with how many "
                        + "locations the engine consumed")
            }
        }
        switch answer {
        case .done:
            return true
        case .consumed(let count):
            try consume(count, in: kind, exchange)
        case .log(let message):
            log.note(message, at: now)
        case .hello:
            throw exchange.failure("'hello' out of order: the engine said hello already")
        case .request(let request):
            guard kind.takesRequests else { throw exchange.failure("a request in answer to \(kind.name)") }
            requests.append(.device(request))
        case .schedule(let timer, let at):
            guard kind.takesRequests else { throw exchange.failure("a schedule in answer to \(kind.name)") }
            guard at >= now else {
                throw exchange.failure(
                    "timer '\(timer)' is scheduled at \(at.nanosecondsSinceEpoch), before now (\(now.nanosecondsSinceEpoch))"
                )
            }
            let serial = nextTimerSerial
            nextTimerSerial += 1
            if session.has(.replaceTimers) { liveTimerFloor[timer] = serial }
            requests.append(.schedule(SubprocessTimer(id: timer, serial: serial), at: at))
        case .cancel(let timer):
            guard session.has(.cancel) else {
                throw exchange.failure(
                    session.version < 2
                        ? "'cancel' is an answer of protocol version 2, and the engine said hello with version 1"
                        : "'cancel' needs the capability 'cancel', which the engine did not declare in its hello")
            }
            guard kind.takesRequests else { throw exchange.failure("a cancel in answer to \(kind.name)") }
            liveTimerFloor[timer] = nextTimerSerial
        case .record(let record):
            guard kind != .reset else { throw exchange.failure("a record in answer to reset") }
            try self.record(record, exchange)
        }
        return false
    }

    /// A `done` that closes the answer to a run must come after its `consumed`.
    private func checkConsumedBeforeDone(_ kind: Kind, _ exchange: Exchange) throws(EngineFailure) {
        guard kind == .run, consumedCount == nil else { return }
        throw exchange.failure(
            "'done' before 'consumed': the answer to \(LocationRunMessage.type) opens with how many locations "
                + "the engine consumed")
    }

    /// The engine consumed the run's first `count` deliveries: they count as delivered from
    /// here on, each as the event of its own it stands for, and `now` is the last one's.
    private func consume(_ count: Int64, in kind: Kind, _ exchange: Exchange) throws(EngineFailure) {
        guard kind == .run else {
            throw exchange.failure("'consumed' answers only \(LocationRunMessage.type), not \(kind.name)")
        }
        guard consumedCount == nil else { throw exchange.failure("'consumed' twice in one answer") }
        let available = pendingRun.count
        guard 1 <= count, count <= Int64(available) else {
            throw exchange.failure(
                "'consumed' count \(count) is not between 1 and the \(available) locations of the run: an engine "
                    + "consumes at least the first, and only locations it was given")
        }
        let consumed = pendingRun.prefix(Int(count))
        consumedCount = consumed.count
        for delivery in consumed { deliveredTimes.insert(delivery.fix.timestamp) }
        deliveredFixes += consumed.count
        // The first delivery was counted when the run was sent.
        deliveries += consumed.count - 1
        eventsSent += consumed.count - 1
        now = consumed[consumed.endIndex - 1].time
        let atNow = consumed.reversed().prefix { $0.time == now }.count
        if instant == now {
            // Every consumed delivery is at the first one's instant, which was counted already.
            eventsAtInstant += atNow - 1
        } else {
            instant = now
            eventsAtInstant = atNow
        }
    }

    private func record(_ record: EngineRecord, _ exchange: Exchange) throws(EngineFailure) {
        switch record {
        case .delivered: recorder.fixDelivered()
        case .rejected(let reason): recorder.rejected(reason)
        case .accepted(let time, let latitude, let longitude):
            // Refused as `startMonitoring` refuses a region off the globe: a time in the wrong
            // unit or a made-up one would become 100 % collected, or a gap of centuries.
            guard deliveredTimes.contains(time) else {
                throw exchange.failure(
                    "record accepted: \"time\" \(time.nanosecondsSinceEpoch) is not the timestamp of a fix "
                        + "delivered to the engine in this run")
            }
            guard recorder.acceptedFixCount < deliveredFixes else {
                throw exchange.failure(
                    "record accepted: more fixes accepted than the \(deliveredFixes) delivered to the engine")
            }
            recorder.accepted(Fix(timestamp: time, latitude: latitude, longitude: longitude))
        case .recorded:
            guard recorder.acceptedFixCount > 0 else {
                throw exchange.failure("'recorded' before any 'accepted' fix")
            }
            guard recorder.recordedIndices.last != UInt32(recorder.acceptedFixCount - 1) else {
                throw exchange.failure("'recorded' twice for the fix accepted last")
            }
            recorder.recordedLastAccepted()
        case .motion(let state, let time):
            recorder.motionChanged(to: state, at: try recordTime(time, of: "motion", exchange))
        case .geofence(let identifier, let action, let time):
            recorder.geofence(
                GeofenceEvent(
                    identifier: identifier, action: action, time: try recordTime(time, of: "geofence", exchange)))
        case .heartbeat(let time): recorder.heartbeat(at: try recordTime(time, of: "heartbeat", exchange))
        case .odometer(let meters): odometerMeters = meters
        }
    }

    /// The time of a record: its own, which must lie between the run's first event and now,
    /// or now. Refused like an `accepted` time that was never delivered: a time in the wrong
    /// unit or made up would feed arrival and geofence delays of centuries.
    private func recordTime(_ time: SimInstant?, of kind: String, _ exchange: Exchange) throws(EngineFailure)
        -> SimInstant
    {
        guard let time else { return now }
        let earliest = firstEventTime ?? now
        guard earliest <= time, time <= now else {
            throw exchange.failure(
                "record \(kind): \"time\" \(time.nanosecondsSinceEpoch) is not between the run's first event "
                    + "(\(earliest.nanosecondsSinceEpoch)) and now (\(now.nanosecondsSinceEpoch))")
        }
        return time
    }

    private func fail(_ failure: EngineFailure) {
        self.failure = failure
        connection?.terminate()
        connection = nil
    }
}
