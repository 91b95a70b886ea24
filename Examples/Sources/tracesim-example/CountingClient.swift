import TraceSim

/// The app side of the phone written by hand: it asks for When-In-Use, starts standard
/// location updates without background updates, and counts what iOS hands over. Any engine plugs
/// in the same way: the replay calls it only with what the simulated iPhone delivers.
struct CountingClient: LocationClient {
    var fixes = 0
    var lastDelivery: SimInstant?

    mutating func start(
        _ launch: LocationClientLaunch, at now: SimInstant, into requests: inout [LocationClientRequest<Never>]
    ) {
        requests.append(.device(.requestedWhenInUse))
        let options = LocationUpdateOptions(
            allowsBackgroundLocationUpdates: false, pausesLocationUpdatesAutomatically: false)
        requests.append(.device(.startedLocationUpdates(options)))
    }

    mutating func didUpdateLocations(
        _ locations: [LocationDelivery], at now: SimInstant, into requests: inout [LocationClientRequest<Never>]
    ) {
        fixes += locations.count
        lastDelivery = locations.last?.time
    }

    mutating func finish(at now: SimInstant) {}
}

/// Replays `named` through two presets with the client as the app: the ideal phone, and the
/// When-In-Use phone whose person locks the screen a minute in. The client stops hearing from
/// Core Location at the cutoff after the lock, and the phone's GPS stops with it.
func countWhatTheAppSees(_ named: Matrix.NamedTrace) {
    for name in ["ideal", "wheninuse-locked"] {
        guard let scenario = Scenario.preset(named: name) else { preconditionFailure("presets are built in") }
        let played = ScenarioRunner.replay(named.trace, scenario, client: CountingClient())
        let start = played.traceStart
        let last = played.replay.client.lastDelivery.map { "\(Int($0.seconds(since: start))) s" } ?? "never"
        let gps = Int(played.replay.gpsOn.seconds(closingAt: played.traceEnd))
        print(
            "custom client, \(name): \(played.replay.client.fixes) of \(named.trace.fixes.count) fixes reached the"
                + " app, the last at \(last); GPS on for \(gps) s of \(Int(played.traceEnd.seconds(since: start))) s")
    }
}
