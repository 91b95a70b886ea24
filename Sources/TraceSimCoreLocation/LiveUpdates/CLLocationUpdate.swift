import Device
import Foundation
import SimulationCore

/// One element of a live-updates sequence: a location, or why there is none. Models
/// `CLLocationUpdate` (iOS 17+; the diagnostic properties are iOS 18's).
///
/// Under a replay every location the simulated phone delivers becomes one update, in order,
/// each carrying the exact fix and its delivery instant (`CLLocation`'s). A failure to start
/// (no authorization, When In Use outside the in-use window, Location Services off) becomes
/// one update without a location whose flags say why.
public struct CLLocationUpdate: Sendable {
    /// The location, if the update carries one.
    public let location: CLLocation?
    /// Whether updates stopped because the device is still. The simulated phone does not
    /// pause live updates (see `liveUpdates(_:)`), so this is always `false`.
    public let isStationary: Bool
    /// The app is not authorized (denied).
    public let authorizationDenied: Bool
    /// Location Services are off for the whole device.
    public let authorizationDeniedGlobally: Bool
    /// Parental controls or device management forbid location.
    public let authorizationRestricted: Bool
    /// The app is authorized When In Use but was not in use when updates started.
    public let insufficientlyInUse: Bool
    /// The app holds reduced (approximate) accuracy.
    public let accuracyLimited: Bool
    /// No location could be determined. Never set by the simulated phone.
    public let locationUnavailable: Bool
    /// The app declared that it needs an explicit service session and holds none. Never set:
    /// the service-session requirement is not modelled.
    public let serviceSessionRequired: Bool
    /// An authorization prompt is on screen. Never set.
    public let authorizationRequestInProgress: Bool

    /// iOS 18's spelling of `isStationary`.
    public var stationary: Bool { isStationary }

    package init(
        location: CLLocation?, accuracyLimited: Bool, authorizationDenied: Bool = false,
        authorizationDeniedGlobally: Bool = false, authorizationRestricted: Bool = false,
        insufficientlyInUse: Bool = false
    ) {
        self.location = location
        isStationary = false
        self.authorizationDenied = authorizationDenied
        self.authorizationDeniedGlobally = authorizationDeniedGlobally
        self.authorizationRestricted = authorizationRestricted
        self.insufficientlyInUse = insufficientlyInUse
        self.accuracyLimited = accuracyLimited
        locationUnavailable = false
        serviceSessionRequired = false
        authorizationRequestInProgress = false
    }

    /// What kind of movement the updates are for. Models `CLLocationUpdate.LiveConfiguration`;
    /// the simulated phone delivers the trace's fixes the same way for every configuration.
    public enum LiveConfiguration: Sendable, Hashable {
        /// General use.
        case `default`
        /// Driving navigation.
        case automotiveNavigation
        /// Navigation other than driving.
        case otherNavigation
        /// Fitness activities.
        case fitness
        /// Flight.
        case airborne
    }

    /// Starts location updates and delivers them as an asynchronous sequence. Models
    /// `CLLocationUpdate.liveUpdates(_:)`.
    ///
    /// Under a replay (called from app code `CoreLocationApp` runs, or from a `Task` started
    /// there) iteration is in lock-step with the replay: starting to iterate starts standard
    /// updates on the simulated phone (`AppRequest.startedLocationUpdates`) and registers the
    /// sequence with it; each delivery is handed to the waiting consumer, and the replay does
    /// not move on until the consumer asks for the next element or ends, so what it does in
    /// between happens at the delivery's virtual instant. Ending the iteration (leaving the
    /// loop, cancelling its task) stops the updates (`AppRequest.stoppedLocationUpdates`); the
    /// end of the trace or of the app's process ends the sequence.
    ///
    /// How the phone runs them: like a delegate's standard updates that do not pause
    /// automatically, with `allowsBackgroundLocationUpdates` when the app holds Always at the
    /// start (an Always app keeps receiving in the background; a When-In-Use app needs a
    /// `CLBackgroundActivitySession`, Apple's rule for live updates). The simulated phone
    /// holds one standard-updates service per app, shared with `CLLocationManager`.
    ///
    /// Outside a replay the sequence ends at once.
    public static func liveUpdates(_ configuration: LiveConfiguration = .default) -> Updates {
        Updates(host: SimulationHost.current)
    }

    /// The live-updates sequence. Models `CLLocationUpdate.Updates`.
    public struct Updates: AsyncSequence, Sendable {
        /// The sequence's elements.
        public typealias Element = CLLocationUpdate

        private let host: SimulationHost?

        init(host: SimulationHost?) { self.host = host }

        /// Starts the updates (see `liveUpdates(_:)`).
        public func makeAsyncIterator() -> Iterator { Iterator(feed: host.map(LiveFeed.init)) }

        /// Hands out the updates in order.
        public struct Iterator: AsyncIteratorProtocol {
            private let feed: LiveFeed?

            init(feed: LiveFeed?) { self.feed = feed }

            /// The next update, or `nil` when the sequence ended (the trace or the process
            /// ended, the task was cancelled, or there is no replay).
            public mutating func next() async throws -> CLLocationUpdate? {
                guard let feed else { return nil }
                return await feed.next()
            }
        }
    }
}

/// One live-updates iteration: a `CLLocationManager` of its own (so its standard updates
/// join the app's other managers' through `LocationServices`: the phone stops them only when
/// no one wants them) whose deliveries are buffered on the replay's thread and taken by the
/// consumer's task.
final class LiveFeed: NSObject, CLLocationManagerDelegate, @unchecked Sendable {
    private let host: SimulationHost
    private let manager: CLLocationManager
    private let lock = NSLock()
    private var buffer: [CLLocationUpdate] = []
    private var first = 0
    private var waiting: SimulatedTasks.Ticket?
    private var isEnded = false

    init(host: SimulationHost) {
        self.host = host
        manager = SimulationHost.$current.withValue(host) { CLLocationManager() }
        super.init()
        manager.delegate = self
        manager.pausesLocationUpdatesAutomatically = false
        manager.allowsBackgroundLocationUpdates = host.authorizationStatus == .authorizedAlways
        manager.startUpdatingLocation()
    }

    deinit {
        // Leaving the loop stops the updates, unless the process or the trace already ended.
        if !lock.withLock({ isEnded }) { manager.stopUpdatingLocation() }
    }

    func next() async -> CLLocationUpdate? {
        while true {
            let ticket: SimulatedTasks.Ticket? = lock.withLock {
                if first < buffer.count || isEnded { return nil }
                let ticket = host.tasks.makeTicket()
                waiting = ticket
                return ticket
            }
            guard let ticket else { return lock.withLock(take) }
            host.tasks.park(ticket)
            switch await host.tasks.wait(ticket) {
            case .resumed:
                continue
            case .cancelled:
                lock.withLock { waiting = nil }
                return nil
            case .ended:
                lock.withLock { isEnded = true }
                return nil
            }
        }
    }

    /// The oldest buffered update, if any (the lock held).
    private func take() -> CLLocationUpdate? {
        guard first < buffer.count else { return nil }
        let update = buffer[first]
        first += 1
        if first == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            first = 0
        }
        return update
    }

    private func hand(_ updates: [CLLocationUpdate]) {
        let ticket: SimulatedTasks.Ticket? = lock.withLock {
            buffer.append(contentsOf: updates)
            defer { waiting = nil }
            return waiting
        }
        if let ticket { host.tasks.wake(ticket, .resumed) }
    }

    // MARK: - CLLocationManagerDelegate, on the replay's thread

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        let limited = host.accuracyAuthorization == .reducedAccuracy
        hand(locations.map { CLLocationUpdate(location: $0, accuracyLimited: limited) })
    }

    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
        let status = host.authorizationStatus
        hand([
            CLLocationUpdate(
                location: nil, accuracyLimited: host.accuracyAuthorization == .reducedAccuracy,
                authorizationDenied: status == .denied && host.isLocationServicesEnabled,
                authorizationDeniedGlobally: !host.isLocationServicesEnabled,
                authorizationRestricted: status == .restricted,
                insufficientlyInUse: status == .authorizedWhenInUse)
        ])
    }

    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {}
}
