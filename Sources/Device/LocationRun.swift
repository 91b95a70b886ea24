import SimulationCore

/// Locations the device hands over back to back, one per `didUpdateLocations` call, with
/// nothing else happening on the phone between them: no timer, motion sample, region event,
/// lifecycle change or prompt (issue 32). A replay hands a whole run to a client that takes
/// runs (`LocationClient.takesLocationRuns`) instead of making one call per location.
public struct LocationRun: Sendable {
    /// The deliveries in order; never empty. Each is what one `didUpdateLocations` call of one
    /// location would carry, at the instant it would be made.
    public let deliveries: ArraySlice<LocationDelivery>

    /// A run of `deliveries`, which must not be empty.
    public init(_ deliveries: ArraySlice<LocationDelivery>) {
        precondition(!deliveries.isEmpty, "a location run holds at least one delivery")
        self.deliveries = deliveries
    }
}

extension LocationClient {
    /// A client takes one location at a time unless it says otherwise.
    public var takesLocationRuns: Bool { false }

    /// Hands the run over one `didUpdateLocations` call per location, in order, and stops
    /// after the first call that writes to `requests`: what the client sees is exactly what
    /// it would see without runs.
    public mutating func didUpdateLocationRun(
        _ run: LocationRun, into requests: inout [LocationClientRequest<Timer>]
    ) -> Int {
        let before = requests.count
        var handled = 0
        for delivery in run.deliveries {
            didUpdateLocations([delivery], at: delivery.time, into: &requests)
            handled += 1
            if requests.count != before { break }
        }
        return handled
    }
}
