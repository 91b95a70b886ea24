import ConfigJSON
import Device
import Engine
import Geometry
import Scenarios
import SimulationCore
import Traces

/// What the run is measured on, as the engine reports it: each case is one call of
/// `Recorder`'s, so a subprocess fills the same record the built-in engine fills.
package enum EngineRecord: Sendable, Equatable {
    /// `Recorder.fixDelivered`: a fix reached the engine.
    case delivered
    /// `Recorder.rejected`: the engine dropped a fix, for this reason.
    case rejected(RejectionReason)
    /// `Recorder.accepted`: the engine kept a fix measured at `time`, at this position.
    case accepted(time: SimInstant, latitude: Double, longitude: Double)
    /// `Recorder.recordedLastAccepted`: the fix accepted last is one the engine would upload.
    case recorded
    /// `Recorder.motionChanged`; `nil` time means the event's `now`.
    case motion(MotionStateMachine.State, time: SimInstant?)
    /// `Recorder.geofence`; `nil` time means the event's `now`.
    case geofence(identifier: String, GeofenceEvent.Action, time: SimInstant?)
    /// `Recorder.heartbeat`; `nil` time means the event's `now`.
    case heartbeat(time: SimInstant?)
    /// The odometer's total so far, metres.
    case odometer(meters: Double)

    package static let kinds = [
        "delivered", "rejected", "accepted", "recorded", "motion", "geofence", "heartbeat", "odometer",
    ]
}

/// What the engine writes back: its `hello`, then for each event any number of requests,
/// timers, records and log lines closed by exactly one `done`.
package enum EngineAnswer: Sendable, Equatable {
    /// The protocol version the engine speaks; `capabilities` from version 2 on, `nil` in 1;
    /// `settings` it declares for `tune` (capability `settings`), `nil` without.
    case hello(protocolVersion: Int64, name: String, capabilities: [String]?, settings: [EngineSetting]? = nil)
    case request(AppRequest)
    case schedule(timer: String, at: SimInstant)
    /// Forgets every pending timer with this id (capability `cancel`).
    case cancel(timer: String)
    case record(EngineRecord)
    case log(String)
    /// The first answer to a `didUpdateLocationRun` (capability `runs`): how many of its
    /// deliveries the engine handled, up to and including the first that made it write a
    /// request or a timer.
    case consumed(count: Int64)
    case done

    /// Every answer type.
    package static let types = ["hello", "request", "schedule", "cancel", "record", "log", "consumed", "done"]

    /// Core Location's (and Core Motion's) method names for the calls an app makes.
    package static func call(_ request: AppRequest) -> String {
        switch request {
        case .requestedWhenInUse: "requestWhenInUseAuthorization"
        case .requestedAlways: "requestAlwaysAuthorization"
        case .requestedTemporaryFullAccuracy: "requestTemporaryFullAccuracyAuthorization"
        case .startedMotionUpdates: "startActivityUpdates"
        case .createdCentralManager: "createCentralManager"
        case .startedLocationUpdates: "startUpdatingLocation"
        case .stoppedLocationUpdates: "stopUpdatingLocation"
        case .startedMonitoring: "startMonitoring"
        case .stoppedMonitoring: "stopMonitoring"
        case .startedSignificantChanges: "startMonitoringSignificantLocationChanges"
        case .stoppedSignificantChanges: "stopMonitoringSignificantLocationChanges"
        case .startedVisitMonitoring: "startMonitoringVisits"
        case .stoppedVisitMonitoring: "stopMonitoringVisits"
        case .startedBackgroundSession: "startBackgroundActivitySession"
        case .endedBackgroundSession: "invalidateBackgroundActivitySession"
        }
    }

    /// The calls without arguments, by name.
    private static let plainCalls: [(String, AppRequest)] = [
        ("requestWhenInUseAuthorization", .requestedWhenInUse), ("requestAlwaysAuthorization", .requestedAlways),
        ("startActivityUpdates", .startedMotionUpdates), ("createCentralManager", .createdCentralManager),
        ("stopUpdatingLocation", .stoppedLocationUpdates),
        ("startMonitoringSignificantLocationChanges", .startedSignificantChanges),
        ("stopMonitoringSignificantLocationChanges", .stoppedSignificantChanges),
        ("startMonitoringVisits", .startedVisitMonitoring), ("stopMonitoringVisits", .stoppedVisitMonitoring),
        ("startBackgroundActivitySession", .startedBackgroundSession),
        ("invalidateBackgroundActivitySession", .endedBackgroundSession),
    ]

    /// Every call name, for error messages and the schema test.
    package static let calls =
        plainCalls.map(\.0) + [
            "requestTemporaryFullAccuracyAuthorization", "startUpdatingLocation", "startMonitoring", "stopMonitoring",
        ]

    /// The line the engine writes (without its newline).
    package var line: String {
        switch self {
        case .hello(let version, let name, let capabilities, let settings):
            var line = ProtocolLine(type: "hello")
            line.integer("protocolVersion", version)
            line.string("name", name)
            if let capabilities {
                var list = "["
                for (index, capability) in capabilities.enumerated() {
                    if index > 0 { list += "," }
                    JSONStringLiteral.append(capability, to: &list)
                }
                line.raw("capabilities", list + "]")
            }
            if let settings { line.raw("settings", EngineSettingDeclarations.json(settings)) }
            return line.line
        case .request(let request):
            var line = ProtocolLine(type: "request")
            line.string("call", Self.call(request))
            switch request {
            case .requestedTemporaryFullAccuracy(let purpose):
                line.string("purposeKey", purpose)
            case .startedLocationUpdates(let options):
                line.bool("allowsBackgroundLocationUpdates", options.allowsBackgroundLocationUpdates)
                line.bool("pausesLocationUpdatesAutomatically", options.pausesLocationUpdatesAutomatically)
            case .startedMonitoring(let region):
                line.string("identifier", region.identifier)
                line.number("latitude", region.center.latitude)
                line.number("longitude", region.center.longitude)
                line.number("radius", region.radiusMeters)
            case .stoppedMonitoring(let identifier):
                line.string("identifier", identifier)
            case .requestedWhenInUse, .requestedAlways, .startedMotionUpdates, .createdCentralManager,
                .stoppedLocationUpdates, .startedSignificantChanges, .stoppedSignificantChanges,
                .startedVisitMonitoring, .stoppedVisitMonitoring, .startedBackgroundSession, .endedBackgroundSession:
                break
            }
            return line.line
        case .schedule(let timer, let at):
            var line = ProtocolLine(type: "schedule")
            line.string("timer", timer)
            line.integer("at", at.nanosecondsSinceEpoch)
            return line.line
        case .cancel(let timer):
            var line = ProtocolLine(type: "cancel")
            line.string("timer", timer)
            return line.line
        case .record(let record):
            return Self.line(record)
        case .log(let message):
            var line = ProtocolLine(type: "log")
            line.string("message", message)
            return line.line
        case .consumed(let count):
            var line = ProtocolLine(type: "consumed")
            line.integer("count", count)
            return line.line
        case .done:
            return #"{"type":"done"}"#
        }
    }

    private static func line(_ record: EngineRecord) -> String {
        var line = ProtocolLine(type: "record")
        func time(_ instant: SimInstant?) {
            if let instant { line.integer("time", instant.nanosecondsSinceEpoch) }
        }
        switch record {
        case .delivered:
            line.string("kind", "delivered")
        case .rejected(let reason):
            line.string("kind", "rejected")
            line.string("reason", reason.rawValue)
        case .accepted(let at, let latitude, let longitude):
            line.string("kind", "accepted")
            line.integer("time", at.nanosecondsSinceEpoch)
            line.number("latitude", latitude)
            line.number("longitude", longitude)
        case .recorded:
            line.string("kind", "recorded")
        case .motion(let state, let at):
            line.string("kind", "motion")
            line.string("state", state.rawValue)
            time(at)
        case .geofence(let identifier, let action, let at):
            line.string("kind", "geofence")
            line.string("identifier", identifier)
            line.string("action", action.rawValue)
            time(at)
        case .heartbeat(let at):
            line.string("kind", "heartbeat")
            time(at)
        case .odometer(let meters):
            line.string("kind", "odometer")
            line.number("meters", meters)
        }
        return line.line
    }

    /// Reads an answer line whose `type` is `type`. `nil` when `type` is not an answer.
    package static func parse(_ value: JSONValue, type: String) throws(ProtocolMessageError) -> EngineAnswer? {
        var fields: MessageFields
        let answer: EngineAnswer
        switch type {
        case "hello":
            fields = try MessageFields(value, context: "hello")
            answer = .hello(
                protocolVersion: try fields.integer("protocolVersion"), name: try fields.string("name"),
                capabilities: try capabilities(&fields), settings: try EngineSettingDeclarations.parse(&fields))
        case "request":
            fields = try MessageFields(value, context: "request")
            let call = try fields.string("call")
            fields = try MessageFields(value, context: "request \(call)")
            _ = try fields.string("call")
            answer = .request(try request(call, &fields))
        case "schedule":
            fields = try MessageFields(value, context: "schedule")
            answer = .schedule(timer: try fields.string("timer"), at: try fields.instant("at"))
        case "cancel":
            fields = try MessageFields(value, context: "cancel")
            answer = .cancel(timer: try fields.string("timer"))
        case "record":
            fields = try MessageFields(value, context: "record")
            let kind = try fields.string("kind")
            fields = try MessageFields(value, context: "record \(kind)")
            _ = try fields.string("kind")
            answer = .record(try record(kind, &fields))
        case "log":
            fields = try MessageFields(value, context: "log")
            answer = .log(try fields.string("message"))
        case "consumed":
            fields = try MessageFields(value, context: "consumed")
            answer = .consumed(count: try fields.integer("count"))
        case "done":
            fields = try MessageFields(value, context: "done")
            answer = .done
        default:
            return nil
        }
        _ = try fields.string("type")
        try fields.finish()
        return answer
    }

    /// A hello's `capabilities`: an array of strings, or `nil` when it has none.
    private static func capabilities(_ fields: inout MessageFields) throws(ProtocolMessageError) -> [String]? {
        guard fields.has("capabilities") else { return nil }
        var names: [String] = []
        for element in try fields.array("capabilities") {
            guard case .string(let name) = element.value else {
                throw ProtocolMessageError("hello: \"capabilities\" must be an array of strings")
            }
            names.append(name)
        }
        return names
    }

    private static func request(_ call: String, _ fields: inout MessageFields) throws(ProtocolMessageError)
        -> AppRequest
    {
        if let plain = plainCalls.first(where: { $0.0 == call }) { return plain.1 }
        switch call {
        case "requestTemporaryFullAccuracyAuthorization":
            return .requestedTemporaryFullAccuracy(purpose: try fields.string("purposeKey"))
        case "startUpdatingLocation":
            let defaults = LocationUpdateOptions()
            return .startedLocationUpdates(
                LocationUpdateOptions(
                    allowsBackgroundLocationUpdates: try fields.optionalBool("allowsBackgroundLocationUpdates")
                        ?? defaults.allowsBackgroundLocationUpdates,
                    pausesLocationUpdatesAutomatically: try fields.optionalBool("pausesLocationUpdatesAutomatically")
                        ?? defaults.pausesLocationUpdatesAutomatically))
        case "startMonitoring":
            let region = MonitoredRegion(
                identifier: try fields.string("identifier"),
                center: Coordinate(latitude: try fields.double("latitude"), longitude: try fields.double("longitude")),
                radiusMeters: try fields.double("radius"))
            guard (-90...90).contains(region.center.latitude), (-180...180).contains(region.center.longitude) else {
                throw ProtocolMessageError("request startMonitoring: the centre is not a latitude and longitude")
            }
            guard region.radiusMeters > 0 else {
                throw ProtocolMessageError("request startMonitoring: \"radius\" must be more than 0 m")
            }
            return .startedMonitoring(region)
        case "stopMonitoring":
            return .stoppedMonitoring(identifier: try fields.string("identifier"))
        default:
            throw ProtocolMessageError("request: unknown call '\(call)'")
        }
    }

    private static func record(_ kind: String, _ fields: inout MessageFields) throws(ProtocolMessageError)
        -> EngineRecord
    {
        switch kind {
        case "delivered": return .delivered
        case "rejected": return .rejected(try fields.token("reason", ProtocolValues.rejectionReasons))
        case "accepted":
            let time = try fields.instant("time")
            let (latitude, longitude) = (try fields.double("latitude"), try fields.double("longitude"))
            // As for startMonitoring: a fix off the globe would feed every distance metric.
            guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
                throw ProtocolMessageError(
                    "record accepted: the position is not a latitude (-90 to 90) and a longitude (-180 to 180)")
            }
            return .accepted(time: time, latitude: latitude, longitude: longitude)
        case "recorded": return .recorded
        case "motion":
            return .motion(
                try fields.token("state", ProtocolValues.motionStates), time: try fields.optionalInstant("time"))
        case "geofence":
            return .geofence(
                identifier: try fields.string("identifier"), try fields.token("action", ProtocolValues.geofenceActions),
                time: try fields.optionalInstant("time"))
        case "heartbeat": return .heartbeat(time: try fields.optionalInstant("time"))
        case "odometer":
            let meters = try fields.double("meters")
            guard meters >= 0 else { throw ProtocolMessageError("record odometer: \"meters\" must not be negative") }
            return .odometer(meters: meters)
        default:
            throw ProtocolMessageError("record: unknown kind '\(kind)'")
        }
    }
}
