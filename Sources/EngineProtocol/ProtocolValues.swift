import ConfigJSON
import Device
import Engine
import Geometry
import SimulationCore
import Traces

/// The protocol's spelling of the values events and answers carry: Core Location's names
/// where Core Location has one (`authorizedWhenInUse`, `reducedAccuracy`), TraceSim's rule
/// and reason names otherwise. Each value has one writer and one reader, side by side.
package enum ProtocolValues {
    static let authorizationStatuses: [(String, AuthorizationStatus)] = AuthorizationStatus.allCases.map {
        ($0.name, $0)
    }
    static let accuracies: [(String, AccuracyAuthorization)] = [
        ("fullAccuracy", .fullAccuracy), ("reducedAccuracy", .reducedAccuracy),
    ]
    static let motionStatuses: [(String, MotionAuthorizationStatus)] = [
        ("notDetermined", .notDetermined), ("restricted", .restricted), ("denied", .denied),
        ("authorized", .authorized),
    ]
    static let rules: [(String, DeviceRule)] = DeviceRule.allCases.map { ($0.rawValue, $0) }
    static let launchReasons: [(String, LaunchReason)] = [
        ("user", .user), ("regionEvent", .regionEvent), ("significantChange", .significantChange),
        ("visit", .visit),
    ]
    static let visitKinds: [(String, VisitEvent.Kind)] = [("arrival", .arrival), ("departure", .departure)]
    static let confidences: [(String, MotionConfidence)] = MotionConfidence.allCases.map { ($0.name, $0) }
    static let providers: [(String, Provider)] = Provider.allCases.map { ($0.name, $0) }
    static let rejectionReasons: [(String, RejectionReason)] = RejectionReason.allCases.map { ($0.rawValue, $0) }
    static let motionStates: [(String, MotionStateMachine.State)] = [("stationary", .stationary), ("moving", .moving)]
    static let geofenceActions: [(String, GeofenceEvent.Action)] = [
        ("enter", .enter), ("exit", .exit), ("dwell", .dwell),
    ]

    static func name<Value: Equatable>(_ value: Value, in names: [(String, Value)]) -> String {
        names.first { $0.1 == value }?.0 ?? ""
    }

    // MARK: Fixes

    /// A fix as a JSON object: Core Location's field names, a field left out when the fix does
    /// not have it; `deliveredAt` when it is a delivery.
    package static func fix(_ fix: Fix, deliveredAt: SimInstant? = nil) -> String {
        var line = ProtocolBytes()
        write(fix, deliveredAt: deliveredAt, into: &line)
        return line.text
    }

    /// The one writer of a location, which every message carrying one calls: `fix` as a JSON
    /// object appended to `line` (see `fix(_:deliveredAt:)`).
    /// - Complexity: O(1); no allocation beyond `line`'s growth and a number's long digits.
    static func write(_ fix: Fix, deliveredAt: SimInstant?, into line: inout ProtocolBytes) {
        line.member(#"{"timestamp":"#, fix.timestamp.nanosecondsSinceEpoch)
        if let deliveredAt { line.member(#","deliveredAt":"#, deliveredAt.nanosecondsSinceEpoch) }
        line.member(#","latitude":"#, fix.latitude)
        line.member(#","longitude":"#, fix.longitude)
        line.member(#","altitude":"#, ifPresent: fix.altitudeMeters)
        switch fix.horizontalAccuracy {
        case .meters(let meters)?: line.member(#","horizontalAccuracy":"#, meters)
        case .dilution(let dilution)?: line.member(#","horizontalDilution":"#, dilution)
        case nil: break
        }
        // Vertical accuracy is stored as a float: written as one, so it reads back exactly.
        switch fix.verticalAccuracy {
        case .meters(let meters)?: line.member(#","verticalAccuracy":"#, Float(meters))
        case .dilution(let dilution)?: line.member(#","verticalDilution":"#, Float(dilution))
        case nil: break
        }
        line.member(#","speed":"#, ifPresent: fix.speedMetersPerSecond)
        line.member(#","speedAccuracy":"#, ifPresent: fix.speedAccuracyMetersPerSecond)
        line.member(#","course":"#, ifPresent: fix.courseDegrees)
        line.member(#","courseAccuracy":"#, ifPresent: fix.courseAccuracyDegrees)
        line.append(#","provider":""#)
        // A provider's name is a lower-case word: nothing in it needs escaping.
        line.append(fix.provider.name)
        line.append(#""}"#)
    }

    /// Deliveries as a JSON array of locations, each with its `deliveredAt`: the `locations`
    /// of `didUpdateLocations` and of `didUpdateLocationRun`.
    static func write(_ deliveries: some Collection<LocationDelivery>, into line: inout ProtocolBytes) {
        line.append("[")
        var isFirst = true
        for delivery in deliveries {
            if !isFirst { line.append(",") }
            isFirst = false
            write(delivery.fix, deliveredAt: delivery.time, into: &line)
        }
        line.append("]")
    }

    /// Reads what `fix(_:deliveredAt:)` wrote.
    package static func fix(_ value: JSONValue, context: String) throws(ProtocolMessageError) -> (
        fix: Fix, deliveredAt: SimInstant?
    ) {
        var fields = try MessageFields(value, context: context)
        let timestamp = try fields.instant("timestamp")
        let deliveredAt = try fields.optionalInstant("deliveredAt")
        var fix = Fix(
            timestamp: timestamp, latitude: try fields.double("latitude"), longitude: try fields.double("longitude"))
        fix.altitudeMeters = try fields.optionalDouble("altitude")
        if let meters = try fields.optionalDouble("horizontalAccuracy") {
            fix.horizontalAccuracy = .meters(meters)
        } else if let dilution = try fields.optionalDouble("horizontalDilution") {
            fix.horizontalAccuracy = .dilution(dilution)
        }
        if let meters = try fields.optionalFloat("verticalAccuracy") {
            fix.verticalAccuracy = .meters(Double(meters))
        } else if let dilution = try fields.optionalFloat("verticalDilution") {
            fix.verticalAccuracy = .dilution(Double(dilution))
        }
        fix.speedMetersPerSecond = try fields.optionalFloat("speed")
        fix.speedAccuracyMetersPerSecond = try fields.optionalFloat("speedAccuracy")
        fix.courseDegrees = try fields.optionalFloat("course")
        fix.courseAccuracyDegrees = try fields.optionalFloat("courseAccuracy")
        if fields.has("provider") { fix.provider = try fields.token("provider", providers) }
        try fields.finish()
        return (fix, deliveredAt)
    }

    /// Reads what `write(_:into:)` wrote for deliveries: each location must say when it was
    /// delivered. `type` names the message in errors.
    static func deliveries(_ locations: [JSONNode], in type: String) throws(ProtocolMessageError) -> [LocationDelivery]
    {
        var deliveries: [LocationDelivery] = []
        deliveries.reserveCapacity(locations.count)
        for (index, element) in locations.enumerated() {
            let read = try fix(element.value, context: "\(type): locations[\(index)]")
            guard let time = read.deliveredAt else {
                throw ProtocolMessageError("\(type): locations[\(index)]: \"deliveredAt\" is missing")
            }
            deliveries.append(LocationDelivery(fix: read.fix, time: time))
        }
        return deliveries
    }

    // MARK: Motion and visits

    package static func motion(_ sample: MotionSample) -> String {
        var line = ProtocolLine()
        line.integer("timestamp", sample.timestamp.nanosecondsSinceEpoch)
        var names = ""
        for name in sample.activity.names {
            names += names.isEmpty ? "" : ","
            JSONStringLiteral.append(name, to: &names)
        }
        line.raw("activities", "[\(names)]")
        line.string("confidence", sample.confidence.name)
        line.bool("isCoarse", sample.isCoarse)
        line.bool("isDerived", sample.isDerived)
        return line.line
    }

    package static func motion(_ value: JSONValue, context: String) throws(ProtocolMessageError) -> MotionSample {
        var fields = try MessageFields(value, context: context)
        let timestamp = try fields.instant("timestamp")
        var activity = MotionActivity()
        for element in try fields.array("activities") {
            guard case .string(let name) = element.value, let flag = MotionActivity(name: name) else {
                throw ProtocolMessageError("\(context): \"activities\" holds an unknown activity")
            }
            activity.insert(flag)
        }
        let sample = MotionSample(
            timestamp: timestamp, activity: activity, confidence: try fields.token("confidence", confidences),
            isCoarse: try fields.bool("isCoarse"), isDerived: try fields.bool("isDerived"))
        try fields.finish()
        return sample
    }

    package static func visit(_ visit: VisitEvent) -> String {
        var line = ProtocolLine()
        line.string("kind", name(visit.kind, in: visitKinds))
        line.number("latitude", visit.coordinate.latitude)
        line.number("longitude", visit.coordinate.longitude)
        line.integer("arrivalDate", visit.arrival.nanosecondsSinceEpoch)
        if let departure = visit.departure { line.integer("departureDate", departure.nanosecondsSinceEpoch) }
        if let accuracy = visit.reducedHorizontalAccuracyMeters { line.number("horizontalAccuracy", accuracy) }
        return line.line
    }

    package static func visit(_ value: JSONValue, context: String) throws(ProtocolMessageError) -> VisitEvent {
        var fields = try MessageFields(value, context: context)
        let visit = VisitEvent(
            kind: try fields.token("kind", visitKinds),
            coordinate: Coordinate(latitude: try fields.double("latitude"), longitude: try fields.double("longitude")),
            arrival: try fields.instant("arrivalDate"), departure: try fields.optionalInstant("departureDate"),
            reducedHorizontalAccuracyMeters: try fields.optionalDouble("horizontalAccuracy"))
        try fields.finish()
        return visit
    }
}
