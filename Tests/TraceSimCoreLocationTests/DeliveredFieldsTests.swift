import Foundation
import Scenarios
import SimulationCore
import TestSupport
import Testing
import Traces
import TraceSimCoreLocation

/// An app with the guards app code puts on every location (a valid accuracy, some speed): it
/// counts what passes them.
final class GuardedTracker: NSObject, CLLocationManagerDelegate {
    let manager = CLLocationManager()
    let log: GuardLog

    init(log: GuardLog) {
        self.log = log
        super.init()
        manager.delegate = self
        manager.allowsBackgroundLocationUpdates = true
        manager.startUpdatingLocation()
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        for location in locations {
            log.received += 1
            if location.horizontalAccuracy < 0 { log.invalidAccuracy += 1 }
            if location.speed < 0 { log.invalidSpeed += 1 }
            if location.horizontalAccuracy >= 0 && location.speed > 0 { log.kept += 1 }
        }
    }
}

/// What a guarded app counted; outlives the app's objects.
final class GuardLog: @unchecked Sendable {
    var received = 0
    var kept = 0
    var invalidAccuracy = 0
    var invalidSpeed = 0
}

/// Issue 30 §2 on real files: no location reaches app code with an accuracy or speed that iOS
/// would not give, so the standard guards keep the drives that record neither.
@Suite("Core Location facade: delivered locations carry what the receiver would report")
struct DeliveredFieldsTests {
    static func run(_ trace: String) throws -> (GuardLog, ScenarioRun) {
        let loaded = try TraceImporter.load(path: Repository.trace(trace))
        let log = GuardLog()
        let scenario = try #require(Scenario.preset(named: "wheninuse-foreground"))
        let run = try ScenarioRunner.run(loaded, scenario, engine: .app { GuardedTracker(log: log) })
        return (log, run)
    }

    @Test("bike.tcx (speed, no accuracy): every location has an accuracy; the guards keep 1782 of 1812 (was 0)")
    func bikeKeptByStandardGuards() throws {
        let (log, run) = try Self.run("gpsbabel/bike.tcx")
        #expect(log.received == 1812)
        #expect(log.invalidAccuracy == 0)
        #expect(log.invalidSpeed == 0)
        // The 30 the watch recorded at 0 m/s fail `speed > 0`, as they would on a phone.
        #expect(log.kept == 1782)
        #expect(run.deliveries.derivedByDevice == [.horizontalAccuracy, .course])
    }

    @Test("google_ext.kml (no accuracy, no speed): the guards keep every location but the first")
    func kmlKeptByStandardGuards() throws {
        let (log, run) = try Self.run("gpsbabel/google_ext.kml")
        // 269 of 451: the facade keeps Core Location's automatic pause on, and the hike stops.
        #expect(log.received == 269)
        #expect(log.invalidAccuracy == 0)
        // Only the first fix: no earlier fix to derive a speed from.
        #expect(log.invalidSpeed == 1)
        #expect(log.kept == 268)
        #expect(run.deliveries.derivedByDevice == [.horizontalAccuracy, .speed, .course])
    }
}
