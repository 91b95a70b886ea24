import Device
import Engine
import SimulationCore

/// An engine written for tests of a team's own engine: it starts background updates at launch
/// and keeps what `keeping` says of every location it is handed, so a test can make one that
/// keeps nothing, everything (reduced-accuracy fixes too), fixes moved off the trace, every
/// n-th fix, or the last of each call. It has no odometer.
package struct KeepingClient: RecordingClient {
    /// What the client keeps of each delivered location.
    package enum Keeping: Sendable {
        /// Counts every delivery, keeps none.
        case nothing
        /// Keeps every delivered fix as delivered, and records each.
        case everything
        /// Keeps every fix moved north by this many degrees, and records each.
        case displaced(latitudeDegrees: Double)
        /// Keeps every delivered fix and records every n-th delivered one.
        case recordingEvery(Int)
        /// Keeps only the last location of each call, as an app written the common way does
        /// (`locations.last`), without recording it.
        case lastOfEachCall
    }

    package private(set) var recorder = Recorder()
    package var odometerMeters: Double { 0 }
    private let keeping: Keeping

    package init(_ keeping: Keeping) {
        self.keeping = keeping
    }

    package mutating func start(
        _ launch: LocationClientLaunch, at now: SimInstant, into requests: inout [LocationClientRequest<Never>]
    ) {
        requests.append(.device(.startedLocationUpdates(LocationUpdateOptions(allowsBackgroundLocationUpdates: true))))
    }

    package mutating func didUpdateLocations(
        _ locations: [LocationDelivery], at now: SimInstant, into requests: inout [LocationClientRequest<Never>]
    ) {
        if case .lastOfEachCall = keeping {
            for _ in locations { recorder.fixDelivered() }
            if let last = locations.last { recorder.accepted(last.fix) }
            return
        }
        for delivery in locations {
            recorder.fixDelivered()
            switch keeping {
            case .nothing: continue
            case .everything:
                recorder.accepted(delivery.fix)
                recorder.recordedLastAccepted()
            case .displaced(let degrees):
                var fix = delivery.fix
                fix.latitude += degrees
                recorder.accepted(fix)
                recorder.recordedLastAccepted()
            case .recordingEvery(let interval):
                recorder.accepted(delivery.fix)
                if (recorder.deliveredFixCount - 1) % interval == 0 { recorder.recordedLastAccepted() }
            case .lastOfEachCall: break  // handled above, once per call
            }
        }
    }

    package func finish(at now: SimInstant) {}
}
