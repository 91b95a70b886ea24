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
