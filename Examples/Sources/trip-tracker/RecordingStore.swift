import CoreLocationShim
import Foundation
import TraceSimCoreLocation
import TripTracker

/// The trip store of a replay: what the tracker would upload goes to the run's `AppRecord`, so
/// the reports measure the team's engine on what it keeps, not on everything the phone
/// delivered. The record, like a backend, outlives the app's process; this store is only the
/// tracker's way in.
final class RecordingStore: TripStore {
    private let record: AppRecord

    init(record: AppRecord) { self.record = record }

    func save(_ location: CLLocation) { record.keep(location) }

    func tripStarted(at date: Date) { record.motionChanged(isMoving: true, at: date) }

    func tripEnded(at date: Date) { record.motionChanged(isMoving: false, at: date) }
}
