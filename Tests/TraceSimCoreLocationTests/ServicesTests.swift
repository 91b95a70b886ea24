import Device
import Foundation
import SimulationCore
import Testing
import Traces
import TraceSimCoreLocation

/// Significant changes, visits and relaunches across an app's managers.
@Suite("Core Location services across managers and processes")
struct ServicesTests {
    @Test("a significant change reaches the managers monitoring them, not those only updating")
    func significantChangeGoesToItsMonitors() throws {
        let log = CallLog()
        let other = CallLog()
        let driver = ManagerTests.Box<Pair>()
        var app = AppDriver {
            let pair = Pair(parked: log, moving: other)
            driver.value = pair
            return pair
        }
        #expect(app.deviceRequests == [.startedSignificantChanges, .startedLocationUpdates(LocationUpdateOptions())])
        let fix = AppDriver.fix(at: app.now, northMeters: 500)
        app.significantChange(fix)
        #expect(log.locations.map(\.timestamp) == [Date(fix.timestamp)])
        #expect(other.batches.isEmpty)
        // `location` is the app's newest, whichever manager got it.
        #expect(driver.value?.moving.location?.timestamp == Date(fix.timestamp))
        // The distance filter (1 km) is for standard updates only: 500 m on, the next arrives.
        app.advance(seconds: 600)
        let next = AppDriver.fix(at: app.now, northMeters: 1000)
        app.significantChange(next)
        #expect(log.locations.map(\.timestamp) == [Date(fix.timestamp), Date(next.timestamp)])
    }

    @Test("a relaunch keeps significant changes and regions running; the new process's manager hears them")
    func relaunchKeepsLongLivedServices() throws {
        let logs = [CallLog(), CallLog()]
        let launches = ManagerTests.Box<Counter>()
        launches.value = Counter()
        var app = AppDriver {
            let counter = launches.value ?? Counter()
            counter.count += 1
            let pair = Pair(parked: logs[counter.count - 1], moving: CallLog())
            if counter.count == 1 {
                pair.parked.startMonitoring(
                    for: CLCircularRegion(
                        center: CLLocationCoordinate2D(latitude: 37.4, longitude: -122.08), radius: 300,
                        identifier: "home"))
            }
            return pair
        }
        let before = app.deviceRequests.count
        app.relaunch(.significantChange)
        let sent = app.deviceRequests.dropFirst(before)
        // The new process starts its services; nothing of the old one's is stopped.
        #expect(!sent.contains(.stoppedSignificantChanges))
        #expect(!sent.contains(.stoppedMonitoring(identifier: "home")))
        #expect(sent.contains(.startedSignificantChanges))
        let fix = AppDriver.fix(at: app.now, northMeters: 800)
        app.significantChange(fix)
        #expect(logs[0].batches.isEmpty)
        #expect(logs[1].locations.map(\.timestamp) == [Date(fix.timestamp)])
        app.crossRegion("home", .exit)
        #expect(logs[1].entries.suffix(2) == ["exit home", "state outside home"])
    }
}

final class Counter {
    var count = 0
}

/// One manager parked on significant changes (with a large distance filter it ignores), one
/// updating; both delegates are trackers of their own.
final class Pair: NSObject {
    let parked = CLLocationManager()
    let moving = CLLocationManager()
    private let parkedDelegate: Tracker
    private let movingDelegate: Tracker

    init(parked log: CallLog, moving other: CallLog) {
        parkedDelegate = Tracker(log: log, start: false)
        movingDelegate = Tracker(log: other, start: false)
        super.init()
        parked.delegate = parkedDelegate
        parked.distanceFilter = 1000
        parked.startMonitoringSignificantLocationChanges()
        moving.delegate = movingDelegate
        moving.startUpdatingLocation()
    }
}
