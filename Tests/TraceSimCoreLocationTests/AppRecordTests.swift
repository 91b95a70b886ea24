import Device
import Engine
import Foundation
import Scenarios
import SimulationCore
import Testing
import Traces
import TraceSimCoreLocation

/// Issue 30 §6 and §9: one record across relaunches, and `AppRecord`, the recording helper an
/// app uses instead of a store of its own.
@Suite("The app's record across relaunches, and AppRecord")
struct AppRecordTests {
    @Test("an app object that records, relaunched by a significant change, keeps one record of both launches")
    func recordingAppAcrossRelaunch() {
        let launches = Counter()
        var app = AppDriver {
            launches.count += 1
            return KeepingTracker(record: nil)
        }
        let first = (0..<3).map { AppDriver.fix(at: app.now.advanced(bySeconds: Double($0)), northMeters: Double($0) * 30) }
        app.deliver(first)
        app.advance(seconds: 600)
        app.relaunch(.significantChange)
        let later = AppDriver.fix(at: app.now, northMeters: 1000)
        app.significantChange(later)
        #expect(launches.count == 2)
        let record = app.app.recorder
        #expect(record.recordedTimes == first.map(\.timestamp) + [later.timestamp])
        #expect(record.deliveredFixCount == 4)
        // The gap across the relaunch is one gap, from the first launch's last fix.
        #expect(record.gaps.map(\.from) == [first[2].timestamp])
        // 60 m in the first launch, 940 m from its last fix to the relaunch's.
        #expect(abs(app.app.odometerMeters - 1000) < 0.5, "\(app.app.odometerMeters)")
        // A trip started again by the relaunched process is the trip going on.
        #expect(record.motionTransitions.map(\.state) == [.moving])
    }

    @Test("an app keeping to an AppRecord given as the recording keeps one record over a relaunch")
    func appRecordAcrossRelaunch() {
        let record = AppRecord()
        var app = AppDriver(recording: record) { KeepingTracker(record: record) }
        let first = AppDriver.fix(at: app.now, northMeters: 0)
        app.deliver([first])
        app.advance(seconds: 60)
        app.relaunch(.regionEvent)
        let later = AppDriver.fix(at: app.now, northMeters: 100)
        app.significantChange(later)
        #expect(app.app.recorder.recordedTimes == [first.timestamp, later.timestamp])
        #expect(record.recorder.motionTransitions.map(\.state) == [.moving])
        #expect(abs(app.app.odometerMeters - 100) < 0.5)
    }

    @Test("AppRecord: an end before any start changes nothing; repeats are one transition each way")
    func motionChanges() {
        let record = AppRecord()
        let date = Date(timeIntervalSince1970: 1_600_000_000)
        record.motionChanged(isMoving: false, at: date)
        record.motionChanged(isMoving: true, at: date.addingTimeInterval(1))
        record.motionChanged(isMoving: true, at: date.addingTimeInterval(2))
        record.motionChanged(isMoving: false, at: date.addingTimeInterval(3))
        #expect(record.recorder.motionTransitions.map(\.state) == [.moving, .stationary])
        #expect(
            record.recorder.motionTransitions.map(\.time)
                == [1, 3].map {
                    SimInstant(nanosecondsSinceEpoch: (1_600_000_000 + $0) * 1_000_000_000)
                })
    }

    @Test("on the drive, an app keeping to AppRecord is measured exactly as one keeping to its own store")
    func sameAsOwnStore() throws {
        for preset in ["always-precise", "always-force-quit", "wheninuse-locked"] {
            let scenario = Drive.scenario(preset)
            let withRecord = try ScenarioRunner.run(
                Drive.trace, scenario,
                engine: .custom(named: "record") { context in
                    let record = AppRecord(expectedFixCount: context.expectedFixCount)
                    return CoreLocationApp(recording: record) { KeepingTracker(record: record) }
                })
            let withStore = try ScenarioRunner.run(
                Drive.trace, scenario,
                engine: .custom(named: "store") { context in
                    let store = OwnStore(expectedFixCount: context.expectedFixCount)
                    return CoreLocationApp(recording: store) { KeepingTracker(record: store) }
                })
            let (record, store) = (withRecord.recorder, withStore.recorder)
            #expect(record.recordedFixCount > 20, "\(preset)")
            #expect(record.recordedTimes == store.recordedTimes, "\(preset)")
            #expect(record.acceptedPositions == store.acceptedPositions, "\(preset)")
            #expect(record.deliveredFixCount == store.deliveredFixCount, "\(preset)")
            #expect(record.motionTransitions == store.motionTransitions, "\(preset)")
            #expect(record.gaps == store.gaps, "\(preset)")
            #expect(withRecord.odometerMeters == withStore.odometerMeters, "\(preset)")
            #expect(Metrics(withRecord, ideal: withStore) == Metrics(withStore, ideal: withStore), "\(preset)")
        }
    }
}

/// Where a `KeepingTracker` keeps what it keeps: an `AppRecord`, or a store of the app's own.
protocol TripKeeper: AnyObject {
    func keep(_ location: CLLocation)
    func motionChanged(isMoving: Bool, at date: Date)
}

extension AppRecord: TripKeeper {}

/// A tracker that keeps a location every 25 m, starts a trip at its first location, and keeps
/// to `record`, or, without one, records itself (adopting `RecordingApp`).
final class KeepingTracker: NSObject, CLLocationManagerDelegate, RecordingApp {
    let manager = CLLocationManager()
    private let keeper: TripKeeper
    private var lastKept: CLLocation?

    init(record: TripKeeper?) {
        keeper = record ?? OwnStore(expectedFixCount: 0)
        super.init()
        manager.delegate = self
        manager.allowsBackgroundLocationUpdates = true
        manager.startUpdatingLocation()
        manager.startMonitoringSignificantLocationChanges()
    }

    var recorder: Recorder { (keeper as? any RecordingApp)?.recorder ?? Recorder() }
    var odometerMeters: Double { (keeper as? any RecordingApp)?.odometerMeters ?? 0 }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        for location in locations {
            if lastKept == nil { keeper.motionChanged(isMoving: true, at: location.timestamp) }
            if let lastKept, location.distance(from: lastKept) < 25 { continue }
            keeper.keep(location)
            lastKept = location
        }
    }

    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {}
    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {}
}

/// The store the trip-tracker example kept before `AppRecord`: what an app wrote for itself.
final class OwnStore: TripKeeper, RecordingApp {
    private(set) var recorder: Recorder
    private(set) var odometerMeters = 0.0
    private var lastSaved: CLLocation?
    private var isOnTrip = false

    init(expectedFixCount: Int) { recorder = Recorder(expectedFixCount: expectedFixCount) }

    func keep(_ location: CLLocation) {
        let nanoseconds = Int64((location.timestamp.timeIntervalSince1970 * 1e9).rounded())
        recorder.fixDelivered()
        recorder.accepted(
            Fix(
                timestamp: SimInstant(nanosecondsSinceEpoch: nanoseconds), latitude: location.coordinate.latitude,
                longitude: location.coordinate.longitude,
                altitudeMeters: location.verticalAccuracy < 0 ? nil : location.altitude,
                horizontalAccuracy: location.horizontalAccuracy < 0 ? nil : .meters(location.horizontalAccuracy),
                verticalAccuracy: location.verticalAccuracy < 0 ? nil : .meters(location.verticalAccuracy)))
        recorder.recordedLastAccepted()
        if let lastSaved { odometerMeters += location.distance(from: lastSaved) }
        lastSaved = location
    }

    func motionChanged(isMoving: Bool, at date: Date) {
        guard isMoving != isOnTrip else { return }
        isOnTrip = isMoving
        recorder.motionChanged(
            to: isMoving ? .moving : .stationary,
            at: SimInstant(nanosecondsSinceEpoch: Int64((date.timeIntervalSince1970 * 1e9).rounded())))
    }
}
