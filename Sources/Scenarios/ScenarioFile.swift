import ConfigJSON
import Device
import Engine
import Permissions
import Traces

/// Reads a scenario from JSON. Every key is optional except `name`; unknown keys and bad values
/// are errors naming the file, line, column and JSON path.
///
/// ```json
/// {"name": "night-shift", "summary": "When-In-Use, locked after a minute",
///  "device": {DEVICE.json},
///  "authorization": "fixed" | {"flow": "doorstep|bggeo|airship|wizard", "user": {USER.json}},
///  "timeline": [{"at": 60, "event": "lock"}, {"atFraction": 0.25, "event": "forceQuit"}],
///  "engine": {"startsMoving": false, "stopRule": "timeout|radar", "stopTimeout": 300,
///             "stationaryRadius": 25, "smoothing": "passThrough|adjust|conservative",
///             "gate": {"horizontalAccuracy": 100, "maxImpliedSpeed": 60, "maxAge": 15},
///             "distanceFilter": 10, "elasticity": "transistorsoft|mauron85|none",
///             "backgroundUpdates": true, "backgroundSession": false,
///             "pausesLocationUpdatesAutomatically": true, "preventSuspend": false, "heartbeatInterval": 60},
///  "geofences": "fences.geojson", "seed": 0}
/// ```
public enum ScenarioFile {
    /// A scenario and the geofence file it names (relative to the scenario file's folder).
    public struct Parsed: Sendable {
        public var scenario: Scenario
        /// The geofence file as written, if any.
        public var geofences: String?
    }

    /// Parses `bytes` from `file`.
    /// - Throws: `ConfigError` for the first problem.
    public static func parse(_ bytes: [UInt8], file: String) throws(ConfigError) -> Parsed {
        let reader = ConfigReader(file: file)
        let root = try ConfigJSON.parse(bytes, file: file)
        let members = try reader.object(
            root, "$",
            allowed: ["name", "summary", "device", "authorization", "timeline", "engine", "geofences", "seed"])
        let name = try reader.string(try reader.required(members, "name", in: root, "$"), "$.name")
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw reader.fail(root, "$.name", "a scenario name is letters, digits, '-' and '_'")
        }
        var scenario = Scenario(
            name: name,
            summary: try members["summary"].map { (node) throws(ConfigError) in
                try reader.string(node, "$.summary")
            } ?? "")
        if let node = members["device"] {
            scenario.device = try DeviceSetup.parse(node, at: "$.device", reader: reader).configuration
        }
        var personMoves: [Scenario.TimelineEvent] = []
        if let node = members["authorization"] {
            (scenario.authorization, personMoves) = try authorization(node, reader)
        }
        for (index, node) in try reader.optionalArray(members, "timeline", "$").enumerated() {
            scenario.timeline.append(try timelineEvent(node, "$.timeline[\(index)]", reader))
        }
        // The person's own lifecycle moves are timeline events at their times, after the
        // scenario's at the same instant (the runner keeps ties in order).
        scenario.timeline += personMoves
        if let node = members["engine"] { scenario.engine = try engine(node, reader) }
        var geofences: String?
        if let node = members["geofences"] { geofences = try reader.string(node, "$.geofences") }
        if let node = members["seed"] {
            scenario.seed = UInt64(try reader.number(node, "$.seed", in: 0...9_007_199_254_740_991).rounded(.down))
        }
        return Parsed(scenario: scenario, geofences: geofences)
    }

    /// The authorization, and the lifecycle moves of the flow's person (`USER.json`'s
    /// `lifecycle`), which the scenario's timeline carries.
    private static func authorization(_ node: ConfigJSONNode, _ reader: ConfigReader) throws(ConfigError)
        -> (Scenario.Authorization, [Scenario.TimelineEvent])
    {
        if case .string = node.value {
            return (try reader.token(node, "$.authorization", [("fixed", Scenario.Authorization.fixed)]), [])
        }
        let members = try reader.object(node, "$.authorization", allowed: ["flow", "user"])
        let layer = try reader.token(
            try reader.required(members, "flow", in: node, "$.authorization"), "$.authorization.flow",
            PermissionLayer.allCases.map { ($0.rawValue, $0) })
        var user = SimulatedUser.agreeable
        var moves: [Scenario.TimelineEvent] = []
        if let userNode = members["user"] {
            let script = try UserScript.parse(userNode, at: "$.authorization.user", reader: reader)
            user = script.user
            moves = script.lifecycle.map { Scenario.TimelineEvent(.seconds($0.atSeconds), $0.event) }
        }
        return (.flow(layer, user), moves)
    }

    private static func timelineEvent(_ node: ConfigJSONNode, _ path: @autoclosure () -> String, _ reader: ConfigReader)
        throws(ConfigError)
        -> Scenario.TimelineEvent
    {
        let fields = try reader.object(node, path(), allowed: ["at", "atFraction", "event"])
        let when: Scenario.When
        switch (fields["at"], fields["atFraction"]) {
        case (let seconds?, nil): when = .seconds(try reader.number(seconds, "\(path()).at", in: 0...31_536_000))
        case (nil, let share?): when = .fraction(try reader.number(share, "\(path()).atFraction", in: 0...1))
        case (nil, nil), (.some, .some):
            throw reader.fail(node, path(), "give exactly one of 'at' (seconds) or 'atFraction' (0...1)")
        }
        let event = try reader.token(
            try reader.required(fields, "event", in: node, path()), "\(path()).event", timelineVocabulary)
        return Scenario.TimelineEvent(when, event)
    }

    /// The events a timeline may name, built once: rebuilding it for every event cost more
    /// than parsing the event.
    private static let timelineVocabulary: [(String, DeviceEvent)] =
        UserScript.lifecycleEvents + UserScript.settings.map { ($0.0, DeviceEvent.user(.changedSettings($0.1))) }

    private static func engine(_ node: ConfigJSONNode, _ reader: ConfigReader) throws(ConfigError)
        -> EngineConfiguration
    {
        let path = "$.engine"
        let fields = try reader.object(
            node, path,
            allowed: [
                "startsMoving", "stopRule", "stopTimeout", "stationaryRadius", "smoothing", "gate", "distanceFilter",
                "elasticity", "backgroundUpdates", "backgroundSession", "pausesLocationUpdatesAutomatically",
                "preventSuspend", "heartbeatInterval",
            ])
        var engine = EngineConfiguration()
        if let value = fields["startsMoving"] { engine.startsMoving = try reader.bool(value, "\(path).startsMoving") }
        if let value = fields["stopRule"] {
            engine.motion.stopRule = try reader.token(
                value, "\(path).stopRule",
                [("timeout", .stopTimeout), ("radar", MotionStateMachine.StopRule.radarDefault)])
        }
        if let value = fields["stopTimeout"] {
            engine.motion.stopTimeoutSeconds = try reader.number(value, "\(path).stopTimeout", in: 1...86_400)
        }
        if let value = fields["stationaryRadius"] {
            engine.motion.stationaryRadiusMeters = try reader.number(value, "\(path).stationaryRadius", in: 1...10_000)
        }
        if let value = fields["smoothing"] {
            engine.smoothing = try reader.token(
                value, "\(path).smoothing",
                [("passThrough", .passThrough), ("adjust", .adjust), ("conservative", SmoothingPolicy.conservative)])
        }
        if let gateNode = fields["gate"] {
            let gatePath = "\(path).gate"
            let gate = try reader.object(
                gateNode, gatePath, allowed: ["horizontalAccuracy", "maxImpliedSpeed", "maxAge"])
            if let value = gate["horizontalAccuracy"] {
                engine.gate.maximumAccuracyMeters = try reader.number(
                    value, "\(gatePath).horizontalAccuracy", in: 1...100_000)
            }
            if let value = gate["maxImpliedSpeed"] {
                engine.gate.maximumImpliedSpeedMetersPerSecond = try reader.number(
                    value, "\(gatePath).maxImpliedSpeed", in: 1...100_000)
            }
            if let value = gate["maxAge"] {
                engine.gate.maximumAgeSeconds = try reader.number(value, "\(gatePath).maxAge", in: 0...86_400)
            }
        }
        if let value = fields["distanceFilter"] {
            engine.distanceFilter.distanceFilterMeters = try reader.number(
                value, "\(path).distanceFilter", in: 0...100_000)
        }
        if let value = fields["elasticity"] {
            engine.distanceFilter.elasticity = try reader.token(
                value, "\(path).elasticity",
                [
                    ("transistorsoft", .transistorsoft(multiplier: 1)), ("mauron85", .mauron85),
                    ("none", DistanceFilter.Elasticity.none),
                ])
        }
        if let value = fields["backgroundUpdates"] {
            engine.locationOptions.allowsBackgroundLocationUpdates = try reader.bool(value, "\(path).backgroundUpdates")
        }
        if let value = fields["backgroundSession"] {
            engine.startsBackgroundSession = try reader.bool(value, "\(path).backgroundSession")
        }
        if let value = fields["pausesLocationUpdatesAutomatically"] {
            engine.locationOptions.pausesLocationUpdatesAutomatically = try reader.bool(
                value, "\(path).pausesLocationUpdatesAutomatically")
        }
        if let value = fields["preventSuspend"] {
            engine.preventSuspend = try reader.bool(value, "\(path).preventSuspend")
        }
        if let value = fields["heartbeatInterval"] {
            engine.heartbeatIntervalSeconds = try reader.number(value, "\(path).heartbeatInterval", in: 1...86_400)
        }
        return engine
    }
}
