import Device
import Engine
import Foundation
import Scenarios
import SimulationCore
import TestSupport
import Traces
import TraceSimCoreLocation

/// The bundled u-blox drive (29 min, 8.6 km, Mountain View), as the scenario tests load it.
enum Drive {
    static let trace: Trace = {
        let path = Repository.trace("gps-measurement-tools/MTV.Local1.ublox-F9K.20200206-181434.nmea")
        do { return try TraceImporter.load(path: path) } catch { fatalError("bundled trace: \(error)") }
    }()

    static var start: SimInstant { trace.fixes[0].timestamp }

    static func scenario(_ name: String) -> Scenario {
        guard let scenario = Scenario.preset(named: name) else { fatalError("no preset \(name)") }
        return scenario
    }

    /// Seconds since the trace's first fix.
    static func seconds(_ date: Date) -> Double { date.timeIntervalSince1970 - Date(start).timeIntervalSince1970 }
}

/// What a test app's delegate heard, in order; outlives the app's objects (relaunches).
final class CallLog: @unchecked Sendable {
    var entries: [String] = []
    /// Every `didUpdateLocations` call's locations.
    var batches: [[CLLocation]] = []
    var errors: [CLError] = []

    var locations: [CLLocation] { batches.flatMap { $0 } }
}

/// A tracker written the usual way: one manager, its own delegate, standard updates at launch.
final class Tracker: NSObject, CLLocationManagerDelegate {
    let manager = CLLocationManager()
    let log: CallLog

    init(
        log: CallLog, background: Bool = true, distanceFilter: CLLocationDistance = kCLDistanceFilterNone,
        start: Bool = true
    ) {
        self.log = log
        super.init()
        manager.delegate = self
        manager.allowsBackgroundLocationUpdates = background
        manager.distanceFilter = distanceFilter
        if start { manager.startUpdatingLocation() }
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        log.batches.append(locations)
    }

    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
        if let error = error as? CLError { log.errors.append(error) }
        log.entries.append("didFailWithError \(error)")
    }

    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        log.entries.append("didChangeAuthorization \(manager.authorizationStatus)")
    }

    func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus) {
        log.entries.append("deprecated didChangeAuthorization \(status)")
    }

    func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {
        log.entries.append("enter \(region.identifier)")
    }

    func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {
        log.entries.append("exit \(region.identifier)")
    }

    func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion) {
        log.entries.append("start \(region.identifier)")
    }

    func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion) {
        log.entries.append("state \(state) \(region.identifier)")
    }

    func locationManager(_ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error) {
        log.entries.append("monitoring failed \(region?.identifier ?? "nil") \(error)")
    }
}

extension EngineUnderTest {
    /// A Core Location app made fresh for every run.
    static func app(_ make: @escaping @Sendable () -> AnyObject) -> EngineUnderTest {
        .custom(named: "facade") { _ in CoreLocationApp(makeApp: make) }
    }
}
