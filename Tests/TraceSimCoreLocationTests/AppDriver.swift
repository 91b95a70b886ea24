import Device
import SimulationCore
import Traces
import TraceSimCoreLocation

/// Drives a `CoreLocationApp` by hand, as the replay would, to check what one callback does:
/// the requests app code made, and the timers it scheduled (fired on demand).
struct AppDriver {
    var app: CoreLocationApp
    var now = SimInstant(nanosecondsSinceEpoch: 1_600_000_000_000_000_000)
    /// Device requests made so far, in order.
    var deviceRequests: [AppRequest] = []
    /// Timers pending, in the order scheduled.
    var timers: [(id: Int, due: SimInstant)] = []

    init(
        status: AuthorizationStatus = .authorizedAlways, accuracy: AccuracyAuthorization = .fullAccuracy,
        recording: (any RecordingApp)? = nil, makeApp: @escaping () -> AnyObject
    ) {
        app = CoreLocationApp(recording: recording, makeApp: makeApp)
        let launch = LocationClientLaunch(
            authorizationStatus: status, accuracyAuthorization: accuracy, motionAuthorizationStatus: .authorized,
            isMotionActivityAvailable: true)
        run { app, now, requests in app.start(launch, at: now, into: &requests) }
        fireDue()
    }

    fileprivate mutating func run(
        _ body: (inout CoreLocationApp, SimInstant, inout [LocationClientRequest<Int>]) -> Void
    ) {
        var requests: [LocationClientRequest<Int>] = []
        body(&app, now, &requests)
        for request in requests {
            switch request {
            case .device(let request): deviceRequests.append(request)
            case .schedule(let id, let due): timers.append((id, due))
            }
        }
    }

    /// Moves the clock to `instant`, firing the timers due by then in order.
    mutating func advance(to instant: SimInstant) {
        now = instant
        fireDue()
    }

    /// Moves the clock by `seconds`.
    mutating func advance(seconds: Double) { advance(to: now.advanced(bySeconds: seconds)) }

    mutating func fireDue() {
        while let index = timers.indices.filter({ timers[$0].due <= now }).min(by: { timers[$0].due < timers[$1].due }) {
            let timer = timers.remove(at: index)
            run { app, now, requests in app.timerFired(timer.id, at: now, into: &requests) }
        }
    }

    mutating func deliver(_ fixes: [Fix]) {
        let deliveries = fixes.map { LocationDelivery(fix: $0, time: now) }
        run { app, now, requests in app.didUpdateLocations(deliveries, at: now, into: &requests) }
        fireDue()
    }

    mutating func changeAuthorization(_ status: AuthorizationStatus, _ accuracy: AccuracyAuthorization = .fullAccuracy) {
        run { app, now, requests in app.didChangeAuthorization(status, accuracy, at: now, into: &requests) }
        fireDue()
    }

    mutating func failUpdates() {
        run { app, now, requests in app.didFailLocationUpdates(.noDeliveryWithoutAuthorization, at: now, into: &requests) }
        fireDue()
    }

    mutating func completeTemporaryFullAccuracy(granted: Bool) {
        run { app, now, requests in app.didCompleteTemporaryFullAccuracyRequest(granted: granted, at: now, into: &requests) }
        fireDue()
    }

    mutating func crossRegion(_ identifier: String, _ crossing: RegionCrossing) {
        run { app, now, requests in app.didCrossRegion(identifier, crossing, at: now, into: &requests) }
        fireDue()
    }

    /// Hands the device what app code asked for outside a callback (a test calling a manager
    /// directly): the requests wait for the next callback, as they do on the replay's thread.
    mutating func flush() {
        run { app, now, requests in app.didUpdateLocations([], at: now, into: &requests) }
        fireDue()
    }

    /// A fix at `instant`, `northMeters` north of a base point.
    static func fix(at instant: SimInstant, northMeters: Double) -> Fix {
        Fix(
            timestamp: instant, latitude: 37.4 + northMeters / 111_195, longitude: -122.08,
            horizontalAccuracy: .meters(5))
    }
}

extension AppDriver {
    mutating func significantChange(_ fix: Fix) {
        run { app, now, requests in app.didReceiveSignificantChange(fix, at: now, into: &requests) }
        fireDue()
    }

    mutating func relaunch(_ reason: LaunchReason) {
        run { app, now, requests in app.didLaunch(reason, inBackground: true, at: now, into: &requests) }
        fireDue()
    }
}

extension AppDriver {
    mutating func pause() {
        run { app, now, requests in app.didPauseLocationUpdates(at: now, into: &requests) }
        fireDue()
    }
}
