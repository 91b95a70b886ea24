import Device
import Foundation
import SimulationCore
import Traces

/// The object an app configures and starts location services with. Models
/// `CLLocationManager`, over the simulated iPhone of the run it was created in.
///
/// Created inside a run (in app code `CoreLocationApp` calls), a manager binds to that run's
/// phone and its delegate hears from it in virtual time. Created outside a run it is inert:
/// properties can be set and read, calls do nothing, nothing is delivered, and the
/// authorization reads `.notDetermined`.
///
/// Calls into the manager reach the device when the current callback returns, which is when
/// their effects (a prompt, updates starting, a failure) happen in the replay. What the
/// simulated phone does not model is stored and read back only: `desiredAccuracy`,
/// `activityType`, `showsBackgroundLocationIndicator`, heading and beacon settings.
/// `allowsBackgroundLocationUpdates` and `pausesLocationUpdatesAutomatically` are read when
/// updates start (`startUpdatingLocation()`, `requestLocation()`); changing them while updates
/// run takes effect at the next start.
///
/// The class is `open` so tests can subclass it, as with Apple's.
open class CLLocationManager: NSObject {
    /// Who hears from the manager. Held weakly, as Core Location does.
    open weak var delegate: (any CLLocationManagerDelegate)?
    /// The accuracy the app wants. Stored only: the simulated phone delivers what the trace
    /// recorded (reduced when accuracy authorization is reduced).
    open var desiredAccuracy: CLLocationAccuracy = kCLLocationAccuracyBest
    /// The distance in metres the device must move from the previously delivered location
    /// before the next standard update is delivered; `kCLDistanceFilterNone` (the default)
    /// delivers every one. Applied to this manager's standard updates only, as Apple documents
    /// ("Use this property only in conjunction with the Standard location services").
    open var distanceFilter: CLLocationDistance = kCLDistanceFilterNone
    /// What the app tracks. Stored only: the simulated phone's automatic pause does not
    /// depend on it.
    open var activityType: CLActivityType = .other
    /// Whether updates continue in the background (needs the location background mode, or
    /// the app is terminated, as iOS does). Read when updates start.
    open var allowsBackgroundLocationUpdates = false
    /// Whether the system may pause updates when the device stops moving. Read when updates start.
    open var pausesLocationUpdatesAutomatically = true
    /// Whether the status bar shows the location indicator. Stored only.
    open var showsBackgroundLocationIndicator = false
    /// The heading change that triggers an update. Stored only: there is no compass.
    open var headingFilter: CLLocationDegrees = 1
    /// The orientation headings are reported against. Stored only.
    open var headingOrientation: CLDeviceOrientation = .portrait

    /// The run's phone, while the process that created this manager runs.
    private var host: SimulationHost? {
        guard let boundHost, boundHost.locationServices.process == process else { return nil }
        // Used from another run's callback (a singleton outliving its run): not this phone's.
        if let current = SimulationHost.current, current !== boundHost { return nil }
        return boundHost
    }
    private var services: LocationServices? { host?.locationServices }
    private let boundHost: SimulationHost?
    /// The app process this manager was created in: after a relaunch, a manager the old
    /// process left behind (kept by a test, say) is as inert as one made outside a run.
    private let process: Int

    /// Whether this manager's app asked for standard updates (`startUpdatingLocation()`).
    private(set) var isUpdatingLocation = false
    /// Whether a `requestLocation()` waits for its location.
    private var locationRequestTimeout: Int?
    private(set) var isMonitoringSignificantChanges = false
    private(set) var isMonitoringVisits = false
    /// The last standard update delivered, for the distance filter.
    private var lastDelivered: CLLocation?
    /// An empty array whose buffer the next standard update reuses.
    private var spareBatch: [CLLocation] = []
    /// Whether this manager has told its delegate the authorization yet.
    private var hasReportedAuthorization = false
    /// Default handlers run while the authorization pair is being called.
    private var unhandledAuthorizationCallbacks: [String]?

    /// How long `requestLocation()` waits for a location before failing with
    /// `CLError.locationUnknown`, seconds of virtual time. Apple documents only that it fails
    /// when "a location fix cannot be determined in a timely manner"; 10 s is the decision
    /// recorded in the design note.
    static let locationRequestTimeoutSeconds = 10.0

    /// A manager bound to the run whose app code is running (`SimulationHost.current`), or an
    /// inert one outside a run.
    public override init() {
        boundHost = SimulationHost.current
        process = boundHost?.locationServices.process ?? 0
        super.init()
        guard let host else { return }
        host.locationServices.add(self)
        // Core Location tells the delegate the authorization "when the app creates the related
        // object's CLLocationManager instance": after the code that made it returns, by which
        // time the delegate is set.
        host.schedule(at: host.now) { [weak self] in
            guard let self, !self.hasReportedAuthorization else { return }
            self.simulationAuthorizationChanged()
        }
    }

    deinit {
        boundHost?.locationServices.managerEnded(process: process)
    }

    // MARK: - Authorization

    /// The app's authorization: `.notDetermined` outside a run.
    open var authorizationStatus: CLAuthorizationStatus {
        host.map { CLAuthorizationStatus($0.authorizationStatus) } ?? .notDetermined
    }

    /// Precise or approximate: `.fullAccuracy` outside a run.
    open var accuracyAuthorization: CLAccuracyAuthorization {
        host.map { CLAccuracyAuthorization($0.accuracyAuthorization) } ?? .fullAccuracy
    }

    /// The app's authorization, asked of the class (deprecated in iOS 14): the current run's,
    /// or `.notDetermined` outside a run.
    @available(iOS, deprecated: 14.0, message: "Use the authorizationStatus instance property")
    @available(macOS, deprecated: 11.0, message: "Use the authorizationStatus instance property")
    open class func authorizationStatus() -> CLAuthorizationStatus {
        SimulationHost.current.map { CLAuthorizationStatus($0.authorizationStatus) } ?? .notDetermined
    }

    /// Whether Location Services is on in Settings: the current run's answer, true outside a run.
    open class func locationServicesEnabled() -> Bool { SimulationHost.current?.isLocationServicesEnabled ?? true }

    /// True: the simulated phone has the significant-change service.
    open class func significantLocationChangeMonitoringAvailable() -> Bool { true }

    /// True for circular regions; false for beacon regions (no beacons are simulated).
    open class func isMonitoringAvailable(for regionClass: AnyClass) -> Bool {
        regionClass is CLCircularRegion.Type
    }

    /// False: the simulated phone has no compass.
    open class func headingAvailable() -> Bool { false }

    /// False: no beacons are simulated.
    open class func isRangingAvailable() -> Bool { false }

    /// False: deferred updates are not modelled (Apple deprecated them in iOS 13).
    open class func deferredLocationUpdatesAvailable() -> Bool { false }

    /// Asks for When-In-Use authorization; the device decides whether a prompt appears.
    open func requestWhenInUseAuthorization() {
        acting("requestWhenInUseAuthorization()")?.perform(.requestedWhenInUse)
    }

    /// Asks for Always authorization; the device decides whether a prompt appears.
    open func requestAlwaysAuthorization() { acting("requestAlwaysAuthorization()")?.perform(.requestedAlways) }

    /// Asks for precise locations for this session, naming the purpose string's key.
    open func requestTemporaryFullAccuracyAuthorization(withPurposeKey purposeKey: String) {
        acting("requestTemporaryFullAccuracyAuthorization(withPurposeKey:)")?.locationServices
            .requestTemporaryFullAccuracy(purpose: purposeKey, by: self, completion: nil)
    }

    /// Asks for precise locations for this session; `completion` runs when the device answers:
    /// `nil` when accuracy is full afterwards, `CLError.promptDeclined` when it is not.
    open func requestTemporaryFullAccuracyAuthorization(
        withPurposeKey purposeKey: String, completion: (@Sendable ((any Error)?) -> Void)? = nil
    ) {
        acting("requestTemporaryFullAccuracyAuthorization(withPurposeKey:completion:)")?.locationServices
            .requestTemporaryFullAccuracy(purpose: purposeKey, by: self, completion: completion)
    }

    /// Asks for precise locations for this session and waits for the device's answer.
    /// - Throws: `CLError.promptDeclined` when accuracy is not full afterwards.
    open func requestTemporaryFullAccuracyAuthorization(withPurposeKey purposeKey: String) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            requestTemporaryFullAccuracyAuthorization(withPurposeKey: purposeKey) { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }

    // MARK: - Standard updates

    /// The most recently delivered location, to any manager of the app (Apple: "The most
    /// recently retrieved user location"); `nil` before the first.
    open var location: CLLocation? { services?.lastLocation }

    /// Starts standard updates (or changes their options, if running).
    open func startUpdatingLocation() {
        isUpdatingLocation = true
        acting("startUpdatingLocation()")?.locationServices.startStandardUpdates(updateOptions)
    }

    /// Stops this manager's standard updates; the device stops when no manager wants them.
    /// The next start delivers its first location whatever the distance filter.
    open func stopUpdatingLocation() {
        isUpdatingLocation = false
        lastDelivered = nil
        endLocationRequest()
        services?.stopUnusedServices()
    }

    /// One location, then the updates stop; `didFailWithError` with `CLError.locationUnknown`
    /// when none arrives within 10 s of virtual time.
    open func requestLocation() {
        guard let host = acting("requestLocation()"), locationRequestTimeout == nil else { return }
        let services = host.locationServices
        locationRequestTimeout = host.schedule(at: host.now.advanced(bySeconds: Self.locationRequestTimeoutSeconds)) {
            [weak self] in
            guard let self, self.locationRequestTimeout != nil else { return }
            self.locationRequestTimeout = nil
            self.services?.stopUnusedServices()
            self.delegate?.locationManager(self, didFailWithError: CLError(.locationUnknown))
        }
        services.startStandardUpdates(updateOptions)
    }

    private var updateOptions: LocationUpdateOptions {
        LocationUpdateOptions(
            allowsBackgroundLocationUpdates: allowsBackgroundLocationUpdates,
            pausesLocationUpdatesAutomatically: pausesLocationUpdatesAutomatically)
    }

    /// Whether this manager wants the device's standard updates running.
    var wantsStandardUpdates: Bool { isUpdatingLocation || locationRequestTimeout != nil }

    private func endLocationRequest() {
        guard let timer = locationRequestTimeout else { return }
        host?.cancelTimer(timer)
        locationRequestTimeout = nil
    }

    // MARK: - Significant changes and visits

    /// Starts significant-change monitoring; its locations arrive in `didUpdateLocations`.
    open func startMonitoringSignificantLocationChanges() {
        isMonitoringSignificantChanges = true
        acting("startMonitoringSignificantLocationChanges()")?.locationServices.startSignificantChanges()
    }

    /// Stops this manager's significant-change monitoring.
    open func stopMonitoringSignificantLocationChanges() {
        isMonitoringSignificantChanges = false
        services?.stopUnusedServices()
    }

    /// Starts visit monitoring; visits arrive in `didVisit`.
    open func startMonitoringVisits() {
        isMonitoringVisits = true
        acting("startMonitoringVisits()")?.locationServices.startVisits()
    }

    /// Stops this manager's visit monitoring.
    open func stopMonitoringVisits() {
        isMonitoringVisits = false
        services?.stopUnusedServices()
    }

    // MARK: - Regions

    /// The app's monitored regions, shared by all its managers (copies kept by the system:
    /// compare them by `identifier`).
    open var monitoredRegions: Set<CLRegion> { Set(services?.regions ?? []) }

    /// The largest region radius: the simulated phone sets no limit.
    open var maximumRegionMonitoringDistance: CLLocationDistance { CLLocationDistanceMax }

    /// Starts monitoring `region` (replacing a region with the same identifier).
    /// `didStartMonitoringFor` follows at the same instant unless the device refuses it
    /// (`monitoringDidFailFor` with `CLError.regionMonitoringDenied` for missing authorization or
    /// reduced accuracy, `regionMonitoringFailure` for the 20-region limit). A region that is
    /// not a `CLCircularRegion` cannot be monitored here and fails with `regionMonitoringFailure`.
    open func startMonitoring(for region: CLRegion) {
        guard let host = acting("startMonitoring(for:)") else { return }
        let services = host.locationServices
        guard let circle = region as? CLCircularRegion else {
            host.schedule(at: host.now) { [weak self] in
                guard let self else { return }
                self.delegate?.locationManager(
                    self, monitoringDidFailFor: region, withError: CLError(.regionMonitoringFailure))
            }
            return
        }
        services.startMonitoring(circle, by: self)
        let identifier = circle.identifier
        host.schedule(at: host.now) { [weak self] in
            guard let self, let monitored = self.services?.region(identifier) else { return }
            self.delegate?.locationManager(self, didStartMonitoringFor: monitored)
        }
    }

    /// Stops monitoring the region with `region`'s identifier.
    open func stopMonitoring(for region: CLRegion) { services?.stopMonitoring(region.identifier) }

    /// Answers `didDetermineState` at the same instant from the last delivered location:
    /// inside or outside a circular region, unknown with no location yet or for another kind
    /// of region.
    open func requestState(for region: CLRegion) {
        guard let host else { return }
        host.schedule(at: host.now) { [weak self] in
            guard let self else { return }
            var state = CLRegionState.unknown
            if let circle = region as? CLCircularRegion, let location = self.location {
                state = circle.contains(location.coordinate) ? .inside : .outside
            }
            self.delegate?.locationManager(self, didDetermineState: state, for: region)
        }
    }

    // MARK: - Heading and beacons (inert)

    /// The latest heading: always `nil` (no compass).
    open var heading: CLHeading? { nil }
    /// Does nothing: there is no compass.
    open func startUpdatingHeading() {}
    /// Does nothing.
    open func stopUpdatingHeading() {}
    /// Does nothing.
    open func dismissHeadingCalibrationDisplay() {}
    /// Regions being ranged: always empty.
    open var rangedRegions: Set<CLRegion> { [] }
    /// Constraints being ranged: always empty.
    open var rangedBeaconConstraints: Set<CLBeaconIdentityConstraint> { [] }
    /// Does nothing: no beacons are simulated.
    open func startRangingBeacons(satisfying constraint: CLBeaconIdentityConstraint) {}
    /// Does nothing.
    open func stopRangingBeacons(satisfying constraint: CLBeaconIdentityConstraint) {}
    /// Does nothing (deprecated form).
    open func startRangingBeacons(in region: CLBeaconRegion) {}
    /// Does nothing (deprecated form).
    open func stopRangingBeacons(in region: CLBeaconRegion) {}
    /// Does nothing: deferred updates are not modelled.
    open func allowDeferredLocationUpdates(untilTraveled distance: CLLocationDistance, timeout: TimeInterval) {}
    /// Does nothing.
    open func disallowDeferredLocationUpdates() {}

    // MARK: - Unhandled callbacks and dead managers

    /// The phone, for a call that asks it for something. A manager that has none while a run is
    /// on (made outside any run, by another run, as a `static` or a singleton that outlives its
    /// run is, or by an earlier process of the app) notes in the run's diagnostics that `call`
    /// did nothing: app objects belong in the `makeApp` closure, made fresh for every run.
    private func acting(_ call: String) -> SimulationHost? {
        if let host { return host }
        guard let current = SimulationHost.current else { return nil }
        let origin =
            boundHost === current
            ? "made by an earlier process of the app"
            : boundHost == nil
                ? "made outside any run" : "made by another run (a static or a singleton outlives the run that made it)"
        current.diagnostics.note(
            "\(call) was called on a CLLocationManager \(origin), which does nothing", at: current.now)
        return nil
    }

    /// Records that `callback` reached `delegate`'s default handler (it has none of its own).
    func noteUnhandled(_ callback: String, by delegate: AnyObject) {
        if unhandledAuthorizationCallbacks != nil {
            unhandledAuthorizationCallbacks?.append(callback)
            return
        }
        host?.noteUnhandled(callback, delegate: type(of: delegate))
    }

    // MARK: - From the simulated phone (through `LocationServices`)

    /// Standard updates from `services`, the app's services this manager is registered with.
    func simulationDelivered(_ deliveries: [LocationDelivery], services: LocationServices) {
        guard wantsStandardUpdates, let last = deliveries.last else { return }
        // The array's buffer is kept for the next delivery (one per fix otherwise); an app that
        // keeps the array it was handed keeps its own copy, as arrays are values.
        var batch: [CLLocation] = []
        swap(&batch, &spareBatch)
        defer {
            // One location is the common case, and `removeLast` far cheaper than `removeAll`.
            if batch.count == 1 { batch.removeLast() } else { batch.removeAll(keepingCapacity: true) }
            swap(&batch, &spareBatch)
        }
        if isUpdatingLocation {
            for delivery in deliveries {
                let location = CLLocation(delivery.fix, deliveredAt: delivery.time)
                if distanceFilter > 0, let previous = lastDelivered, location.distance(from: previous) < distanceFilter
                {
                    continue
                }
                batch.append(location)
                lastDelivered = location
            }
        }
        if locationRequestTimeout != nil {
            // requestLocation: "Only one location fix is reported to the delegate, after which
            // location services are stopped."
            endLocationRequest()
            if batch.isEmpty { batch.append(CLLocation(last.fix, deliveredAt: last.time)) }
            services.stopUnusedServices()
        }
        guard let newest = batch.last else { return }
        services.lastLocation = newest
        delegate?.locationManager(self, didUpdateLocations: batch)
    }

    func simulationDelivered(significantChange location: CLLocation) {
        services?.lastLocation = location
        delegate?.locationManager(self, didUpdateLocations: [location])
    }

    func simulationCrossed(_ region: CLRegion, _ crossing: RegionCrossing) {
        guard let delegate else { return }
        switch crossing {
        case .enter:
            guard region.notifyOnEntry else { return }
            delegate.locationManager(self, didEnterRegion: region)
            delegate.locationManager(self, didDetermineState: .inside, for: region)
        case .exit:
            guard region.notifyOnExit else { return }
            delegate.locationManager(self, didExitRegion: region)
            delegate.locationManager(self, didDetermineState: .outside, for: region)
        }
    }

    func simulationMonitoringFailed(_ region: CLRegion?, _ error: CLError) {
        delegate?.locationManager(self, monitoringDidFailFor: region, withError: error)
    }

    func simulationVisited(_ visit: CLVisit) { delegate?.locationManager(self, didVisit: visit) }

    /// Both authorization callbacks, the current one first; a missing handler is recorded
    /// only when the delegate handles neither.
    func simulationAuthorizationChanged() {
        hasReportedAuthorization = true
        guard let delegate else { return }
        unhandledAuthorizationCallbacks = []
        delegate.locationManagerDidChangeAuthorization(self)
        delegate.locationManager(self, didChangeAuthorization: authorizationStatus)
        let unhandled = unhandledAuthorizationCallbacks ?? []
        unhandledAuthorizationCallbacks = nil
        if unhandled.count == 2 { for callback in unhandled { noteUnhandled(callback, by: delegate) } }
    }

    func simulationUpdatesFailed() {
        endLocationRequest()
        delegate?.locationManager(self, didFailWithError: CLError(.denied))
    }

    func simulationPaused() { delegate?.locationManagerDidPauseLocationUpdates(self) }
}
