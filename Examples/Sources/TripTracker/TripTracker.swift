import CoreLocationShim
import Foundation

/// A trip tracker the way an iOS app writes one: a `CLLocationManagerDelegate` that records
/// trips in the background, turns the GPS off while the phone stands still, and lets iOS wake
/// it again when the phone moves on.
///
/// - Moving: standard location updates in the background, without iOS's automatic pause; a
///   location is saved at most every 25 m.
/// - Still (no movement beyond 50 m for 3 minutes, judged on the locations' own timestamps):
///   the trip ends, standard updates stop and a 150 m region around the stop is monitored.
/// - Leaving that region, or a significant location change away from it, starts the next
///   trip. Significant-change monitoring runs throughout, so iOS relaunches the app after it
///   was terminated.
///
/// It imports only Foundation and Core Location (through `CoreLocationShim`, which is Apple's
/// framework on Apple platforms), so the same file builds into an iOS app.
public final class TripTracker: NSObject, CLLocationManagerDelegate {
    /// Locations are saved at most this far apart, metres.
    static let saveDistance: CLLocationDistance = 25
    /// Moving less than this ...
    static let stillRadius: CLLocationDistance = 50
    /// ... for this long means the phone stands still, seconds.
    static let stillDuration: TimeInterval = 3 * 60
    /// The region that wakes the app when it moves on, metres.
    static let stationaryRadius: CLLocationDistance = 150
    /// Fixes less accurate than this are ignored, metres.
    static let worstAccuracy: CLLocationAccuracy = 100
    /// Below this speed the distance filter is off, metres per second (see `adjustDistanceFilter`).
    static let slowSpeed: CLLocationSpeed = 10
    static let regionIdentifier = "trip-tracker.stationary"
    /// How often a trip's locations are handed on for upload, seconds.
    static let syncInterval: TimeInterval = 60

    private let store: TripStore
    private let manager = CLLocationManager()
    /// Whether standard updates run (otherwise the phone is parked and a region watches it).
    private var isMoving = false
    private var isOnTrip = false
    private var lastSaved: CLLocation?
    /// Where the phone last moved more than `stillRadius`, and when.
    private var anchor: CLLocation?
    private var stopCenter: CLLocation?
    /// Hands the store what it has to upload, every `syncInterval` while on a trip.
    private var syncTimer: Timer?

    /// Starts tracking: asks for When In Use, then Always, and starts location services.
    /// Called at every launch of the app, including a background relaunch by iOS.
    public init(store: TripStore) {
        self.store = store
        super.init()
        manager.delegate = self
        manager.desiredAccuracy = kCLLocationAccuracyBest
        manager.activityType = .automotiveNavigation
        manager.distanceFilter = Self.saveDistance
        manager.allowsBackgroundLocationUpdates = true
        manager.pausesLocationUpdatesAutomatically = false

        // Regions survive the app's process: if the last run parked the phone, stay parked.
        if let region = manager.monitoredRegions.first(where: { $0.identifier == Self.regionIdentifier }),
            let circle = region as? CLCircularRegion
        {
            stopCenter = CLLocation(latitude: circle.center.latitude, longitude: circle.center.longitude)
        }
        if manager.authorizationStatus == .notDetermined {
            manager.requestWhenInUseAuthorization()
        }
        // The fallback that relaunches a terminated app when the phone moves a few hundred metres.
        manager.startMonitoringSignificantLocationChanges()
        startTracking()
    }

    // MARK: - Authorization

    public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        if manager.authorizationStatus == .authorizedWhenInUse {
            // Apps ask for Always once When In Use is granted; iOS decides whether to prompt.
            manager.requestAlwaysAuthorization()
        }
        startTracking()
    }

    // MARK: - Moving and parked

    private var isAuthorized: Bool {
        manager.authorizationStatus == .authorizedAlways || manager.authorizationStatus == .authorizedWhenInUse
    }

    /// Starts standard updates unless the phone is parked or the app may not track.
    private func startTracking() {
        guard isAuthorized, !isMoving, stopCenter == nil else { return }
        isMoving = true
        anchor = nil
        manager.startUpdatingLocation()
    }

    /// The phone stands still: end the trip, turn the GPS off and watch a region around it.
    private func park(at location: CLLocation) {
        isMoving = false
        manager.stopUpdatingLocation()
        if isOnTrip {
            isOnTrip = false
            syncTimer?.invalidate()
            syncTimer = nil
            store.tripEnded(at: location.timestamp)
            store.sync()
        }
        stopCenter = location
        let region = CLCircularRegion(
            center: location.coordinate, radius: Self.stationaryRadius, identifier: Self.regionIdentifier)
        region.notifyOnEntry = false
        region.notifyOnExit = true
        manager.startMonitoring(for: region)
    }

    /// The phone left the place it was parked at: stop watching it and track again.
    private func leaveParking() {
        guard stopCenter != nil else { return }
        stopCenter = nil
        for region in manager.monitoredRegions where region.identifier == Self.regionIdentifier {
            manager.stopMonitoring(for: region)
        }
        startTracking()
    }

    // MARK: - Locations

    public func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        for location in locations {
            guard location.horizontalAccuracy >= 0, location.horizontalAccuracy <= Self.worstAccuracy else { continue }
            if let stopCenter {
                // A significant change while parked: moving on only if it is outside the region.
                guard location.distance(from: stopCenter) > Self.stationaryRadius else { continue }
                leaveParking()
            }
            if !isMoving {
                // Woken by a significant change after updates could not start: try again.
                startTracking()
                continue
            }
            track(location)
        }
    }

    private func track(_ location: CLLocation) {
        if !isOnTrip {
            isOnTrip = true
            store.tripStarted(at: location.timestamp)
            startSyncing()
        }
        if lastSaved.map({ location.distance(from: $0) >= Self.saveDistance }) ?? true {
            lastSaved = location
            store.save(location)
        }
        adjustDistanceFilter(for: location)
        // Still means: no movement beyond `stillRadius` since the anchor, for `stillDuration`,
        // measured on the fixes' timestamps (never the wall clock, which a replay does not move).
        guard let anchor, location.distance(from: anchor) <= Self.stillRadius else {
            anchor = location
            return
        }
        if location.timestamp.timeIntervalSince(anchor.timestamp) >= Self.stillDuration {
            park(at: location)
        }
    }

    /// Uploads in batches, as apps do, with the timer an iOS developer writes. `AppClock`'s
    /// timer takes a block that need not be `@Sendable`, so `[weak self]` in this class (which is
    /// not `Sendable`) builds in Swift 6, where Foundation's `Timer.scheduledTimer` refuses it;
    /// under a replay it fires in virtual time, and only while the app's process runs.
    private func startSyncing() {
        syncTimer?.invalidate()
        syncTimer = AppClock.scheduledTimer(withTimeInterval: Self.syncInterval, repeats: true) { [weak self] _ in
            self?.store.sync()
        }
    }

    /// A 25 m filter saves battery at speed, but a phone standing still would then get no
    /// locations at all, and the stop would never be noticed. In slow traffic (or when the fix
    /// has no speed) every location is delivered.
    private func adjustDistanceFilter(for location: CLLocation) {
        // An unknown speed is negative, so it counts as slow.
        let filter = location.speed < Self.slowSpeed ? kCLDistanceFilterNone : Self.saveDistance
        if manager.distanceFilter != filter { manager.distanceFilter = filter }
    }

    // MARK: - Regions

    public func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {
        guard region.identifier == Self.regionIdentifier else { return }
        leaveParking()
    }

    public func locationManager(
        _ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: Error
    ) {
        // iOS refuses regions to an app without Always or with approximate locations. The
        // phone stays parked; a significant change beyond the stop's radius still moves it on.
    }

    public func locationManager(_ manager: CLLocationManager, didFailWithError error: Error) {
        // Updates could not start (denied, or When In Use in the background): wait for the
        // next authorization change or significant change.
        isMoving = false
    }
}
