// Written the way an iOS developer writes a tracker, importing only the shim (and Foundation):
// on Linux it compiles against the facade, on Apple platforms against Core Location. It
// proves the one-line import story; `ImportStoryTests` replays it.
import CoreLocationShim
import Foundation

final class LocationTracker: NSObject, CLLocationManagerDelegate {
    private let manager = CLLocationManager()
    private(set) var recorded: [CLLocation] = []
    private(set) var lastError: Error?
    private(set) var events: [String] = []
    private var lastAccepted: CLLocation?

    override init() {
        super.init()
        manager.delegate = self
        manager.desiredAccuracy = kCLLocationAccuracyBest
        manager.distanceFilter = 10
        manager.activityType = .automotiveNavigation
        manager.pausesLocationUpdatesAutomatically = false
        manager.showsBackgroundLocationIndicator = true
    }

    func start() {
        switch manager.authorizationStatus {
        case .notDetermined:
            manager.requestWhenInUseAuthorization()
        case .authorizedWhenInUse:
            manager.requestAlwaysAuthorization()
            fallthrough
        case .authorizedAlways:
            manager.allowsBackgroundLocationUpdates = true
            manager.startUpdatingLocation()
            manager.startMonitoringSignificantLocationChanges()
            manager.startMonitoringVisits()
        case .denied, .restricted:
            events.append("no permission")
        @unknown default:
            break
        }
        if manager.accuracyAuthorization == .reducedAccuracy {
            // The completion is @Sendable in Apple's Swift 6 SDK, so it cannot touch `self` here.
            manager.requestTemporaryFullAccuracyAuthorization(withPurposeKey: "Tracking") { error in
                if let error { print("full accuracy declined: \(error.localizedDescription)") }
            }
        }
    }

    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        events.append("authorization \(manager.authorizationStatus.rawValue)")
        start()
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        for location in locations where location.horizontalAccuracy >= 0 && location.horizontalAccuracy < 50 {
            if let last = lastAccepted, location.timestamp.timeIntervalSince(last.timestamp) < 1 { continue }
            recorded.append(location)
            lastAccepted = location
        }
        if let location = locations.last, CLLocationManager.isMonitoringAvailable(for: CLCircularRegion.self),
            manager.monitoredRegions.isEmpty
        {
            let region = CLCircularRegion(center: location.coordinate, radius: 150, identifier: "stationary")
            region.notifyOnEntry = false
            manager.startMonitoring(for: region)
        }
    }

    func locationManager(_ manager: CLLocationManager, didFailWithError error: Error) {
        lastError = error
        if let error = error as? CLError, error.code == .denied {
            manager.stopUpdatingLocation()
        }
    }

    func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {
        events.append("left \(region.identifier)")
        manager.stopMonitoring(for: region)
        manager.startUpdatingLocation()
    }

    func locationManager(_ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: Error) {
        events.append("region failed \((error as NSError).code)")
    }

    func locationManager(_ manager: CLLocationManager, didVisit visit: CLVisit) {
        events.append(visit.departureDate == Date.distantFuture ? "arrived" : "departed")
    }

    func locationManagerDidPauseLocationUpdates(_ manager: CLLocationManager) {
        events.append("paused")
    }

    func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion) {
        manager.requestState(for: region)
    }

    func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion) {
        if state == .outside { events.append("outside \(region.identifier)") }
    }
}
