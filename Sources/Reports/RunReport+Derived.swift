import ConfigJSON
import Device
import Scenarios
import SimulationCore

/// The run JSON's account of how the app was handed its locations (issue 30): which fields the
/// simulated phone filled in because the trace lacked them (`derivedByDevice`), and the
/// `didUpdateLocations` calls (`deliveries`).
enum DeliveryReport {
    /// `"derivedByDevice": [...]` and `"deliveries": {...}` for a run's JSON.
    ///
    /// `derivedByDevice` names `CLLocation` fields: `horizontalAccuracy` (metres from HDOP, or
    /// the assumed accuracy), `verticalAccuracy` (metres from VDOP), `speed` and `course`
    /// (from the previous recorded fix). `deliveries` counts the calls, the locations they
    /// carried, the largest call, significant-change locations, locations still held when the
    /// trace ended, and, for an app that records, `deliveredNotKept`.
    static func jsonMember(_ run: ScenarioRun) -> [(String, JSONText)] {
        let tally = run.deliveries
        var deliveries: [(String, JSONText)] = [
            ("calls", .integer(tally.calls)), ("locations", .integer(tally.locations)),
            ("largestCall", .integer(tally.largestCall)), ("significantChanges", .integer(tally.significantChanges)),
            ("heldWhenTraceEnded", .integer(tally.heldWhenTraceEnded)),
        ]
        if let notKept = tally.deliveredNotKept { deliveries.append(("deliveredNotKept", .integer(notKept))) }
        return [
            ("derivedByDevice", .array(tally.derivedByDevice.names.map { .string($0) })),
            ("deliveries", .object(deliveries)),
        ]
    }
}

extension DeliveryReport {
    /// The `deliveries:` line of `replay`'s text and the run's page: the calls, the most
    /// locations in one call and, for an app that records, the locations it was handed but did
    /// not keep, so a client that keeps only `locations.last` shows its loss.
    static func line(_ run: ScenarioRun) -> String {
        let tally = run.deliveries
        var line = "deliveries: \(tally.calls) call\(tally.calls == 1 ? "" : "s"), largest \(tally.largestCall)"
        if let notKept = tally.deliveredNotKept { line += ", delivered but not kept \(notKept)" }
        return line
    }

    /// The keys of `deliveries`: each a count.
    private static let deliveryKeys = [
        "calls", "locations", "largestCall", "significantChanges", "heldWhenTraceEnded", "deliveredNotKept",
    ]

    /// Checks a saved run's `derivedByDevice` (an array of distinct `CLLocation` field names)
    /// and `deliveries` (whole counts; `deliveredNotKept` may be absent, the others may not).
    /// - Throws: `ConfigError` naming the JSON path of the first wrong member.
    static func check(derivedByDevice: JSONNode, deliveries: JSONNode, _ reader: ConfigReader) throws(ConfigError) {
        let fields: [DerivedLocationFields] = [.horizontalAccuracy, .verticalAccuracy, .speed, .course]
        let choices = fields.map { ($0.names[0], $0) }
        var seen: DerivedLocationFields = []
        for (index, entry) in try reader.array(derivedByDevice, "$.derivedByDevice").enumerated() {
            let path = "$.derivedByDevice[\(index)]"
            let field = try reader.token(entry, path, choices)
            guard !seen.contains(field) else { throw reader.fail(entry, path, "names a field twice") }
            seen.insert(field)
        }
        let members = try reader.object(deliveries, "$.deliveries", allowed: deliveryKeys)
        for key in deliveryKeys {
            let path = "$.deliveries.\(key)"
            guard let node = members[key] else {
                if key == "deliveredNotKept" { continue }
                _ = try reader.required(members, key, in: deliveries, "$.deliveries")
                continue
            }
            let value = try reader.number(node, path, in: 0...9e15)
            guard value == value.rounded() else { throw reader.fail(node, path, "expected a whole number") }
        }
    }
}
