import Device
import Traces

/// The app's Core Location state across all its `CLLocationManager`s, one per run's host.
///
/// The simulated phone models one app with one set of services; an app may hold several
/// managers. This registry joins them: a service runs on the device while any manager wants
/// it and stops when the last one stops (or is deallocated, as on iOS, where a manager that
/// is not kept alive delivers nothing). Monitored regions belong to the app, not to a manager
/// (Apple: "The regions in this property are shared by all instances of the CLLocationManager
/// class in your app"), and `location` is the newest location delivered to any manager.
///
/// It is the one `SimulationObserver` for every manager, and hands each callback to the
/// managers in the order they were created, so app-wide events (a region failure, a
/// temporary full-accuracy completion) are decided once.
package final class LocationServices: SimulationObserver {
    private unowned let host: SimulationHost
    private var managers: [WeakManager] = []
    private var isObserving = false
    /// The app's process, counted from 0: managers of an ended process no longer act.
    private(set) var process = 0
    /// Whether the device was last told to run standard updates, significant changes, visits.
    private var isStandardRunning = false
    private var isSignificantRunning = false
    private var isVisitsRunning = false
    /// Monitored regions in the order they were registered (a replaced one moves to the end).
    private(set) var regions: [CLRegion] = []
    /// Which manager registered each region: it hears the region's start and failure.
    private var regionOwners: [String: WeakManager] = [:]
    /// Temporary full-accuracy requests awaiting their completion, oldest first.
    private var temporaryRequests: [(manager: WeakManager, completion: (((any Error)?) -> Void)?)] = []
    /// The newest location delivered to any manager of the app.
    var lastLocation: CLLocation?

    init(host: SimulationHost) { self.host = host }

    // MARK: - Managers

    func add(_ manager: CLLocationManager) {
        managers.removeAll { $0.value == nil }
        managers.append(WeakManager(manager))
        if !isObserving {
            isObserving = true
            host.addObserver(self)
        }
    }

    /// The live managers, in the order they were created.
    private var live: [CLLocationManager] { managers.compactMap(\.value) }

    /// A manager of `process` is gone (deallocated): the services only it wanted stop. A
    /// manager of an earlier process changes nothing: its process ended before it.
    func managerEnded(process: Int) {
        guard process == self.process else { return }
        managers.removeAll { $0.value == nil }
        stopUnusedServices()
    }

    /// The process ended. Its managers are gone, and standard updates with them. Regions,
    /// significant changes and visits outlive it on iOS (they relaunch the app), so they keep
    /// running until the next process's managers start and stop them again; the regions and
    /// the last location are still there for it.
    func processEnded() {
        process += 1
        managers.removeAll()
        isObserving = false
        isStandardRunning = false
        isSignificantRunning = false
        isVisitsRunning = false
        regionOwners.removeAll()
        temporaryRequests.removeAll()
    }

    // MARK: - Services

    /// Standard updates start (again) with the options of the manager that asked last.
    func startStandardUpdates(_ options: LocationUpdateOptions) {
        isStandardRunning = true
        host.perform(.startedLocationUpdates(options))
    }

    func startSignificantChanges() {
        isSignificantRunning = true
        host.perform(.startedSignificantChanges)
    }

    func startVisits() {
        isVisitsRunning = true
        host.perform(.startedVisitMonitoring)
    }

    /// Stops every running service no live manager wants any more.
    func stopUnusedServices() {
        let live = live
        if isStandardRunning && !live.contains(where: \.wantsStandardUpdates) {
            isStandardRunning = false
            host.perform(.stoppedLocationUpdates)
        }
        if isSignificantRunning && !live.contains(where: \.isMonitoringSignificantChanges) {
            isSignificantRunning = false
            host.perform(.stoppedSignificantChanges)
        }
        if isVisitsRunning && !live.contains(where: \.isMonitoringVisits) {
            isVisitsRunning = false
            host.perform(.stoppedVisitMonitoring)
        }
    }

    // MARK: - Regions

    func region(_ identifier: String) -> CLRegion? { regions.first { $0.identifier == identifier } }

    func startMonitoring(_ region: CLCircularRegion, by manager: CLLocationManager) {
        regions.removeAll { $0.identifier == region.identifier }
        // The system keeps its own copy (Apple: the objects in the set "may not necessarily be
        // the same objects you specified").
        guard let copy = region.copy() as? CLRegion else { return }
        regions.append(copy)
        regionOwners[region.identifier] = WeakManager(manager)
        host.perform(.startedMonitoring(region.monitored))
    }

    func stopMonitoring(_ identifier: String) {
        guard region(identifier) != nil else { return }
        regions.removeAll { $0.identifier == identifier }
        regionOwners[identifier] = nil
        host.perform(.stoppedMonitoring(identifier: identifier))
    }

    /// Whether `identifier` is still registered with the device (no failure came back).
    func isMonitoring(_ identifier: String) -> Bool { region(identifier) != nil }

    /// The managers that hear about `identifier` alone: its owner, or every manager once the
    /// owner is gone.
    private func owners(of identifier: String) -> [CLLocationManager] {
        if let owner = regionOwners[identifier]?.value { return [owner] }
        return live
    }

    // MARK: - Temporary full accuracy

    func requestTemporaryFullAccuracy(
        purpose: String, by manager: CLLocationManager, completion: (((any Error)?) -> Void)?
    ) {
        temporaryRequests.append((WeakManager(manager), completion))
        host.perform(.requestedTemporaryFullAccuracy(purpose: purpose))
    }

    // MARK: - SimulationObserver

    package func simulationDidUpdateLocations(_ deliveries: [LocationDelivery]) {
        // The per-fix path: iterates the list as it was (a copy only if a callback adds a
        // manager, which then hears the next delivery) instead of building the live ones.
        // Every listed manager belongs to this process and host, so it is handed these services
        // rather than looking them up (through the task-local host) for every fix.
        for weak in managers { weak.value?.simulationDelivered(deliveries, services: self) }
    }

    package func simulationDidReceiveSignificantChange(_ fix: Fix) {
        let location = CLLocation(fix, deliveredAt: host.now)
        for manager in live where manager.isMonitoringSignificantChanges {
            manager.simulationDelivered(significantChange: location)
        }
    }

    package func simulationDidCrossRegion(_ identifier: String, _ crossing: RegionCrossing) {
        // Regions belong to the app: every manager's delegate hears the crossing.
        guard let region = region(identifier) else { return }
        for manager in live { manager.simulationCrossed(region, crossing) }
    }

    package func simulationMonitoringDidFail(forRegion identifier: String, _ rule: DeviceRule) {
        let targets = owners(of: identifier)
        let region = region(identifier)
        regions.removeAll { $0.identifier == identifier }
        regionOwners[identifier] = nil
        let code: CLError.Code
        switch rule {
        case .regionRequiresAuthorization, .regionUnavailableWithReducedAccuracy: code = .regionMonitoringDenied
        default: code = .regionMonitoringFailure
        }
        for manager in targets { manager.simulationMonitoringFailed(region, CLError(code)) }
    }

    package func simulationDidVisit(_ visit: VisitEvent) {
        let clVisit = CLVisit(visit)
        for manager in live where manager.isMonitoringVisits { manager.simulationVisited(clVisit) }
    }

    package func simulationDidChangeAuthorization() {
        for manager in live { manager.simulationAuthorizationChanged() }
    }

    package func simulationDidCompleteTemporaryFullAccuracyRequest(granted: Bool) {
        guard !temporaryRequests.isEmpty else { return }
        let request = temporaryRequests.removeFirst()
        guard request.manager.value != nil else { return }
        request.completion?(granted ? nil : CLError(.promptDeclined))
    }

    package func simulationDidFailLocationUpdates(_ rule: DeviceRule) {
        for manager in live where manager.wantsStandardUpdates { manager.simulationUpdatesFailed() }
        stopUnusedServices()
    }

    package func simulationDidPauseLocationUpdates() {
        for manager in live where manager.isUpdatingLocation { manager.simulationPaused() }
    }
}

/// A manager held weakly.
struct WeakManager {
    weak var value: CLLocationManager?

    init(_ value: CLLocationManager) { self.value = value }
}
