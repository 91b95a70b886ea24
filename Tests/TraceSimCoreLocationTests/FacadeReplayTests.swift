import Device
import Foundation
import Geometry
import Scenarios
import SimulationCore
import Testing
import Traces
import TraceSimCoreLocation

/// A delegate app replayed through the presets on the bundled drive: what reaches its
/// `CLLocationManagerDelegate` is exactly what the simulated phone delivers.
@Suite("Core Location facade on a real drive")
struct FacadeReplayTests {
    private func run(_ name: String, _ make: @escaping @Sendable () -> AnyObject) throws -> ScenarioRun {
        try ScenarioRunner.run(Drive.trace, Drive.scenario(name), engine: .app(make))
    }

    @Test("always-precise: every fix the phone delivers arrives in didUpdateLocations, one call each, at its time")
    func alwaysPreciseDeliversEverything() throws {
        let log = CallLog()
        let run = try run("always-precise") { Tracker(log: log) }
        #expect(log.batches.count == 1654)
        #expect(log.batches.allSatisfy { $0.count == 1 })
        #expect(log.locations.count == run.deliveryTimes.count)
        #expect(log.locations.map(\.timestamp) == Drive.trace.fixes.map { Date($0.timestamp) })
        // Measured on what the app received (it keeps no record of its own).
        #expect(run.recorder.deliveredFixCount == 1654)
        #expect(run.diagnostics.isEmpty)
    }

    @Test("wheninuse-locked: locked at 60 s, nothing reaches the delegate after the 70 s cutoff")
    func wheninuseLockedCutoff() throws {
        let log = CallLog()
        let run = try run("wheninuse-locked") { Tracker(log: log, background: false) }
        #expect(log.batches.count == 130)
        let last = try #require(log.locations.last)
        #expect(Drive.seconds(last.timestamp) == 129)
        #expect(log.locations.count == run.deliveryTimes.count)
    }

    @Test("distanceFilter: each delivered location is at least the filter's distance from the previous one")
    func distanceFilterThins() throws {
        let log = CallLog()
        _ = try run("always-precise") { Tracker(log: log, distanceFilter: 100) }
        let locations = log.locations
        #expect(locations.count == 68)
        #expect(locations.first?.timestamp == Date(Drive.start))
        for (previous, next) in zip(locations, locations.dropFirst()) {
            #expect(next.distance(from: previous) >= 100)
        }
    }

    @Test("the authorization callbacks come at creation, the current one before the deprecated one")
    func authorizationAtCreation() throws {
        let log = CallLog()
        _ = try run("wheninuse-locked") { Tracker(log: log, background: false) }
        #expect(
            log.entries == [
                "didChangeAuthorization authorizedWhenInUse", "deprecated didChangeAuthorization authorizedWhenInUse",
            ])
    }

    @Test("a circular region on the route: start, enter with state inside, exit with state outside")
    func regionOnTheRoute() throws {
        let log = CallLog()
        let run = try run("always-precise") {
            let tracker = Tracker(log: log)
            let center = CLLocationCoordinate2D(latitude: 37.424814, longitude: -122.072330)
            tracker.manager.startMonitoring(for: CLCircularRegion(center: center, radius: 600, identifier: "stop"))
            return tracker
        }
        #expect(
            log.entries.filter { !$0.contains("uthorization") } == [
                "start stop", "enter stop", "state inside stop", "exit stop",
                "state outside stop",
            ])
        #expect(run.diagnostics.isEmpty)
    }

    @Test("with approximate location a region fails with regionMonitoringDenied and never starts")
    func regionDeniedWhenApproximate() throws {
        let log = CallLog()
        _ = try run("always-approximate") {
            let tracker = Tracker(log: log)
            tracker.manager.startMonitoring(
                for: CLCircularRegion(
                    center: CLLocationCoordinate2D(latitude: 37.4, longitude: -122), radius: 150,
                    identifier: "home"))
            return tracker
        }
        #expect(log.entries.filter { !$0.contains("uthorization") } == ["monitoring failed home \(CLError(.regionMonitoringDenied))"])
    }

    @Test("denied: starting updates fails with CLError.denied")
    func deniedFails() throws {
        let log = CallLog()
        _ = try run("denied") { Tracker(log: log) }
        #expect(log.errors.map(\.code) == [.denied])
        #expect(log.batches.isEmpty)
    }

    @Test("callbacks without a handler are in the run's diagnostics, with their count")
    func unhandledCallbacks() throws {
        let run = try run("always-precise") { Minimal() }
        #expect(
            run.diagnostics.map(\.message) == [
                "locationManagerDidChangeAuthorization(_:) reached Minimal, which has no handler for it",
                "locationManager(_:didChangeAuthorization:) reached Minimal, which has no handler for it",
            ])
        #expect(run.diagnostics.map(\.count) == [1, 1])
        #expect(run.diagnostics.first?.firstTime == Drive.start)
    }

    @Test("a handler declared only in a subclass is never called and shows in the diagnostics")
    func subclassOnlyHandler() throws {
        let log = CallLog()
        let run = try run("always-precise") { SubclassTracker(log: log) }
        #expect(log.batches.isEmpty)
        let message = "locationManager(_:didUpdateLocations:) reached SubclassTracker, which has no handler for it"
        let diagnostic = try #require(run.diagnostics.first { $0.message == message })
        #expect(diagnostic.count == 1654)
    }

    @Test("the same app twice gives the same calls, in the same order")
    func deterministic() throws {
        func once() throws -> [String] {
            let log = CallLog()
            _ = try run("always-precise") { Tracker(log: log, distanceFilter: 50) }
            return log.entries + log.locations.map(\.description)
        }
        #expect(try once() == once())
    }
}

/// A delegate that handles nothing but updates it never asks for.
final class Minimal: NSObject, CLLocationManagerDelegate {
    let manager = CLLocationManager()

    override init() {
        super.init()
        manager.delegate = self
    }
}

/// The pitfall: the conformance is on the base class, the handler only in the subclass.
class BaseTracker: NSObject, CLLocationManagerDelegate {
    let manager = CLLocationManager()

    override init() {
        super.init()
        manager.delegate = self
        manager.allowsBackgroundLocationUpdates = true
        manager.startUpdatingLocation()
    }

    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {}
}

final class SubclassTracker: BaseTracker {
    let log: CallLog

    init(log: CallLog) {
        self.log = log
        super.init()
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        log.batches.append(locations)
    }
}
