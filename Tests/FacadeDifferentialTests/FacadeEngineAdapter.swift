import Device
import Engine
import Foundation
import Geometry
import Scenarios
import SimulationCore
import TraceSimCoreLocation
import TraceSimCoreMotion
import Traces

/// The built-in `TrackingEngine`'s record of a run. It is the run's, not a process's: the
/// adapter is made again at every launch of the app, the engine once per run.
final class EngineRecord: RecordingApp {
    let engine: TrackingEngine

    init(_ engine: TrackingEngine) { self.engine = engine }

    var recorder: Recorder { engine.recorder }
    var odometerMeters: Double { engine.odometerMeters }
}

/// The built-in engine driven through the Core Location facade, as an app would host it: the
/// engine sees only what `CLLocationManager`'s delegate and `CMMotionActivityManager`'s
/// handler are told, and everything it asks for becomes a call on those objects. If the
/// facade delivers what the phone delivers, with the same fixes at the same instants, and
/// turns the calls into the same requests, a run prints what the built-in run prints.
///
/// Two managers, as apps that use both services often have: one for standard updates and
/// regions, one for significant changes, because both arrive in `didUpdateLocations` and the
/// engine treats them differently. Region and authorization callbacks reach every manager's
/// delegate; only the first one's are passed on.
///
/// What the facade cannot express is taken where an app would take it: Core Motion has no
/// authorization callback, so the status is read (`authorizationStatus()`) before each callback
/// is handled, which is as soon as anything the engine does can depend on it.
final class FacadeEngineAdapter: NSObject, CLLocationManagerDelegate {
    private let record: EngineRecord
    private let host: SimulationHost
    private let updates = CLLocationManager()
    private let significant = CLLocationManager()
    private let motion = CMMotionActivityManager()
    private var session: CLBackgroundActivitySession?
    private var requests: [LocationClientRequest<EngineTimer>] = []
    private var motionStatus: CMAuthorizationStatus

    private var engine: TrackingEngine { record.engine }

    /// The app's launch: the engine starts (or, after a relaunch, restores what it was doing).
    init(record: EngineRecord) {
        guard let host = SimulationHost.current else {
            preconditionFailure("FacadeEngineAdapter is made by a CoreLocationApp's launch")
        }
        self.record = record
        self.host = host
        motionStatus = CMMotionActivityManager.authorizationStatus()
        super.init()
        updates.delegate = self
        significant.delegate = self
        if let relaunch = host.relaunch {
            // What apps do at every launch: the service survived the process, and a relaunched
            // app hears from it again once it asks (Apple: startMonitoringSignificantLocationChanges()).
            significant.startMonitoringSignificantLocationChanges()
            engine.didLaunch(relaunch.reason, inBackground: relaunch.inBackground, at: host.now, into: &requests)
        } else {
            var launch = LocationClientLaunch(
                authorizationStatus: AuthorizationStatus(updates.authorizationStatus),
                accuracyAuthorization: updates.accuracyAuthorization == .fullAccuracy ? .fullAccuracy : .reducedAccuracy,
                motionAuthorizationStatus: MotionAuthorizationStatus(motionStatus),
                isMotionActivityAvailable: CMMotionActivityManager.isActivityAvailable())
            launch.isLocationServicesEnabled = CLLocationManager.locationServicesEnabled()
            engine.start(launch, at: host.now, into: &requests)
        }
        performRequests()
    }

    // MARK: - Requests become Core Location calls

    private func performRequests() {
        var index = 0
        while index < requests.count {
            let request = requests[index]
            index += 1
            switch request {
            case .device(let call): perform(call)
            case .schedule(let timer, let due):
                host.schedule(at: due) { [weak self] in
                    self?.handle { engine, now, requests in engine.timerFired(timer, at: now, into: &requests) }
                }
            }
        }
        requests.removeAll(keepingCapacity: true)
    }

    private func perform(_ call: AppRequest) {
        switch call {
        case .requestedWhenInUse: updates.requestWhenInUseAuthorization()
        case .requestedAlways: updates.requestAlwaysAuthorization()
        case .requestedTemporaryFullAccuracy(let purpose):
            updates.requestTemporaryFullAccuracyAuthorization(withPurposeKey: purpose)
        case .startedMotionUpdates:
            motion.startActivityUpdates(to: OperationQueue.main) { [weak self] activity in
                guard let activity else { return }
                self?.handle { engine, now, requests in
                    engine.didUpdateMotionActivity(MotionSample(activity), at: now, into: &requests)
                }
            }
        case .createdCentralManager:
            // Core Bluetooth is not part of the facade; the built-in engine never asks.
            break
        case .startedLocationUpdates(let options):
            updates.allowsBackgroundLocationUpdates = options.allowsBackgroundLocationUpdates
            updates.pausesLocationUpdatesAutomatically = options.pausesLocationUpdatesAutomatically
            updates.startUpdatingLocation()
        case .stoppedLocationUpdates: updates.stopUpdatingLocation()
        case .startedMonitoring(let region):
            updates.startMonitoring(
                for: CLCircularRegion(
                    center: CLLocationCoordinate2D(latitude: region.center.latitude, longitude: region.center.longitude),
                    radius: region.radiusMeters, identifier: region.identifier))
        case .stoppedMonitoring(let identifier):
            for region in updates.monitoredRegions where region.identifier == identifier {
                updates.stopMonitoring(for: region)
            }
        case .startedSignificantChanges: significant.startMonitoringSignificantLocationChanges()
        case .stoppedSignificantChanges: significant.stopMonitoringSignificantLocationChanges()
        case .startedVisitMonitoring: updates.startMonitoringVisits()
        case .stoppedVisitMonitoring: updates.stopMonitoringVisits()
        case .startedBackgroundSession: session = CLBackgroundActivitySession()
        case .endedBackgroundSession:
            session?.invalidate()
            session = nil
        }
    }

    /// Runs one engine callback at the virtual instant, after passing on a motion
    /// authorization change, and makes the calls it asked for.
    private func handle(
        _ body: (inout TrackingEngine, SimInstant, inout [LocationClientRequest<EngineTimer>]) -> Void
    ) {
        // A class: the copy is the record's engine. `inout` reaches the protocol's default
        // (mutating) handlers the engine does not override.
        var engine = record.engine
        let now = host.now
        let status = CMMotionActivityManager.authorizationStatus()
        if status != motionStatus {
            motionStatus = status
            engine.didChangeMotionAuthorization(MotionAuthorizationStatus(status), at: now, into: &requests)
        }
        body(&engine, now, &requests)
        performRequests()
    }

    // MARK: - Delegate callbacks become engine callbacks

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        if manager === significant {
            for location in locations {
                handle { engine, now, requests in
                    engine.didReceiveSignificantChange(location.fix, at: now, into: &requests)
                }
            }
        } else {
            let deliveries = locations.map { LocationDelivery(fix: $0.fix, time: $0.deliveredAt ?? host.now) }
            handle { engine, now, requests in engine.didUpdateLocations(deliveries, at: now, into: &requests) }
        }
    }

    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
        guard manager === updates else { return }
        // Core Location says only "denied"; the phone's rule is not visible to an app.
        handle { engine, now, requests in
            engine.didFailLocationUpdates(.noDeliveryWithoutAuthorization, at: now, into: &requests)
        }
    }

    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        guard manager === updates else { return }
        let status = AuthorizationStatus(manager.authorizationStatus)
        let accuracy: AccuracyAuthorization =
            manager.accuracyAuthorization == .fullAccuracy ? .fullAccuracy : .reducedAccuracy
        handle { engine, now, requests in engine.didChangeAuthorization(status, accuracy, at: now, into: &requests) }
    }

    func locationManagerDidPauseLocationUpdates(_ manager: CLLocationManager) {
        guard manager === updates else { return }
        handle { engine, now, requests in engine.didPauseLocationUpdates(at: now, into: &requests) }
    }

    func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {
        guard manager === updates else { return }
        handle { engine, now, requests in engine.didCrossRegion(region.identifier, .enter, at: now, into: &requests) }
    }

    func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {
        guard manager === updates else { return }
        handle { engine, now, requests in engine.didCrossRegion(region.identifier, .exit, at: now, into: &requests) }
    }

    func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion) {
        // Follows every crossing; the engine hears the crossing itself.
    }

    func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion) {}

    func locationManager(
        _ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error
    ) {
        guard manager === updates, let region else { return }
        // The error's code is all an app sees: denied stands for both refusals an app can cause.
        let rule: DeviceRule =
            (error as? CLError)?.code == .regionMonitoringDenied ? .regionRequiresAuthorization : .regionLimit
        handle { engine, now, requests in
            engine.monitoringDidFail(forRegion: region.identifier, rule, at: now, into: &requests)
        }
    }

    func locationManager(_ manager: CLLocationManager, didVisit visit: CLVisit) {
        guard manager === updates else { return }
        let departed = visit.departureDate != .distantFuture
        let event = VisitEvent(
            kind: departed ? .departure : .arrival,
            coordinate: Coordinate(latitude: visit.coordinate.latitude, longitude: visit.coordinate.longitude),
            arrival: SimInstant(visit.arrivalDate), departure: departed ? SimInstant(visit.departureDate) : nil)
        handle { engine, now, requests in engine.didVisit(event, at: now, into: &requests) }
    }
}

// MARK: - Core Location's values as the device's

extension AuthorizationStatus {
    init(_ status: CLAuthorizationStatus) {
        switch status {
        case .notDetermined: self = .notDetermined
        case .restricted: self = .restricted
        case .denied: self = .denied
        case .authorizedAlways: self = .authorizedAlways
        case .authorizedWhenInUse: self = .authorizedWhenInUse
        }
    }
}

extension MotionAuthorizationStatus {
    init(_ status: CMAuthorizationStatus) {
        switch status {
        case .notDetermined: self = .notDetermined
        case .restricted: self = .restricted
        case .denied: self = .denied
        case .authorized: self = .authorized
        }
    }
}

extension MotionSample {
    /// The sample an activity update reports. The engine reads its activities and confidence.
    init(_ activity: CMMotionActivity) {
        var activities: MotionActivity = []
        if activity.stationary { activities.insert(.stationary) }
        if activity.walking { activities.insert(.walking) }
        if activity.running { activities.insert(.running) }
        if activity.automotive { activities.insert(.automotive) }
        if activity.cycling { activities.insert(.cycling) }
        if activity.unknown { activities.insert(.unknown) }
        let confidence: MotionConfidence =
            switch activity.confidence {
            case .low: .low
            case .medium: .medium
            case .high: .high
            }
        self.init(timestamp: SimInstant(activity.startDate), activity: activities, confidence: confidence)
    }
}

extension SimInstant {
    /// A `Date`'s instant, to the nearest nanosecond.
    init(_ date: Date) {
        self.init(nanosecondsSinceEpoch: Int64((date.timeIntervalSince1970 * 1e9).rounded()))
    }
}
