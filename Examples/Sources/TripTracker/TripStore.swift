import CoreLocationShim
import Foundation

/// Where the tracker hands what it would upload. On a phone this is a database or an upload
/// queue: it outlives the app's process, so a tracker relaunched in the background by iOS
/// carries on the same trip.
public protocol TripStore: AnyObject {
    /// A location worth keeping (at most one every 25 m).
    func save(_ location: CLLocation)
    /// The device started moving.
    func tripStarted(at date: Date)
    /// The device has been still for a few minutes.
    func tripEnded(at date: Date)
    /// Upload what was handed over so far (every minute of a trip, and at its end).
    func sync()
}

extension TripStore {
    /// Nothing to upload: a store that keeps everything where it is.
    public func sync() {}
}
