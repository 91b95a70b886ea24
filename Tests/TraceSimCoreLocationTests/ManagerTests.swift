import Device
import Foundation
import SimulationCore
import Testing
import Traces
import TraceSimCoreLocation

/// One manager's behaviour, callback by callback, with the app driven by hand.
@Suite("CLLocationManager")
struct ManagerTests {
    /// The app object a test's `makeApp` made.
    final class Box<Value: AnyObject>: @unchecked Sendable {
        var value: Value?
    }

    @Test("an authorization change calls both callbacks, current first, with the new status")
    func authorizationChange() throws {
        let log = CallLog()
        var driver = AppDriver(status: .notDetermined) { Tracker(log: log) }
        #expect(
            log.entries == [
                "didChangeAuthorization notDetermined", "deprecated didChangeAuthorization notDetermined",
            ])
        driver.changeAuthorization(.authorizedWhenInUse)
        #expect(
            log.entries.suffix(2) == [
                "didChangeAuthorization authorizedWhenInUse", "deprecated didChangeAuthorization authorizedWhenInUse",
            ])
        #expect(driver.app.diagnostics.isEmpty)
    }

    @Test("a manager created later hears its authorization once, after the code that made it returns")
    func laterManagerAuthorization() throws {
        let log = CallLog()
        let box = Box<Tracker>()
        var driver = AppDriver {
            let holder = LateHolder()
            holder.onFirstFix = { box.value = Tracker(log: log) }
            return holder
        }
        #expect(log.entries.isEmpty)
        driver.deliver([AppDriver.fix(at: driver.now, northMeters: 0)])
        #expect(box.value != nil)
        #expect(
            log.entries == [
                "didChangeAuthorization authorizedAlways", "deprecated didChangeAuthorization authorizedAlways",
            ])
        driver.advance(seconds: 1)
        #expect(log.entries.count == 2)
    }

    @Test("standard updates run while any manager wants them and stop with the last one")
    func servicesJoinAcrossManagers() throws {
        let box = Box<TwoManagers>()
        var driver = AppDriver {
            let app = TwoManagers()
            box.value = app
            return app
        }
        let options = LocationUpdateOptions()
        #expect(driver.deviceRequests == [.startedLocationUpdates(options), .startedLocationUpdates(options)])
        let app = try #require(box.value)
        app.first.stopUpdatingLocation()
        driver.flush()
        #expect(driver.deviceRequests.count == 2)
        app.second.stopUpdatingLocation()
        driver.flush()
        #expect(driver.deviceRequests.last == .stoppedLocationUpdates)
        #expect(driver.deviceRequests.count == 3)
    }

    @Test("a manager that is not kept alive stops its updates when it is deallocated")
    func deallocatedManagerStops() throws {
        let box = Box<Dropper>()
        var driver = AppDriver {
            let app = Dropper()
            box.value = app
            return app
        }
        #expect(driver.deviceRequests == [.startedLocationUpdates(LocationUpdateOptions())])
        box.value?.manager = nil
        driver.flush()
        #expect(driver.deviceRequests.last == .stoppedLocationUpdates)
    }

    @Test("requestLocation: one location, then the updates stop")
    func requestLocationDeliversOne() throws {
        let log = CallLog()
        var driver = AppDriver { OneShot(log: log) }
        #expect(driver.deviceRequests == [.startedLocationUpdates(LocationUpdateOptions())])
        let fixes = (0..<3).map { AppDriver.fix(at: driver.now.advanced(bySeconds: Double($0)), northMeters: Double($0)) }
        driver.deliver(fixes)
        #expect(log.batches.map { $0.map(\.timestamp) } == [[Date(fixes[2].timestamp)]])
        #expect(driver.deviceRequests.last == .stoppedLocationUpdates)
        driver.deliver([AppDriver.fix(at: driver.now, northMeters: 10)])
        #expect(log.batches.count == 1)
        driver.advance(seconds: 20)
        #expect(log.errors.isEmpty)
    }

    @Test("requestLocation: nothing within 10 s fails with CLError.locationUnknown and stops")
    func requestLocationTimesOut() throws {
        let log = CallLog()
        var driver = AppDriver { OneShot(log: log) }
        driver.advance(seconds: 9.999)
        #expect(log.errors.isEmpty)
        driver.advance(seconds: 0.001)
        #expect(log.errors.map(\.code) == [.locationUnknown])
        #expect(driver.deviceRequests.last == .stoppedLocationUpdates)
    }

    @Test("a failed start reaches didFailWithError as CLError.denied")
    func failureIsDenied() throws {
        let log = CallLog()
        var driver = AppDriver(status: .denied) { Tracker(log: log) }
        driver.failUpdates()
        #expect(log.errors.map(\.code) == [.denied])
        #expect(log.errors.first?.errorCode == 1)
        #expect(CLError.errorDomain == "kCLErrorDomain")
        let error: any Error = CLError(.denied)
        switch error {
        case CLError.denied: break
        default: Issue.record("CLError.denied did not match")
        }
    }

    @Test("temporary full accuracy: the completion gets nil when granted, promptDeclined when not")
    func temporaryFullAccuracy() throws {
        let box = Box<Tracker>()
        let results = CallLog()
        var driver = AppDriver(accuracy: .reducedAccuracy) {
            let tracker = Tracker(log: results)
            box.value = tracker
            return tracker
        }
        let manager = try #require(box.value?.manager)
        manager.requestTemporaryFullAccuracyAuthorization(withPurposeKey: "Navigation") { error in
            results.entries.append("first \(error.map { "\($0)" } ?? "nil")")
        }
        manager.requestTemporaryFullAccuracyAuthorization(withPurposeKey: "Navigation") { error in
            results.entries.append("second \((error as? CLError)?.code == .promptDeclined)")
        }
        driver.flush()
        #expect(driver.deviceRequests.suffix(2) == Array(repeating: .requestedTemporaryFullAccuracy(purpose: "Navigation"), count: 2))
        driver.completeTemporaryFullAccuracy(granted: true)
        driver.completeTemporaryFullAccuracy(granted: false)
        #expect(results.entries.suffix(2) == ["first nil", "second true"])
    }

    @Test("regions are the app's: a second manager sees them, and both delegates hear a crossing")
    func regionsAreShared() throws {
        let log = CallLog()
        let box = Box<TwoManagers>()
        var driver = AppDriver {
            let app = TwoManagers(log: log)
            box.value = app
            return app
        }
        let app = try #require(box.value)
        let region = CLCircularRegion(
            center: CLLocationCoordinate2D(latitude: 37.4, longitude: -122.08), radius: 300, identifier: "office")
        app.first.startMonitoring(for: region)
        driver.flush()
        #expect(app.second.monitoredRegions.map(\.identifier) == ["office"])
        #expect(app.second.monitoredRegions.first !== region)
        #expect(log.entries == ["first start office"])
        driver.crossRegion("office", .enter)
        #expect(
            log.entries.suffix(4) == [
                "first enter office", "first state inside office", "second enter office", "second state inside office",
            ])
        app.second.stopMonitoring(for: region)
        driver.flush()
        #expect(app.first.monitoredRegions.isEmpty)
        #expect(driver.deviceRequests.last == .stoppedMonitoring(identifier: "office"))
    }

    @Test("requestState answers from the last location: inside, outside, unknown before any")
    func requestState() throws {
        let log = CallLog()
        let box = Box<Tracker>()
        var driver = AppDriver {
            let tracker = Tracker(log: log)
            box.value = tracker
            return tracker
        }
        let manager = try #require(box.value?.manager)
        let region = CLCircularRegion(
            center: CLLocationCoordinate2D(latitude: 37.4, longitude: -122.08), radius: 100, identifier: "r")
        manager.requestState(for: region)
        driver.flush()
        driver.deliver([AppDriver.fix(at: driver.now, northMeters: 50)])
        manager.requestState(for: region)
        driver.flush()
        driver.deliver([AppDriver.fix(at: driver.now, northMeters: 150)])
        manager.requestState(for: region)
        driver.flush()
        #expect(log.entries.filter { $0.hasPrefix("state") } == ["state unknown r", "state inside r", "state outside r"])
    }

    @Test("a beacon region cannot be monitored: monitoringDidFailFor with regionMonitoringFailure, nothing sent")
    func beaconRegionFails() throws {
        let log = CallLog()
        let box = Box<Tracker>()
        var driver = AppDriver {
            let tracker = Tracker(log: log)
            box.value = tracker
            return tracker
        }
        let manager = try #require(box.value?.manager)
        let uuid = try #require(UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"))
        manager.startMonitoring(for: CLBeaconRegion(uuid: uuid, major: 1, identifier: "door"))
        driver.flush()
        #expect(log.entries.last == "monitoring failed door \(CLError(.regionMonitoringFailure))")
        #expect(!driver.deviceRequests.contains { if case .startedMonitoring = $0 { true } else { false } })
        #expect(manager.monitoredRegions.isEmpty)
    }

    @Test("an automatic pause reaches the updating manager's delegate; restarting sends a new start")
    func pauseAndRestart() throws {
        let box = Box<PauseWatcher>()
        var driver = AppDriver {
            let watcher = PauseWatcher()
            box.value = watcher
            return watcher
        }
        let paused = try #require(box.value)
        driver.pause()
        #expect(paused.pauses == 1)
        paused.manager.startUpdatingLocation()
        driver.flush()
        #expect(driver.deviceRequests == Array(repeating: .startedLocationUpdates(LocationUpdateOptions()), count: 2))
    }

    @Test("a manager made outside the run, or by another run, does nothing and says so in the diagnostics")
    func foreignManagerIsNoted() throws {
        let outside = CLLocationManager()
        let first = Box<CLLocationManager>()
        _ = AppDriver {
            let manager = CLLocationManager()
            first.value = manager
            return manager
        }
        var second = AppDriver {
            outside.startUpdatingLocation()
            first.value?.startUpdatingLocation()
            first.value?.requestAlwaysAuthorization()
            return NSObject()
        }
        second.flush()
        #expect(second.deviceRequests.isEmpty)
        #expect(
            second.app.diagnostics.map(\.message) == [
                "startUpdatingLocation() was called on a CLLocationManager made outside any run, which does nothing",
                "startUpdatingLocation() was called on a CLLocationManager made by another run (a static or a "
                    + "singleton outlives the run that made it), which does nothing",
                "requestAlwaysAuthorization() was called on a CLLocationManager made by another run (a static or a "
                    + "singleton outlives the run that made it), which does nothing",
            ])
    }

    @Test("outside a run a manager is inert: settings stick, nothing is delivered, not determined")
    func inertOutsideARun() {
        let log = CallLog()
        let tracker = Tracker(log: log, distanceFilter: 25)
        #expect(tracker.manager.distanceFilter == 25)
        tracker.manager.desiredAccuracy = kCLLocationAccuracyHundredMeters
        #expect(tracker.manager.desiredAccuracy == 100)
        #expect(tracker.manager.authorizationStatus == .notDetermined)
        #expect(CLLocationManager.authorizationStatus() == .notDetermined)
        #expect(tracker.manager.location == nil)
        tracker.manager.requestLocation()
        tracker.manager.startMonitoring(for: CLCircularRegion(center: .init(), radius: 1, identifier: "x"))
        #expect(tracker.manager.monitoredRegions.isEmpty)
        #expect(log.entries.isEmpty && log.batches.isEmpty)
        #expect(CLLocationManager.isMonitoringAvailable(for: CLCircularRegion.self))
        #expect(!CLLocationManager.isMonitoringAvailable(for: CLBeaconRegion.self))
        #expect(!CLLocationManager.headingAvailable())
    }
}

/// Makes its tracker on the first location it hears of, from inside a callback.
final class LateHolder: NSObject, CLLocationManagerDelegate {
    let probe = CLLocationManager()
    var onFirstFix: (() -> Void)?

    override init() {
        super.init()
        probe.delegate = self
        probe.allowsBackgroundLocationUpdates = true
        probe.startUpdatingLocation()
    }

    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {}

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        onFirstFix?()
        onFirstFix = nil
    }
}

/// Two managers, each its own delegate's, both updating.
final class TwoManagers: NSObject {
    let first = CLLocationManager()
    let second = CLLocationManager()
    private let delegates: [Named]

    init(log: CallLog = CallLog()) {
        delegates = [Named("first", log), Named("second", log)]
        super.init()
        first.delegate = delegates[0]
        second.delegate = delegates[1]
        first.startUpdatingLocation()
        second.startUpdatingLocation()
    }

    final class Named: NSObject, CLLocationManagerDelegate {
        let name: String
        let log: CallLog

        init(_ name: String, _ log: CallLog) {
            self.name = name
            self.log = log
        }

        func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {}
        func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {}
        func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion) {
            log.entries.append("\(name) start \(region.identifier)")
        }
        func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {
            log.entries.append("\(name) enter \(region.identifier)")
        }
        func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion) {
            log.entries.append("\(name) state \(state) \(region.identifier)")
        }
    }
}

/// Starts updates on a manager it may drop.
final class Dropper: NSObject, CLLocationManagerDelegate {
    var manager: CLLocationManager? = CLLocationManager()

    override init() {
        super.init()
        manager?.delegate = self
        manager?.startUpdatingLocation()
    }

    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {}
}

/// Asks for one location at launch.
final class OneShot: NSObject, CLLocationManagerDelegate {
    let manager = CLLocationManager()
    let log: CallLog

    init(log: CallLog) {
        self.log = log
        super.init()
        manager.delegate = self
        manager.requestLocation()
    }

    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {}

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        log.batches.append(locations)
    }

    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
        if let error = error as? CLError { log.errors.append(error) }
    }
}

/// Counts pauses.
final class PauseWatcher: NSObject, CLLocationManagerDelegate {
    let manager = CLLocationManager()
    var pauses = 0

    override init() {
        super.init()
        manager.delegate = self
        manager.startUpdatingLocation()
    }

    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {}

    func locationManagerDidPauseLocationUpdates(_ manager: CLLocationManager) { pauses += 1 }
}

/// Compiles as with Apple's Swift 6 SDK: a `@MainActor` delegate implements the requirements
/// `nonisolated` and hops to the main actor itself.
@MainActor
final class MainActorDelegate: NSObject, CLLocationManagerDelegate {
    private(set) var received = 0

    nonisolated func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        let count = locations.count
        Task { @MainActor in self.received += count }
    }
}
