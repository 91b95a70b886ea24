import CoreLocationShim
import Foundation
import TraceSim
import TraceSimCoreLocation
import TripTracker

/// The trip store of a replay: what the tracker would upload becomes the run's record, so the
/// reports measure the team's engine on what it keeps, not on everything the phone delivered.
///
/// Like a backend, it outlives the app's process (the tracker is made again at every
/// relaunch, the store once per run) and takes a repeated trip start as the trip going on.
final class RecordingStore: TripStore, RecordingApp {
    private(set) var recorder: Recorder
    private(set) var odometerMeters = 0.0
    private var lastSaved: CLLocation?
    private var isOnTrip = false

    init(expectedFixCount: Int) { recorder = Recorder(expectedFixCount: expectedFixCount) }

    func save(_ location: CLLocation) {
        recorder.fixDelivered()
        recorder.accepted(Fix(location))
        recorder.recordedLastAccepted()
        if let lastSaved { odometerMeters += location.distance(from: lastSaved) }
        lastSaved = location
    }

    func tripStarted(at date: Date) {
        guard !isOnTrip else { return }
        isOnTrip = true
        recorder.motionChanged(to: .moving, at: SimInstant(date))
    }

    func tripEnded(at date: Date) {
        guard isOnTrip else { return }
        isOnTrip = false
        recorder.motionChanged(to: .stationary, at: SimInstant(date))
    }
}

extension SimInstant {
    /// The instant of a `Date`, to the nearest nanosecond.
    init(_ date: Date) {
        self.init(nanosecondsSinceEpoch: Int64((date.timeIntervalSince1970 * 1e9).rounded()))
    }
}

extension Fix {
    /// The fix a location stands for; Core Location's negative "invalid" values become absent.
    init(_ location: CLLocation) {
        self.init(
            timestamp: SimInstant(location.timestamp), latitude: location.coordinate.latitude,
            longitude: location.coordinate.longitude,
            altitudeMeters: location.verticalAccuracy < 0 ? nil : location.altitude,
            horizontalAccuracy: location.horizontalAccuracy < 0 ? nil : .meters(location.horizontalAccuracy),
            verticalAccuracy: location.verticalAccuracy < 0 ? nil : .meters(location.verticalAccuracy),
            speedMetersPerSecond: location.speed < 0 ? nil : Float(location.speed),
            courseDegrees: location.course < 0 ? nil : Float(location.course))
    }
}
