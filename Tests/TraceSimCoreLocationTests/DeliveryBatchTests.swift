import Foundation
import SimulationCore
import Testing
import Traces
import TraceSimCoreLocation

/// A manager reuses one array buffer for the locations it hands its delegate (issue 32: one
/// allocation per fix was a large part of the facade's cost). Arrays are values: an app that
/// keeps what it was handed must keep exactly that, whatever the manager hands over later.
/// Fast tier.
@Suite("CLLocationManager delivery batches")
struct DeliveryBatchTests {
    @Test("every array the delegate kept still holds its own locations after later deliveries")
    func keptArraysKeepTheirLocations() throws {
        let log = CallLog()
        var driver = AppDriver { Tracker(log: log) }
        var expected: [[Date]] = []
        // Batches of one, three, one and two: the buffer grows, shrinks and is reused.
        for (step, size) in [1, 3, 1, 2, 1].enumerated() {
            driver.advance(seconds: 1)
            let fixes = (0..<size).map {
                AppDriver.fix(at: driver.now.advanced(bySeconds: Double($0) / 10), northMeters: Double(step * 10 + $0))
            }
            driver.deliver(fixes)
            expected.append(fixes.map { Date($0.timestamp) })
        }
        #expect(log.batches.map { $0.map(\.timestamp) } == expected)
        #expect(log.batches.map(\.count) == [1, 3, 1, 2, 1])
        // Each location is its own object, never one reused from an earlier batch.
        let identities = Set(log.locations.map(ObjectIdentifier.init))
        #expect(identities.count == 8)
    }

    @Test("a batch the distance filter thins hands over only the kept locations, and the next batch starts empty")
    func filteredBatchStartsEmpty() throws {
        let log = CallLog()
        let box = ManagerTests.Box<Tracker>()
        var driver = AppDriver {
            let tracker = Tracker(log: log, distanceFilter: 25)
            box.value = tracker
            return tracker
        }
        driver.advance(seconds: 1)
        driver.deliver([
            AppDriver.fix(at: driver.now, northMeters: 0), AppDriver.fix(at: driver.now, northMeters: 10),
            AppDriver.fix(at: driver.now, northMeters: 30),
        ])
        // 10 m from the first is under the filter: dropped.
        #expect(log.batches.map(\.count) == [2])
        driver.advance(seconds: 1)
        // Everything within 25 m of the last delivered: nothing is handed over at all.
        driver.deliver([AppDriver.fix(at: driver.now, northMeters: 40)])
        #expect(log.batches.count == 1)
        driver.advance(seconds: 1)
        driver.deliver([AppDriver.fix(at: driver.now, northMeters: 60)])
        #expect(log.batches.map(\.count) == [2, 1])
        #expect(box.value?.manager.location?.timestamp == Date(driver.now))
    }
}
