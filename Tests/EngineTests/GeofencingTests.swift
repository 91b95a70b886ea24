import Device
import Engine
import Geometry
import SimulationCore
import Testing
import Traces

@Suite("Geofencing: OS regions, hit-testing and the nearest-20 rotation")
struct GeofencingTests {
    @Test("1,000 fences along the MTV drive: never more than 20 OS regions, and fences along the whole route fire")
    func nearestTwentyRotation() throws {
        let trace = try EngineHarness.bundled("gps-measurement-tools/MTV.Local1.ublox-F9K.20200206-181434.nmea")
        #expect(trace.fixes.count == 1654)
        var fences: [Geofence] = []
        for index in 0..<1000 {
            let fix = trace.fixes[index * trace.fixes.count / 1000]
            fences.append(
                Geofence(
                    identifier: String(format: "f%04d", index),
                    shape: .circle(center: Coordinate(latitude: fix.latitude, longitude: fix.longitude), radiusMeters: 100)))
        }
        var configuration = EngineConfiguration()
        configuration.startsMoving = true
        let (engine, replay) = try EngineHarness.replay(trace, configuration: configuration, fences: fences)
        let failures = replay.deviceLog.filter {
            if case .regionMonitoringFailed = $0.action { return true }
            return false
        }
        #expect(failures.isEmpty, "the SDK must stay under the OS limit: \(failures.count) failures")
        #expect(replay.device.monitoredRegionIdentifiers.count <= 20)
        let osRegions = Set(replay.device.monitoredRegionIdentifiers).subtracting([TrackingEngine.stationaryRegionIdentifier])
        #expect(osRegions == Set(engine.registeredGeofenceIdentifiers))
        let entered = Set(engine.recorder.geofenceEvents.filter { $0.action == .enter }.map(\.identifier))
        // Without re-ranking only the first 20 could ever fire; with it, fences all along the route do.
        #expect(entered.count > 300, "\(entered.count) fences entered")
        #expect(entered.contains { $0 >= "f0900" }, "a fence in the last tenth of the route fired")
        // Fences sit about 15 m apart, so a fence leaves the nearest 19 long before the OS
        // (radius + 200 m cushion, 20 s) would report its exit: most exits are never seen.
        let exits = engine.recorder.geofenceEvents.filter { $0.action == .exit }.count
        #expect(exits < entered.count / 10, "\(exits) exits for \(entered.count) entries")
    }

    @Test("re-ranking picks the nearest fences within the proximity radius, ties by position")
    func rerankIsNearestWithinRadius() throws {
        var fences: [Geofence] = []
        for index in 0..<30 {
            let center = Geodesy.destination(
                from: EngineHarness.origin, bearingDegrees: 90, distanceMeters: Double(index) * 60 + 50)
            fences.append(Geofence(identifier: "c\(index)", shape: .circle(center: center, radiusMeters: 20)))
        }
        let manager = try GeofenceManager(fences: fences, context: GEOSContext())
        let first = manager.rerank(at: EngineHarness.origin, time: EngineHarness.time(0), reserve: 1)
        // Edges at 30 + 60 i metres: c0...c16 are within 1000 m, fewer than the 19 slots.
        #expect(Set(first.add.map(\.identifier)) == Set((0...16).map { "c\($0)" }))
        // Within the re-rank interval nothing changes, even after moving.
        let moved = Geodesy.destination(from: EngineHarness.origin, bearingDegrees: 90, distanceMeters: 1200)
        #expect(manager.rerank(at: moved, time: EngineHarness.time(30)).add.isEmpty)
        let second = manager.rerank(at: moved, time: EngineHarness.time(60), reserve: 1)
        let nearest = fences.indices
            .map { (distance: max(0, abs(Double($0) * 60 + 50 - 1200) - 20), index: $0) }
            .filter { $0.distance <= 1000 }
            .sorted { ($0.distance, $0.index) < ($1.distance, $1.index) }
            .prefix(19).map { "c\($0.index)" }
        #expect(Set(manager.registered.keys) == Set(nearest))
        #expect(Set(second.remove) == Set((0...9).map { "c\($0)" }))
        #expect(Set(second.add.map(\.identifier)) == Set(nearest).subtracting((0...16).map { "c\($0)" }))
    }

    @Test("a polygon registers its bounding circle; entry fires on the first fix inside the polygon, not the circle")
    func polygonHitTesting() throws {
        // A thin east-west strip: its bounding circle is far larger than the polygon.
        let west = Geodesy.destination(from: EngineHarness.origin, bearingDegrees: 0, distanceMeters: 1000)
        let strip = PolygonShape(exterior: [
            Coordinate(latitude: west.latitude, longitude: west.longitude - 0.01),
            Coordinate(latitude: west.latitude, longitude: west.longitude + 0.01),
            Coordinate(latitude: west.latitude + 0.0005, longitude: west.longitude + 0.01),
            Coordinate(latitude: west.latitude + 0.0005, longitude: west.longitude - 0.01),
            Coordinate(latitude: west.latitude, longitude: west.longitude - 0.01),
        ])
        let fence = Geofence(identifier: "strip", shape: .polygon(strip))
        var configuration = EngineConfiguration()
        configuration.startsMoving = true
        let trace = EngineHarness.drive(stillBefore: 10, driving: 200, speed: 10, stillAfter: 10)
        let (engine, _) = try EngineHarness.replay(trace, configuration: configuration, fences: [fence])
        let events = engine.recorder.geofenceEvents
        #expect(events.map(\.action) == [.enter, .exit])
        // The strip spans 1000 m to about 1055.6 m north.
        let entered = try #require(events.first).time
        let exited = try #require(events.last).time
        // North of the origin by (t - 9) x 10 m: 1000 m at 109 s is on the edge, which is not inside.
        #expect(EngineHarness.seconds(entered) == 110, "entered at \(EngineHarness.seconds(entered)) s")
        #expect(EngineHarness.seconds(exited) == 115, "exited at \(EngineHarness.seconds(exited)) s")
    }

    @Test("initial trigger and dwell after the loitering delay")
    func initialTriggerAndDwell() throws {
        let fence = Geofence(
            identifier: "home", shape: .circle(center: EngineHarness.origin, radiusMeters: 150), notifyOnDwell: true,
            loiteringDelaySeconds: 60)
        var configuration = EngineConfiguration()
        configuration.startsMoving = true
        // Still at the origin for 120 s, then away north at 10 m/s.
        let trace = EngineHarness.drive(stillBefore: 120, driving: 120, speed: 10, stillAfter: 0)
        let (engine, _) = try EngineHarness.replay(trace, configuration: configuration, fences: [fence])
        let events = engine.recorder.geofenceEvents.map { ($0.action, EngineHarness.seconds($0.time)) }
        #expect(events.count == 3, "\(events)")
        // The first fix is held by the gate and released with the second at 1 s.
        #expect(events.first.map { $0.0 == .enter && $0.1 == 0 } == true, "\(events)")
        #expect(events.dropFirst().first.map { $0.0 == .dwell && $0.1 == 60 } == true, "\(events)")
        #expect(events.last.map { $0.0 == .exit } == true, "\(events)")
    }
}
