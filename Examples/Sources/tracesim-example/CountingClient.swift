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

/// Replays `named` through a fresh phone whose person allows When-In-Use and locks the screen
/// a minute in: the client stops hearing from Core Location at the When-In-Use cutoff after
/// the lock, and the phone's GPS stops with it.
func countWhatTheAppSees(_ named: Matrix.NamedTrace) {
    guard let start = named.trace.fixes.first?.timestamp, let end = named.trace.fixes.last?.timestamp else { return }
    let lock = ScriptedDeviceEvent(time: start.advanced(bySeconds: 60), event: .user(.lockedScreen))
    var replay = Replay(device: Device(), client: CountingClient(), user: .agreeable)
    replay.run(named.trace, script: [lock])
    let last = replay.client.lastDelivery.map { "\(Int($0.seconds(since: start))) s" } ?? "never"
    let gps = Int(replay.gpsOn.seconds(closingAt: end))
    print(
        "custom client: \(replay.client.fixes) of \(named.trace.fixes.count) fixes reached the app,"
            + " the last at \(last); GPS on for \(gps) s of \(Int(end.seconds(since: start))) s")
}
