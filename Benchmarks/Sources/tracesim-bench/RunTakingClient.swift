import Device
import Geometry
import SimulationCore
import Traces

/// The least app that keeps every location: it starts updates at launch and counts what it is
/// handed, taking runs of locations when `takesRuns` is set (issue 32). It stands for an engine
/// whose own work costs nothing, so a replay with it measures the device and the replay alone;
/// `requestEvery` makes it ask the device for something every that many locations (0: never),
/// as the built-in engine re-centres its stationary region every 100 m.
struct RunTakingClient: LocationClient {
    let takesRuns: Bool
    let requestEvery: Int
    private(set) var locations = 0
    private var untilRequest: Int

    init(takesRuns: Bool, requestEvery: Int = 0) {
        self.takesRuns = takesRuns
        self.requestEvery = requestEvery
        untilRequest = requestEvery
    }

    var takesLocationRuns: Bool { takesRuns }

    mutating func start(
        _ launch: LocationClientLaunch, at now: SimInstant, into requests: inout [LocationClientRequest<Never>]
    ) {
        requests.append(.device(.startedLocationUpdates(LocationUpdateOptions(allowsBackgroundLocationUpdates: true))))
    }

    mutating func didUpdateLocations(
        _ locations: [LocationDelivery], at now: SimInstant, into requests: inout [LocationClientRequest<Never>]
    ) {
        for location in locations { take(location, into: &requests) }
    }

    mutating func didUpdateLocationRun(_ run: LocationRun, into requests: inout [LocationClientRequest<Never>]) -> Int {
        var handled = 0
        for delivery in run.deliveries {
            handled += 1
            if take(delivery, into: &requests) { break }
        }
        return handled
    }

    /// Counts one location; whether it asked for something.
    @discardableResult
    private mutating func take(_ delivery: LocationDelivery, into requests: inout [LocationClientRequest<Never>])
        -> Bool
    {
        locations += 1
        guard requestEvery > 0 else { return false }
        untilRequest -= 1
        guard untilRequest == 0 else { return false }
        untilRequest = requestEvery
        let center = Coordinate(latitude: delivery.fix.latitude, longitude: delivery.fix.longitude)
        requests.append(
            .device(.startedMonitoring(MonitoredRegion(identifier: "stationary", center: center, radiusMeters: 100))))
        return true
    }

    func finish(at now: SimInstant) {}
}
