import Device
import SimulationCore
import Traces

/// An object of the facade that hears from the simulated phone: a `CLLocationManager`, a
/// `CMMotionActivityManager`, a live-updates sequence. `CoreLocationApp` calls every observer
/// the host holds, in the order they registered; each decides what its own API delivers (a
/// manager that is not updating ignores locations). Every method does nothing unless
/// implemented.
package protocol SimulationObserver: AnyObject {
    /// `didUpdateLocations`: standard updates, oldest first, each with its delivery instant.
    func simulationDidUpdateLocations(_ deliveries: [LocationDelivery])
    /// A location from significant-change monitoring.
    func simulationDidReceiveSignificantChange(_ fix: Fix)
    /// A motion activity update.
    func simulationDidUpdateMotionActivity(_ sample: MotionSample)
    /// `didEnterRegion` / `didExitRegion`.
    func simulationDidCrossRegion(_ identifier: String, _ crossing: RegionCrossing)
    /// `monitoringDidFailFor:withError:`.
    func simulationMonitoringDidFail(forRegion identifier: String, _ rule: DeviceRule)
    /// `didVisit`.
    func simulationDidVisit(_ visit: VisitEvent)
    /// `locationManagerDidChangeAuthorization`: the host already holds the new values.
    func simulationDidChangeAuthorization()
    /// Core Motion's authorization changed: the host already holds the new value.
    func simulationDidChangeMotionAuthorization()
    /// The temporary full-accuracy request's completion.
    func simulationDidCompleteTemporaryFullAccuracyRequest(granted: Bool)
    /// `didFailWithError`: starting location updates failed, for `rule`.
    func simulationDidFailLocationUpdates(_ rule: DeviceRule)
    /// `locationManagerDidPauseLocationUpdates`.
    func simulationDidPauseLocationUpdates()
    /// The trace ended.
    func simulationDidFinish()
}

extension SimulationObserver {
    package func simulationDidUpdateLocations(_ deliveries: [LocationDelivery]) {}
    package func simulationDidReceiveSignificantChange(_ fix: Fix) {}
    package func simulationDidUpdateMotionActivity(_ sample: MotionSample) {}
    package func simulationDidCrossRegion(_ identifier: String, _ crossing: RegionCrossing) {}
    package func simulationMonitoringDidFail(forRegion identifier: String, _ rule: DeviceRule) {}
    package func simulationDidVisit(_ visit: VisitEvent) {}
    package func simulationDidChangeAuthorization() {}
    package func simulationDidChangeMotionAuthorization() {}
    package func simulationDidCompleteTemporaryFullAccuracyRequest(granted: Bool) {}
    package func simulationDidFailLocationUpdates(_ rule: DeviceRule) {}
    package func simulationDidPauseLocationUpdates() {}
    package func simulationDidFinish() {}
}
