import ConfigJSON
import Device
import Engine
import Geometry
import SimulationCore
import Traces

/// The engine's side of the protocol, played by the built-in `TrackingEngine`: what
/// `tracesim serve-engine` runs. It reads TraceSim's lines and answers each with the engine's
/// requests, timers and what its `Recorder` gained, closed by `done`.
///
/// The record is sent as the difference between the recorder before and after each callback,
/// in the order `Recorder`'s calls need: each accepted fix is followed by `recorded` when the
/// distance filter kept it, so TraceSim's copy of the record ends identical to the engine's,
/// and the differential test can demand the same bytes from every report.
///
/// It speaks protocol version 2 with the capability `replaceTimers` (unless held to version
/// 1): a timer is then named by its kind alone, and scheduling it again replaces the pending
/// one, which the engine would have found stale anyway. In version 1 a timer is named by its
/// kind and generation, and every one fires.
///
/// In version 2 it also declares `runs` unless told not to: a `didUpdateLocationRun` goes to
/// the engine's own `didUpdateLocationRun`, and the answer opens with how many locations it
/// consumed. Both forms record the same, which the differential check demands.
package struct EngineServer {
    private let highestVersion: Int64
    private let offersRuns: Bool
    private var takesRuns = false
    private var engine: TrackingEngine?
    private var isGreeted = false
    private var replacesTimers = false
    private var timers: [String: EngineTimer] = [:]
    private var seen = Seen()
    private var requests: [LocationClientRequest<EngineTimer>] = []

    /// How much of the recorder has been sent already.
    private struct Seen {
        var delivered = 0
        var rejections = [Int](repeating: 0, count: RejectionReason.allCases.count)
        var accepted = 0
        var recorded = 0
        var motion = 0
        var geofences = 0
        var heartbeats = 0
        var odometerMeters = 0.0
    }

    /// A server that answers TraceSim's `hello` with `highestVersion` at most (1 or 2), and
    /// declares `runs` in version 2 when `declaresRuns`.
    package init(highestVersion: Int64 = RunMessages.highestVersion, declaresRuns: Bool = true) {
        self.highestVersion = min(max(highestVersion, RunMessages.version), RunMessages.highestVersion)
        offersRuns = declaresRuns
    }

    /// Answers one line from TraceSim: the text to write (lines ending in newlines).
    /// - Throws: `ProtocolMessageError` for a line that is not a message at this point.
    package mutating func answer(_ line: ArraySlice<UInt8>) throws(ProtocolMessageError) -> String {
        let (value, type) = try JSONValue.message(line)
        if type == "hello" {
            var fields = try MessageFields(value, context: "hello")
            _ = try fields.string("type")
            let version = try fields.integer("protocolVersion")
            _ = try fields.optionalString("tracesim")
            try fields.finish()
            guard version == RunMessages.version else {
                throw ProtocolMessageError(
                    "TraceSim's hello names protocol version \(version); this engine expects \(RunMessages.version), "
                        + "as every TraceSim's hello names, and answers in version \(highestVersion)")
            }
            isGreeted = true
            replacesTimers = highestVersion >= 2
            takesRuns = highestVersion >= 2 && offersRuns
            let capabilities =
                highestVersion >= 2
                ? [EngineCapability.replaceTimers] + (takesRuns ? [EngineCapability.runs] : []) : nil
            return EngineAnswer.hello(
                protocolVersion: highestVersion, name: "tracesim built-in", capabilities: capabilities?.map(\.rawValue)
            )
            .line + "\n"
        }
        guard isGreeted else { throw ProtocolMessageError("'\(type)' before hello") }
        if type == "reset" {
            let reset = try RunMessages.reset(value)
            do {
                // The count is the peer's: reserve for it only up to a bound, and grow past it.
                engine = try TrackingEngine(
                    configuration: reset.configuration, fences: reset.fences, context: GEOSContext(),
                    expectedFixCount: min(reset.expectedFixCount, EngineLimits.maximumReservedFixes))
            } catch {
                throw ProtocolMessageError("reset: \(error)")
            }
            timers = [:]
            seen = Seen()
            return EngineAnswer.done.line + "\n"
        }
        if type == LocationRunMessage.type {
            guard takesRuns else {
                throw ProtocolMessageError("'\(type)' from a TraceSim this engine did not declare 'runs' to")
            }
            guard let engine else { throw ProtocolMessageError("'\(type)' before reset") }
            let deliveries = try LocationRunMessage.parse(value)
            requests.removeAll(keepingCapacity: true)
            let consumed = engine.didUpdateLocationRun(LocationRun(deliveries[...]), into: &requests)
            return answerText(engine, opening: EngineAnswer.consumed(count: Int64(consumed)).line + "\n")
        }
        guard EngineEvent.types.contains(type) else { throw ProtocolMessageError("unknown message type '\(type)'") }
        guard let engine else { throw ProtocolMessageError("'\(type)' before reset") }
        guard let (event, now) = try EngineEvent.parse(value, type: type) else {
            throw ProtocolMessageError("unknown message type '\(type)'")
        }
        requests.removeAll(keepingCapacity: true)
        try call(engine, event, at: now)
        return answerText(engine, opening: "")
    }

    /// The answer to one message after the engine handled it: `opening`, then its requests
    /// and timers, what its recorder gained, and `done`.
    private mutating func answerText(_ engine: TrackingEngine, opening: String) -> String {
        var text = opening
        for request in requests {
            switch request {
            case .device(let call):
                text += EngineAnswer.request(call).line + "\n"
            case .schedule(let timer, let at):
                let name = Self.name(timer, replacing: replacesTimers)
                timers[name] = timer
                text += EngineAnswer.schedule(timer: name, at: at).line + "\n"
            }
        }
        appendRecords(of: engine, to: &text)
        return text + EngineAnswer.done.line + "\n"
    }

    private mutating func call(_ engine: TrackingEngine, _ event: EngineEvent, at now: SimInstant)
        throws(ProtocolMessageError)
    {
        // A class, but the protocol's default callbacks are `mutating`: call them on a `var`.
        var engine = engine
        switch event {
        case .start(let launch): engine.start(launch, at: now, into: &requests)
        case .didUpdateLocations(let deliveries): engine.didUpdateLocations(deliveries, at: now, into: &requests)
        case .didReceiveSignificantChange(let fix): engine.didReceiveSignificantChange(fix, at: now, into: &requests)
        case .didUpdateMotionActivity(let sample): engine.didUpdateMotionActivity(sample, at: now, into: &requests)
        case .didCrossRegion(let identifier, let crossing):
            engine.didCrossRegion(identifier, crossing, at: now, into: &requests)
        case .monitoringDidFail(let identifier, let rule):
            engine.monitoringDidFail(forRegion: identifier, rule, at: now, into: &requests)
        case .didVisit(let visit): engine.didVisit(visit, at: now, into: &requests)
        case .didChangeAuthorization(let status, let accuracy):
            engine.didChangeAuthorization(status, accuracy, at: now, into: &requests)
        case .didChangeMotionAuthorization(let status):
            engine.didChangeMotionAuthorization(status, at: now, into: &requests)
        case .didCompleteTemporaryFullAccuracy(let granted):
            engine.didCompleteTemporaryFullAccuracyRequest(granted: granted, at: now, into: &requests)
        case .didFailWithError(let rule): engine.didFailLocationUpdates(rule, at: now, into: &requests)
        case .didPauseLocationUpdates: engine.didPauseLocationUpdates(at: now, into: &requests)
        case .didLaunch(let reason, let inBackground):
            engine.didLaunch(reason, inBackground: inBackground, at: now, into: &requests)
        case .timerFired(let name):
            guard let timer = timers[name] else {
                throw ProtocolMessageError("timerFired: no timer named '\(name)' was scheduled")
            }
            engine.timerFired(timer, at: now, into: &requests)
        case .finish: engine.finish(at: now)
        }
    }

    /// A timer's name: its kind and generation, which is all that tells two timers apart; its
    /// kind alone when scheduling it again replaces the pending one.
    private static func name(_ timer: EngineTimer, replacing: Bool) -> String {
        switch timer {
        case .stop(let stop): replacing ? "stop" : "stop:\(stop.generation)"
        case .heartbeat(let generation): replacing ? "heartbeat" : "heartbeat:\(generation)"
        }
    }

    private mutating func appendRecords(of engine: TrackingEngine, to text: inout String) {
        let recorder = engine.recorder
        func add(_ record: EngineRecord) { text += EngineAnswer.record(record).line + "\n" }
        for _ in seen.delivered..<recorder.deliveredFixCount { add(.delivered) }
        seen.delivered = recorder.deliveredFixCount
        for (slot, reason) in RejectionReason.allCases.enumerated() {
            let count = recorder.rejectionCount(reason)
            for _ in seen.rejections[slot]..<count { add(.rejected(reason)) }
            seen.rejections[slot] = count
        }
        let recorded = recorder.recordedIndices[seen.recorded...]
        var nextRecorded = recorded.startIndex
        for index in seen.accepted..<recorder.acceptedFixCount {
            let position = recorder.acceptedPositions[index]
            add(
                .accepted(
                    time: recorder.acceptedTimes[index], latitude: position.latitude, longitude: position.longitude))
            while nextRecorded < recorded.endIndex, Int(recorded[nextRecorded]) == index {
                add(.recorded)
                nextRecorded += 1
            }
        }
        seen.accepted = recorder.acceptedFixCount
        seen.recorded = recorder.recordedFixCount
        for transition in recorder.motionTransitions[seen.motion...] {
            add(.motion(transition.state, time: transition.time))
        }
        seen.motion = recorder.motionTransitions.count
        for event in recorder.geofenceEvents[seen.geofences...] {
            add(.geofence(identifier: event.identifier, event.action, time: event.time))
        }
        seen.geofences = recorder.geofenceEvents.count
        for time in recorder.heartbeatTimes[seen.heartbeats...] { add(.heartbeat(time: time)) }
        seen.heartbeats = recorder.heartbeatTimes.count
        if engine.odometerMeters != seen.odometerMeters {
            add(.odometer(meters: engine.odometerMeters))
            seen.odometerMeters = engine.odometerMeters
        }
    }
}
