import Device
import Engine
import Foundation
import Geometry
import Scenarios
import SimulationCore
import TestSupport
import Traces

/// Builds synthetic drives and runs them through a device and the engine.
enum EngineHarness {
    static let start = SimInstant(nanosecondsSinceEpoch: 1_700_000_000_000_000_000)
    static let origin = Coordinate(latitude: 37.7749, longitude: -122.4194)

    static func time(_ seconds: Double) -> SimInstant {
        start.advanced(byNanoseconds: Int64((seconds * 1e9).rounded()))
    }

    /// A 1 Hz trace: still at the origin for `stillBefore` seconds, north at `speed` m/s for
    /// `driving` seconds, then still for `stillAfter` seconds. No motion samples, so the
    /// device derives activity from speed with its onset latency.
    static func drive(stillBefore: Int = 600, driving: Int = 600, speed: Double = 15, stillAfter: Int = 900) -> Trace {
        var fixes: [Fix] = []
        var north = 0.0
        for second in 0..<(stillBefore + driving + stillAfter) {
            let moving = second >= stillBefore && second < stillBefore + driving
            if moving { north += speed }
            let position = Geodesy.destination(from: origin, bearingDegrees: 0, distanceMeters: north)
            fixes.append(
                Fix(
                    timestamp: time(Double(second)), latitude: position.latitude, longitude: position.longitude,
                    horizontalAccuracy: .meters(5), speedMetersPerSecond: Float(moving ? speed : 0), provider: .gps))
        }
        return Trace(fixes: fixes, provenance: TraceProvenance(format: .gpx11))
    }

    /// A device with Always + Precise granted and motion authorized or denied. Region events
    /// arrive without the OS's latency: these tests time the engine, not the OS.
    static func device(motion: MotionAuthorizationStatus = .authorized, seed: UInt64 = 7) -> Device {
        var configuration = Device.Configuration()
        configuration.parameters.regionLatencyMaximumSeconds = 0
        // The engine tests are about the engine's rules, not the OS's misses (`regionCrossingMissed`).
        configuration.parameters.regionMissProbability = 0
        configuration.authorization.storedStatus = .authorizedAlways
        configuration.authorization.motionStatus = motion
        configuration.seed = seed
        return Device(configuration: configuration)
    }

    /// Replays `trace` and returns the engine and the replay.
    static func replay(
        _ trace: Trace, device: Device = device(), configuration: EngineConfiguration = EngineConfiguration(),
        fences: [Geofence] = [], script: [ScriptedDeviceEvent] = []
    ) throws -> (engine: TrackingEngine, replay: Replay<TrackingEngine>) {
        let engine = try TrackingEngine(
            configuration: configuration, fences: fences, context: GEOSContext(), expectedFixCount: trace.fixes.count)
        var replay = Replay(device: device, client: engine, keepsDeviceLog: true)
        replay.run(trace, script: script)
        return (engine, replay)
    }

    /// Seconds after the harness start.
    static func seconds(_ instant: SimInstant) -> Double { instant.seconds(since: start) }

    static func bundled(_ relativePath: String, options: ImportOptions = ImportOptions()) throws -> Trace {
        try TraceImporter.load(path: Repository.trace(relativePath), options: options)
    }
}
