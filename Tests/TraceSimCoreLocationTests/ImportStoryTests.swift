import Foundation
import Scenarios
import Testing
import TraceSimCoreLocation

// Where the shim re-exports Apple's framework (macOS without TRACESIM_FACADE) the tracker is
// built on Apple's classes, which no replay drives.
#if !canImport(CoreLocation) || TRACESIM_FACADE

    /// The tracker written against the shim replays like any app.
    @Suite("One-line import")
    struct ImportStoryTests {
        @Test("an iOS-style tracker, importing only the shim, records the drive under always-precise")
        func iosStyleTracker() throws {
            let box = ManagerTests.Box<LocationTracker>()
            let run = try ScenarioRunner.run(
                Drive.trace, Drive.scenario("always-precise"),
                engine: .custom(named: "tracker") { _ in
                    CoreLocationApp {
                        let tracker = LocationTracker()
                        box.value = tracker
                        return tracker
                    }
                })
            let tracker = try #require(box.value)
            // 623 since issue 30: the drive's one epoch without HDOP arrives with the assumed 10 m,
            // which the tracker's accuracy guard keeps.
            #expect(tracker.recorded.count == 623)
            // Always at launch; a visit's arrival and departure while parked; then fifteen times the
            // stationary region is left, updates restart and a new region is set where it stops
            // (five before issue 31, when a small region's exit needed 200 m past its radius, not 50 m).
            let exits = Array(repeating: ["left stationary", "outside stationary"], count: 15).flatMap { $0 }
            #expect(tracker.events == ["authorization 3", "arrived", "departed"] + exits)
            #expect(tracker.lastError == nil)
            #expect(run.diagnostics.map(\.message) == [])
        }
    }

#endif
