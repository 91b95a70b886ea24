import ConfigJSON
import Device
import SimulationCore
import Traces

/// What TraceSim tells the engine during a run: one case per `LocationClient` callback, each
/// sent with the virtual instant it happens at (`now`). Timers are the engine's own strings.
package enum EngineEvent: Sendable, Equatable {
    case start(LocationClientLaunch)
    case didUpdateLocations([LocationDelivery])
    case didReceiveSignificantChange(Fix)
    case didUpdateMotionActivity(MotionSample)
    case didCrossRegion(identifier: String, RegionCrossing)
    case monitoringDidFail(identifier: String, DeviceRule)
    case didVisit(VisitEvent)
    case didChangeAuthorization(AuthorizationStatus, AccuracyAuthorization)
    case didChangeMotionAuthorization(MotionAuthorizationStatus)
    case didCompleteTemporaryFullAccuracy(granted: Bool)
    case didFailWithError(DeviceRule)
    case didPauseLocationUpdates
    case didLaunch(LaunchReason, inBackground: Bool)
    case timerFired(String)
    case finish

    /// The message's `type`.
    package var type: String {
        switch self {
        case .start: "start"
        case .didUpdateLocations: "didUpdateLocations"
        case .didReceiveSignificantChange: "didReceiveSignificantChange"
        case .didUpdateMotionActivity: "didUpdateMotionActivity"
        case .didCrossRegion(_, .enter): "didEnterRegion"
        case .didCrossRegion(_, .exit): "didExitRegion"
        case .monitoringDidFail: "monitoringDidFail"
        case .didVisit: "didVisit"
        case .didChangeAuthorization: "didChangeAuthorization"
        case .didChangeMotionAuthorization: "didChangeMotionAuthorization"
        case .didCompleteTemporaryFullAccuracy: "didCompleteTemporaryFullAccuracy"
        case .didFailWithError: "didFailWithError"
        case .didPauseLocationUpdates: "didPauseLocationUpdates"
        case .didLaunch: "didLaunch"
        case .timerFired: "timerFired"
        case .finish: "finish"
        }
    }

    /// Every event type, for the schema test and the serving side's error message.
    package static let types = [
        "start", "didUpdateLocations", "didReceiveSignificantChange", "didUpdateMotionActivity", "didEnterRegion",
        "didExitRegion", "monitoringDidFail", "didVisit", "didChangeAuthorization", "didChangeMotionAuthorization",
        "didCompleteTemporaryFullAccuracy", "didFailWithError", "didPauseLocationUpdates", "didLaunch", "timerFired",
        "finish",
    ]

    /// The line TraceSim writes (without its newline).
    package func line(now: SimInstant) -> String {
        var line = ProtocolBytes()
        write(now: now, into: &line)
        return String(decoding: line.bytes.dropLast(), as: UTF8.self)
    }

    /// Appends the line TraceSim writes, and its newline, to `line`. Locations, the event sent
    /// most, go straight into bytes through the location writer `didUpdateLocationRun` uses.
    func write(now: SimInstant, into line: inout ProtocolBytes) {
        if case .didUpdateLocations(let deliveries) = self {
            line.member(#"{"type":"didUpdateLocations","now":"#, now.nanosecondsSinceEpoch)
            line.append(#","locations":"#)
            ProtocolValues.write(deliveries, into: &line)
            line.append("}\n")
        } else {
            line.append(memberwiseLine(now: now))
            line.append("\n")
        }
    }

    /// The line of any other event, member by member.
    private func memberwiseLine(now: SimInstant) -> String {
        var line = ProtocolLine(type: type)
        line.integer("now", now.nanosecondsSinceEpoch)
        switch self {
        case .start(let launch):
            line.string(
                "authorizationStatus",
                ProtocolValues.name(launch.authorizationStatus, in: ProtocolValues.authorizationStatuses))
            line.string(
                "accuracyAuthorization",
                ProtocolValues.name(launch.accuracyAuthorization, in: ProtocolValues.accuracies))
            line.string(
                "motionAuthorizationStatus",
                ProtocolValues.name(launch.motionAuthorizationStatus, in: ProtocolValues.motionStatuses))
            line.bool("isMotionActivityAvailable", launch.isMotionActivityAvailable)
            line.bool("locationServicesEnabled", launch.isLocationServicesEnabled)
        case .didUpdateLocations(let deliveries):
            // `write(now:into:)` writes locations straight into bytes and never comes here; the
            // same member is built here all the same, so no event has a path that traps.
            var locations = ProtocolBytes()
            ProtocolValues.write(deliveries, into: &locations)
            line.raw("locations", locations.text)
        case .didReceiveSignificantChange(let fix):
            line.raw("location", ProtocolValues.fix(fix))
        case .didUpdateMotionActivity(let sample):
            line.raw("activity", ProtocolValues.motion(sample))
        case .didCrossRegion(let identifier, _):
            line.string("identifier", identifier)
        case .monitoringDidFail(let identifier, let rule):
            line.string("identifier", identifier)
            line.string("rule", rule.rawValue)
        case .didVisit(let visit):
            line.raw("visit", ProtocolValues.visit(visit))
        case .didChangeAuthorization(let status, let accuracy):
            line.string("authorizationStatus", ProtocolValues.name(status, in: ProtocolValues.authorizationStatuses))
            line.string("accuracyAuthorization", ProtocolValues.name(accuracy, in: ProtocolValues.accuracies))
        case .didChangeMotionAuthorization(let status):
            line.string("motionAuthorizationStatus", ProtocolValues.name(status, in: ProtocolValues.motionStatuses))
        case .didCompleteTemporaryFullAccuracy(let granted):
            line.bool("granted", granted)
        case .didFailWithError(let rule):
            line.string("rule", rule.rawValue)
        case .didLaunch(let reason, let inBackground):
            line.string("reason", ProtocolValues.name(reason, in: ProtocolValues.launchReasons))
            line.bool("inBackground", inBackground)
        case .timerFired(let timer):
            line.string("timer", timer)
        case .didPauseLocationUpdates, .finish:
            break
        }
        return line.line
    }

    /// Reads an event line (the serving side). `nil` when `type` is not an event.
    package static func parse(_ value: JSONValue, type: String) throws(ProtocolMessageError) -> (
        event: EngineEvent, now: SimInstant
    )? {
        guard types.contains(type) else { return nil }
        var fields = try MessageFields(value, context: type)
        _ = try fields.string("type")
        let now = try fields.instant("now")
        let event: EngineEvent
        switch type {
        case "start":
            var launch = LocationClientLaunch(
                authorizationStatus: try fields.token("authorizationStatus", ProtocolValues.authorizationStatuses),
                accuracyAuthorization: try fields.token("accuracyAuthorization", ProtocolValues.accuracies),
                motionAuthorizationStatus: try fields.token("motionAuthorizationStatus", ProtocolValues.motionStatuses),
                isMotionActivityAvailable: try fields.bool("isMotionActivityAvailable"))
            launch.isLocationServicesEnabled = try fields.bool("locationServicesEnabled")
            event = .start(launch)
        case "didUpdateLocations":
            event = .didUpdateLocations(try ProtocolValues.deliveries(try fields.array("locations"), in: type))
        case "didReceiveSignificantChange":
            event = .didReceiveSignificantChange(
                try ProtocolValues.fix(try fields.object("location"), context: "\(type): location").fix)
        case "didUpdateMotionActivity":
            event = .didUpdateMotionActivity(
                try ProtocolValues.motion(try fields.object("activity"), context: "\(type): activity"))
        case "didEnterRegion":
            event = .didCrossRegion(identifier: try fields.string("identifier"), .enter)
        case "didExitRegion":
            event = .didCrossRegion(identifier: try fields.string("identifier"), .exit)
        case "monitoringDidFail":
            event = .monitoringDidFail(
                identifier: try fields.string("identifier"), try fields.token("rule", ProtocolValues.rules))
        case "didVisit":
            event = .didVisit(try ProtocolValues.visit(try fields.object("visit"), context: "\(type): visit"))
        case "didChangeAuthorization":
            event = .didChangeAuthorization(
                try fields.token("authorizationStatus", ProtocolValues.authorizationStatuses),
                try fields.token("accuracyAuthorization", ProtocolValues.accuracies))
        case "didChangeMotionAuthorization":
            event = .didChangeMotionAuthorization(
                try fields.token("motionAuthorizationStatus", ProtocolValues.motionStatuses))
        case "didCompleteTemporaryFullAccuracy":
            event = .didCompleteTemporaryFullAccuracy(granted: try fields.bool("granted"))
        case "didFailWithError":
            event = .didFailWithError(try fields.token("rule", ProtocolValues.rules))
        case "didPauseLocationUpdates":
            event = .didPauseLocationUpdates
        case "didLaunch":
            event = .didLaunch(
                try fields.token("reason", ProtocolValues.launchReasons), inBackground: try fields.bool("inBackground"))
        case "timerFired":
            event = .timerFired(try fields.string("timer"))
        default:
            event = .finish
        }
        try fields.finish()
        return (event, now)
    }
}
