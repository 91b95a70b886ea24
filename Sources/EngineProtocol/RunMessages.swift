import ConfigJSON
import Engine
import Geometry
import Scenarios
import SimulationCore
import Traces

/// The protocol's version, its opening and the `reset` that names each run.
package enum RunMessages {
    /// The version TraceSim's `hello` names: the one every engine speaks, so an engine
    /// written for version 1 (which may refuse any other) keeps working. The engine's `hello`
    /// answers with the version the conversation then goes on in
    /// (Documentation/TraceSim.docc/EngineProtocol.md, "Versions").
    package static let version: Int64 = 1
    /// The highest version an engine may answer with: version 2 adds `capabilities`.
    package static let highestVersion: Int64 = 2

    /// TraceSim's `hello`.
    package static var helloLine: String {
        var line = ProtocolLine(type: "hello")
        line.integer("protocolVersion", version)
        line.string("tracesim", TraceSimVersion.current)
        return line.line
    }

    /// How errors name a run: `TRACE/SCENARIO`, or the scenario alone for an unnamed trace.
    package static func runName(_ context: EngineContext) -> String {
        context.traceName.isEmpty ? context.scenario.name : "\(context.traceName)/\(context.scenario.name)"
    }

    /// The `reset` that opens a run: its name, trace, scenario, seed, the scenario's engine
    /// settings and the geofences.
    package static func resetLine(_ context: EngineContext) -> String {
        var line = ProtocolLine(type: "reset")
        line.string("run", runName(context))
        line.string("trace", context.traceName)
        line.string("scenario", context.scenario.name)
        line.integer("seed", context.scenario.seed)
        line.integer("expectedFixCount", context.expectedFixCount)
        line.raw("engine", settings(context.scenario.engine))
        var fences = "["
        for (index, fence) in context.fences.enumerated() {
            if index > 0 { fences += "," }
            fences += self.fence(fence)
        }
        line.raw("fences", fences + "]")
        return line.line
    }

    /// What a `reset` says, read back (the serving side).
    package struct Reset: Sendable {
        package var run: String
        package var trace: String
        package var scenario: String
        package var seed: UInt64
        package var expectedFixCount: Int
        package var configuration: EngineConfiguration
        package var fences: [Geofence]
    }

    package static func reset(_ value: JSONValue) throws(ProtocolMessageError) -> Reset {
        var fields = try MessageFields(value, context: "reset")
        _ = try fields.string("type")
        let reset = Reset(
            run: try fields.string("run"), trace: try fields.string("trace"), scenario: try fields.string("scenario"),
            seed: try fields.unsigned("seed"), expectedFixCount: try expectedFixCount(&fields),
            configuration: try settings(try fields.object("engine")),
            fences: try fields.array("fences").enumerated().map { (index, element) throws(ProtocolMessageError) in
                try fence(element.value, context: "reset: fences[\(index)]")
            })
        try fields.finish()
        return reset
    }

    /// `expectedFixCount`, from 0 to `EngineLimits.maximumExpectedFixCount`: a count from the
    /// peer must not size an allocation unchecked (9223372036854775807 corrupted the heap).
    private static func expectedFixCount(_ fields: inout MessageFields) throws(ProtocolMessageError) -> Int {
        let count = try fields.integer("expectedFixCount")
        guard (0...EngineLimits.maximumExpectedFixCount).contains(count) else {
            throw ProtocolMessageError(
                "reset: \"expectedFixCount\" must be from 0 to \(EngineLimits.maximumExpectedFixCount), not \(count)")
        }
        return Int(count)
    }

    // MARK: Engine settings

    private static let stopRules = ["timeout", "radar"]
    private static let smoothings: [(String, SmoothingPolicy)] = SmoothingPolicy.allCases.map { ($0.rawValue, $0) }

    /// Every setting of the built-in engine, so `serve-engine` builds the very engine the
    /// scenario describes. The keys the scenario file uses keep its names.
    package static func settings(_ engine: EngineConfiguration) -> String {
        var line = ProtocolLine()
        line.bool("startsMoving", engine.startsMoving)
        switch engine.motion.stopRule {
        case .stopTimeout:
            line.string("stopRule", "timeout")
        case .radar(let distance, let duration):
            line.string("stopRule", "radar")
            line.number("radarStopDistance", distance)
            line.number("radarStopDuration", duration)
        }
        line.number("stopTimeout", engine.motion.stopTimeoutSeconds)
        line.number("stationaryRadius", engine.motion.stationaryRadiusMeters)
        line.string("minimumConfidence", engine.motion.minimumConfidence.name)
        line.number("stillSpeed", engine.motion.stillSpeedMetersPerSecond)
        line.string("smoothing", engine.smoothing.rawValue)
        var gate = ProtocolLine()
        gate.number("horizontalAccuracy", engine.gate.maximumAccuracyMeters)
        gate.number("maxImpliedSpeed", engine.gate.maximumImpliedSpeedMetersPerSecond)
        gate.number("maxAge", engine.gate.maximumAgeSeconds)
        gate.bool("confirmsFirstFix", engine.gate.confirmsFirstFix)
        gate.number("uereHorizontal", engine.gate.uere.horizontalMeters)
        gate.number("uereVertical", engine.gate.uere.verticalMeters)
        line.raw("gate", gate.line)
        line.number("distanceFilter", engine.distanceFilter.distanceFilterMeters)
        switch engine.distanceFilter.elasticity {
        case .transistorsoft(let multiplier):
            line.string("elasticity", "transistorsoft")
            line.number("elasticityMultiplier", multiplier)
        case .mauron85: line.string("elasticity", "mauron85")
        case .none: line.string("elasticity", "none")
        }
        line.number("odometerAccuracyThreshold", engine.odometerAccuracyThresholdMeters)
        var geofencing = ProtocolLine()
        geofencing.number("proximityRadius", engine.geofencing.proximityRadiusMeters)
        geofencing.integer("maximumRegisteredFences", engine.geofencing.maximumRegisteredFences)
        geofencing.number("rerankInterval", engine.geofencing.rerankIntervalSeconds)
        geofencing.bool("initialTriggerEntry", engine.geofencing.initialTriggerEntry)
        line.raw("geofencing", geofencing.line)
        line.bool("backgroundUpdates", engine.locationOptions.allowsBackgroundLocationUpdates)
        line.bool("pausesLocationUpdatesAutomatically", engine.locationOptions.pausesLocationUpdatesAutomatically)
        line.bool("preventSuspend", engine.preventSuspend)
        if let interval = engine.heartbeatIntervalSeconds { line.number("heartbeatInterval", interval) }
        if let refresh = engine.movingRegionRefreshMeters { line.number("movingRegionRefresh", refresh) }
        line.bool("backgroundSession", engine.startsBackgroundSession)
        line.bool("requestsMotionActivity", engine.requestsMotionActivity)
        return line.line
    }

    package static func settings(_ value: JSONValue) throws(ProtocolMessageError) -> EngineConfiguration {
        var fields = try MessageFields(value, context: "reset: engine")
        var engine = EngineConfiguration()
        engine.startsMoving = try fields.bool("startsMoving")
        switch try fields.token("stopRule", stopRules.map { ($0, $0) }) {
        case "radar":
            engine.motion.stopRule = .radar(
                stopDistanceMeters: try fields.double("radarStopDistance"),
                stopDurationSeconds: try fields.double("radarStopDuration"))
        default:
            engine.motion.stopRule = .stopTimeout
        }
        engine.motion.stopTimeoutSeconds = try fields.double("stopTimeout")
        engine.motion.stationaryRadiusMeters = try fields.double("stationaryRadius")
        engine.motion.minimumConfidence = try fields.token("minimumConfidence", ProtocolValues.confidences)
        engine.motion.stillSpeedMetersPerSecond = try fields.double("stillSpeed")
        engine.smoothing = try fields.token("smoothing", smoothings)
        var gate = try MessageFields(try fields.object("gate"), context: "reset: engine.gate")
        engine.gate.maximumAccuracyMeters = try gate.double("horizontalAccuracy")
        engine.gate.maximumImpliedSpeedMetersPerSecond = try gate.double("maxImpliedSpeed")
        engine.gate.maximumAgeSeconds = try gate.double("maxAge")
        engine.gate.confirmsFirstFix = try gate.bool("confirmsFirstFix")
        engine.gate.uere = UserEquivalentRangeError(
            horizontalMeters: try gate.double("uereHorizontal"), verticalMeters: try gate.double("uereVertical"))
        try gate.finish()
        engine.distanceFilter.distanceFilterMeters = try fields.double("distanceFilter")
        switch try fields.token("elasticity", ["transistorsoft", "mauron85", "none"].map { ($0, $0) }) {
        case "transistorsoft":
            engine.distanceFilter.elasticity = .transistorsoft(multiplier: try fields.double("elasticityMultiplier"))
        case "mauron85": engine.distanceFilter.elasticity = .mauron85
        default: engine.distanceFilter.elasticity = .none
        }
        engine.odometerAccuracyThresholdMeters = try fields.double("odometerAccuracyThreshold")
        var geofencing = try MessageFields(try fields.object("geofencing"), context: "reset: engine.geofencing")
        engine.geofencing.proximityRadiusMeters = try geofencing.double("proximityRadius")
        engine.geofencing.maximumRegisteredFences = Int(clamping: try geofencing.integer("maximumRegisteredFences"))
        engine.geofencing.rerankIntervalSeconds = try geofencing.double("rerankInterval")
        engine.geofencing.initialTriggerEntry = try geofencing.bool("initialTriggerEntry")
        try geofencing.finish()
        engine.locationOptions.allowsBackgroundLocationUpdates = try fields.bool("backgroundUpdates")
        engine.locationOptions.pausesLocationUpdatesAutomatically = try fields.bool(
            "pausesLocationUpdatesAutomatically")
        engine.preventSuspend = try fields.bool("preventSuspend")
        engine.heartbeatIntervalSeconds = try fields.optionalDouble("heartbeatInterval")
        engine.movingRegionRefreshMeters = try fields.optionalDouble("movingRegionRefresh")
        engine.startsBackgroundSession = try fields.bool("backgroundSession")
        engine.requestsMotionActivity = try fields.bool("requestsMotionActivity")
        try fields.finish()
        try checkRanges(engine)
        return engine
    }

    /// The settings against the ranges a scenario file accepts (`Tuning.parameters`, which
    /// names them as the file does): the serving side builds its engine from a peer's numbers,
    /// and one out of range must be refused, not reach the engine (a negative
    /// `maximumRegisteredFences` overflowed an engine with fences).
    private static func checkRanges(_ engine: EngineConfiguration) throws(ProtocolMessageError) {
        for parameter in Tuning.parameters {
            guard let value = parameter.value(in: engine), let problem = parameter.check(value) else { continue }
            throw ProtocolMessageError("reset: engine: \(problem) (as a scenario file names the setting)")
        }
    }

    // MARK: Geofences

    /// A geofence: a circle (centre and radius) or a polygon (rings of `[longitude, latitude]`,
    /// GeoJSON's order).
    package static func fence(_ fence: Geofence) -> String {
        var line = ProtocolLine()
        line.string("identifier", fence.identifier)
        line.bool("notifyOnDwell", fence.notifyOnDwell)
        line.number("loiteringDelay", fence.loiteringDelaySeconds)
        switch fence.shape {
        case .circle(let center, let radius):
            var circle = ProtocolLine()
            circle.number("latitude", center.latitude)
            circle.number("longitude", center.longitude)
            circle.number("radius", radius)
            line.raw("circle", circle.line)
        case .polygon(let shape):
            var polygon = ProtocolLine()
            polygon.raw("exterior", ring(shape.exterior))
            polygon.raw("holes", "[" + shape.holes.map(ring).joined(separator: ",") + "]")
            line.raw("polygon", polygon.line)
        }
        return line.line
    }

    private static func ring(_ points: [Coordinate]) -> String {
        "["
            + points.map { "[\(ProtocolLine.text($0.longitude)),\(ProtocolLine.text($0.latitude))]" }
            .joined(separator: ",") + "]"
    }

    private static func ring(_ value: JSONValue, context: String) throws(ProtocolMessageError) -> [Coordinate] {
        guard case .array(let points) = value else { throw ProtocolMessageError("\(context): not an array") }
        var ring: [Coordinate] = []
        for point in points {
            guard case .array(let pair) = point.value, pair.count == 2, case .number(let longitude) = pair[0].value,
                case .number(let latitude) = pair[1].value, let lon = Double(longitude.text),
                let lat = Double(latitude.text)
            else { throw ProtocolMessageError("\(context): a point is not [longitude, latitude]") }
            ring.append(Coordinate(latitude: lat, longitude: lon))
        }
        return ring
    }

    package static func fence(_ value: JSONValue, context: String) throws(ProtocolMessageError) -> Geofence {
        var fields = try MessageFields(value, context: context)
        let identifier = try fields.string("identifier")
        let notifyOnDwell = try fields.bool("notifyOnDwell")
        let loiteringDelay = try fields.double("loiteringDelay")
        let shape: Geofence.Shape
        if fields.has("circle") {
            var circle = try MessageFields(try fields.object("circle"), context: "\(context).circle")
            shape = .circle(
                center: Coordinate(latitude: try circle.double("latitude"), longitude: try circle.double("longitude")),
                radiusMeters: try circle.double("radius"))
            try circle.finish()
        } else {
            var polygon = try MessageFields(try fields.object("polygon"), context: "\(context).polygon")
            let exterior = try ring(try polygon.array("exterior").asJSON, context: "\(context).polygon.exterior")
            var holes: [[Coordinate]] = []
            for hole in try polygon.array("holes") {
                holes.append(try ring(hole.value, context: "\(context).polygon.holes"))
            }
            try polygon.finish()
            shape = .polygon(PolygonShape(exterior: exterior, holes: holes))
        }
        try fields.finish()
        return Geofence(
            identifier: identifier, shape: shape, notifyOnDwell: notifyOnDwell, loiteringDelaySeconds: loiteringDelay)
    }
}

extension [JSONNode] {
    fileprivate var asJSON: JSONValue { .array(self) }
}
