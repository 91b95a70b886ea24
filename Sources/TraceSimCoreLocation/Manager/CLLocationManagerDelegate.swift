import Foundation

/// What a `CLLocationManager` tells the app. Models `CLLocationManagerDelegate`.
///
/// Apple's protocol has optional requirements, which need Objective-C; Swift on Linux has none.
/// Here every method is a requirement with a default implementation, so a delegate implements
/// only what it needs, as on iOS. Two consequences:
///
/// - A callback that reaches a delegate without a handler of its own runs the default, which
///   records it in the run's diagnostics ("locationManager(_:didVisit:) reached Tracker, which
///   has no handler for it"). That is how a handler compiled out by `#if os(iOS)` shows up, and
///   a handler declared only in a subclass of the conforming class: Swift finds protocol
///   methods on the class that states the conformance, so the subclass's method is never called.
///   The authorization pair is one exception: a delegate that handles either
///   `locationManagerDidChangeAuthorization(_:)` or the deprecated
///   `locationManager(_:didChangeAuthorization:)` is not reported for the other.
/// - Code that calls an optional requirement itself (`delegate?.locationManager?(manager, …)`,
///   as some test doubles do) does not compile: the methods are not optional. Call them
///   without the second `?`.
///
/// The requirements are `nonisolated`, as Apple's are in the Swift 6 SDK: the manager calls
/// them on the replay's thread, so a `@MainActor` delegate implements them `nonisolated`.
/// Heading and beacon callbacks are declared for source compatibility and never called.
public protocol CLLocationManagerDelegate: NSObjectProtocol {
    /// New locations, oldest first, each with its own timestamp.
    nonisolated func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation])
    /// Locations could not be delivered: `CLError.denied` when updates could not start,
    /// `CLError.locationUnknown` when `requestLocation()` got nothing in time.
    nonisolated func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error)
    /// The manager was created, or the app's authorization or accuracy changed.
    nonisolated func locationManagerDidChangeAuthorization(_ manager: CLLocationManager)
    /// The deprecated form of `locationManagerDidChangeAuthorization(_:)`, called after it.
    @available(iOS, deprecated: 14.0, message: "Use locationManagerDidChangeAuthorization(_:)")
    @available(macOS, deprecated: 11.0, message: "Use locationManagerDidChangeAuthorization(_:)")
    nonisolated func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus)
    /// Updates paused automatically (`pausesLocationUpdatesAutomatically`).
    nonisolated func locationManagerDidPauseLocationUpdates(_ manager: CLLocationManager)
    /// Paused updates resumed. The simulated phone does not resume paused updates on its own,
    /// so this is never called.
    nonisolated func locationManagerDidResumeLocationUpdates(_ manager: CLLocationManager)
    /// The device entered a monitored region.
    nonisolated func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion)
    /// The device left a monitored region.
    nonisolated func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion)
    /// A region's state: after `requestState(for:)` and after each crossing.
    nonisolated func locationManager(
        _ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion)
    /// A region could not be monitored.
    nonisolated func locationManager(
        _ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error)
    /// A region's monitoring started.
    nonisolated func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion)
    /// A visit began or ended.
    nonisolated func locationManager(_ manager: CLLocationManager, didVisit visit: CLVisit)
    /// Deferred updates ended (deprecated; never called).
    nonisolated func locationManager(
        _ manager: CLLocationManager, didFinishDeferredUpdatesWithError error: (any Error)?)
    /// A new heading (never called: no compass).
    nonisolated func locationManager(_ manager: CLLocationManager, didUpdateHeading newHeading: CLHeading)
    /// Whether to show the compass calibration (never asked).
    nonisolated func locationManagerShouldDisplayHeadingCalibration(_ manager: CLLocationManager) -> Bool
    /// Beacons ranged (never called: no beacons).
    nonisolated func locationManager(
        _ manager: CLLocationManager, didRange beacons: [CLBeacon],
        satisfying beaconConstraint: CLBeaconIdentityConstraint)
    /// Ranging failed (never called).
    nonisolated func locationManager(
        _ manager: CLLocationManager, didFailRangingFor beaconConstraint: CLBeaconIdentityConstraint,
        error: any Error)
    /// Beacons ranged, the deprecated form (never called).
    nonisolated func locationManager(
        _ manager: CLLocationManager, didRangeBeacons beacons: [CLBeacon], in region: CLBeaconRegion)
    /// Ranging failed, the deprecated form (never called).
    nonisolated func locationManager(
        _ manager: CLLocationManager, rangingBeaconsDidFailFor region: CLBeaconRegion, withError error: any Error)
}

extension CLLocationManagerDelegate {
    /// No handler: recorded in the run's diagnostics.
    public nonisolated func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        manager.noteUnhandled("locationManager(_:didUpdateLocations:)", by: self)
    }

    /// No handler: recorded in the run's diagnostics (Core Location itself raises an exception
    /// when it has an error to report and no handler).
    public nonisolated func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
        manager.noteUnhandled("locationManager(_:didFailWithError:)", by: self)
    }

    /// No handler: recorded unless the deprecated form is handled.
    public nonisolated func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        manager.noteUnhandled("locationManagerDidChangeAuthorization(_:)", by: self)
    }

    /// No handler: recorded unless `locationManagerDidChangeAuthorization(_:)` is handled.
    public nonisolated func locationManager(
        _ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus
    ) {
        manager.noteUnhandled("locationManager(_:didChangeAuthorization:)", by: self)
    }

    /// No handler: recorded in the run's diagnostics.
    public nonisolated func locationManagerDidPauseLocationUpdates(_ manager: CLLocationManager) {
        manager.noteUnhandled("locationManagerDidPauseLocationUpdates(_:)", by: self)
    }

    /// No handler: recorded in the run's diagnostics.
    public nonisolated func locationManagerDidResumeLocationUpdates(_ manager: CLLocationManager) {
        manager.noteUnhandled("locationManagerDidResumeLocationUpdates(_:)", by: self)
    }

    /// No handler: recorded in the run's diagnostics.
    public nonisolated func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {
        manager.noteUnhandled("locationManager(_:didEnterRegion:)", by: self)
    }

    /// No handler: recorded in the run's diagnostics.
    public nonisolated func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {
        manager.noteUnhandled("locationManager(_:didExitRegion:)", by: self)
    }

    /// No handler: recorded in the run's diagnostics.
    public nonisolated func locationManager(
        _ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion
    ) {
        manager.noteUnhandled("locationManager(_:didDetermineState:for:)", by: self)
    }

    /// No handler: recorded in the run's diagnostics.
    public nonisolated func locationManager(
        _ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error
    ) {
        manager.noteUnhandled("locationManager(_:monitoringDidFailFor:withError:)", by: self)
    }

    /// No handler: recorded in the run's diagnostics.
    public nonisolated func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion) {
        manager.noteUnhandled("locationManager(_:didStartMonitoringFor:)", by: self)
    }

    /// No handler: recorded in the run's diagnostics.
    public nonisolated func locationManager(_ manager: CLLocationManager, didVisit visit: CLVisit) {
        manager.noteUnhandled("locationManager(_:didVisit:)", by: self)
    }

    /// Never called.
    public nonisolated func locationManager(
        _ manager: CLLocationManager, didFinishDeferredUpdatesWithError error: (any Error)?
    ) {}

    /// Never called.
    public nonisolated func locationManager(_ manager: CLLocationManager, didUpdateHeading newHeading: CLHeading) {}

    /// Never asked; answers false, Core Location's answer for a delegate without the method.
    public nonisolated func locationManagerShouldDisplayHeadingCalibration(_ manager: CLLocationManager) -> Bool {
        false
    }

    /// Never called.
    public nonisolated func locationManager(
        _ manager: CLLocationManager, didRange beacons: [CLBeacon],
        satisfying beaconConstraint: CLBeaconIdentityConstraint
    ) {}

    /// Never called.
    public nonisolated func locationManager(
        _ manager: CLLocationManager, didFailRangingFor beaconConstraint: CLBeaconIdentityConstraint,
        error: any Error
    ) {}

    /// Never called.
    public nonisolated func locationManager(
        _ manager: CLLocationManager, didRangeBeacons beacons: [CLBeacon], in region: CLBeaconRegion
    ) {}

    /// Never called.
    public nonisolated func locationManager(
        _ manager: CLLocationManager, rangingBeaconsDidFailFor region: CLBeaconRegion, withError error: any Error
    ) {}
}
