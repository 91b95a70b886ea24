import Device
import Engine
import SimulationCore

/// An engine written for the person tests: it starts standard updates at launch and asks for
/// more authorization while tracking, as an app that wants Always does. With `asksForAlways` it
/// calls `requestAlwaysAuthorization()` at its first delivery; with `reasksWhenNotDetermined` it
/// checks every 10 s and calls `requestWhenInUseAuthorization()` whenever it is told
/// `notDetermined` (an Allow Once grant that lapsed); with `fullAccuracyPurpose` it asks for
/// temporary full accuracy at its first delivery.
package struct AuthorizationAskingClient: RecordingClient {
    package private(set) var recorder = Recorder(expectedFixCount: 0)
    package var odometerMeters: Double { 0 }
    private let asksForAlways: Bool
    private let reasksWhenNotDetermined: Bool
    private let fullAccuracyPurpose: String?
    private var hasAskedForAlways = false
    private var status = AuthorizationStatus.notDetermined

    package init(asksForAlways: Bool = true, reasksWhenNotDetermined: Bool = false, fullAccuracyPurpose: String? = nil) {
        self.asksForAlways = asksForAlways
        self.reasksWhenNotDetermined = reasksWhenNotDetermined
        self.fullAccuracyPurpose = fullAccuracyPurpose
    }

    package mutating func start(
        _ launch: LocationClientLaunch, at now: SimInstant, into requests: inout [LocationClientRequest<Int>]
    ) {
        status = launch.authorizationStatus
        if status == .notDetermined { requests.append(.device(.requestedWhenInUse)) }
        requests.append(.device(.startedLocationUpdates(LocationUpdateOptions())))
        if reasksWhenNotDetermined { requests.append(.schedule(0, at: now.advanced(bySeconds: 10))) }
    }

    package mutating func didUpdateLocations(
        _ locations: [LocationDelivery], at now: SimInstant, into requests: inout [LocationClientRequest<Int>]
    ) {
        for _ in locations { recorder.fixDelivered() }
        guard !hasAskedForAlways else { return }
        hasAskedForAlways = true
        if asksForAlways { requests.append(.device(.requestedAlways)) }
        if let fullAccuracyPurpose { requests.append(.device(.requestedTemporaryFullAccuracy(purpose: fullAccuracyPurpose))) }
    }

    package mutating func didChangeAuthorization(
        _ status: AuthorizationStatus, _ accuracy: AccuracyAuthorization, at now: SimInstant,
        into requests: inout [LocationClientRequest<Int>]
    ) {
        self.status = status
    }

    package mutating func timerFired(_ timer: Int, at now: SimInstant, into requests: inout [LocationClientRequest<Int>]) {
        if status == .notDetermined { requests.append(.device(.requestedWhenInUse)) }
        requests.append(.schedule(timer + 1, at: now.advanced(bySeconds: 10)))
    }

    package func finish(at now: SimInstant) {}
}
