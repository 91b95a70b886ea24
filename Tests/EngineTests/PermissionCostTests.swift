import Device
import Engine
import Geometry
import Scenarios
import SimulationCore
import Testing
import Traces

/// What the permission level costs the engine on the same drive: the reference is Always.
@Suite("Permission levels seen by the engine")
struct PermissionCostTests {
    /// Five fences on the drive's route, 1.5 km apart.
    private let fences = (1...5).map { index in
        Geofence(
            identifier: "stop-\(index)",
            shape: .circle(
                center: Geodesy.destination(from: EngineHarness.origin, bearingDegrees: 0, distanceMeters: Double(index) * 1500),
                radiusMeters: 100))
    }

    private func run(
        _ status: AuthorizationStatus, lockAt seconds: Double?
    ) throws -> (engine: TrackingEngine, gpsOn: GPSOnTime) {
        var configuration = Device.Configuration()
        // The OS reports fence crossings at once and at the boundary: this test prices the
        // permission level, not the OS's latency or entry cushion (their own rule tests do).
        configuration.parameters.regionLatencyMaximumSeconds = 0
        configuration.parameters.regionEntryCushionMeters = 0
        configuration.authorization.storedStatus = status
        configuration.authorization.motionStatus = .authorized
        let script = seconds.map { [ScriptedDeviceEvent(time: EngineHarness.time($0), event: .user(.lockedScreen))] } ?? []
        let (engine, replay) = try EngineHarness.replay(
            EngineHarness.drive(stillBefore: 60, driving: 600, speed: 15, stillAfter: 0),
            device: Device(configuration: configuration), fences: fences, script: script)
        return (engine, replay.gpsOn)
    }

    @Test("When-In-Use with the screen locked: fixes stop 70 s after the lock and later fences never fire")
    func whenInUseLocked() throws {
        let (always, alwaysGPS) = try run(.authorizedAlways, lockAt: 30)
        let (whenInUse, whenInUseGPS) = try run(.authorizedWhenInUse, lockAt: 30)
        let enteredAlways = always.recorder.geofenceEvents.filter { $0.action == .enter }.map(\.identifier)
        let enteredWhenInUse = whenInUse.recorder.geofenceEvents.filter { $0.action == .enter }.map(\.identifier)
        #expect(enteredAlways == fences.map(\.identifier), "\(enteredAlways)")
        #expect(enteredWhenInUse.count < enteredAlways.count, "\(enteredWhenInUse)")
        let lastWhenInUse = try #require(whenInUse.recorder.recordedTimes.last)
        #expect(EngineHarness.seconds(lastWhenInUse) <= 100, "locked at 30 s, cut off at 100 s")
        #expect(always.recorder.recordedFixCount > whenInUse.recorder.recordedFixCount * 3)
        #expect(always.odometerMeters > 8000 && whenInUse.odometerMeters < 1000)
        // The battery proxy counts what the phone ran: When-In-Use stops at the cutoff.
        let end = EngineHarness.time(659)
        #expect(whenInUseGPS.seconds(closingAt: end) <= 101)
        // Always: off while parked for the first minute, on from the departure to the end. The
        // parked app is suspended 5 s after the lock, so the departure waits for the stationary
        // region's exit (about 225 m and a 20 s dwell), not for motion.
        #expect(alwaysGPS.seconds(closingAt: end) > 550)
    }
}
