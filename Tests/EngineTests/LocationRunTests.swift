import Device
import Engine
import Foundation
import Geometry
import SimulationCore
import TestSupport
import Testing
import Traces

/// The engine takes runs of locations (issue 32) and records exactly what it records one
/// `didUpdateLocations` call at a time: the same fixes, odometer, motion states, geofence
/// events, requests and timers, and it stops after the same delivery. Fast tier: two short
/// bundled traces and a synthetic drive; the slow tier sweeps every bundled trace.
@Suite("The engine's location runs")
struct LocationRunTests {
    /// The configurations compared: each reaches a different way for a run to stop early.
    static let configurations: [(name: String, configuration: EngineConfiguration, fences: Bool)] = {
        var moving = EngineConfiguration()
        // The moving region is refreshed every 100 m: a request in the middle of a run.
        moving.startsMoving = true
        var bySpeed = EngineConfiguration()
        // Without motion activity the stop timer starts on a slow fix, and with preventSuspend
        // the keep-alive's fixes are skipped without a request.
        bySpeed.requestsMotionActivity = false
        bySpeed.motion.stopTimeoutSeconds = 60
        bySpeed.preventSuspend = true
        bySpeed.heartbeatIntervalSeconds = 60
        var radar = EngineConfiguration()
        // Radar's stop rule arrives on a fix; the conservative smoother rejects outliers.
        radar.startsMoving = true
        radar.motion.stopRule = .radarDefault
        radar.smoothing = .conservative
        radar.distanceFilter.elasticity = .mauron85
        return [
            ("default", EngineConfiguration(), false), ("starts moving", moving, false),
            ("speed stops, keep-alive", bySpeed, false), ("radar, smoothed, fences", radar, true),
        ]
    }()

    /// Circles of 60 m along the trace, every 25th fix: more than the 20 the engine registers
    /// at once, so the ranking changes as the device moves (a request mid-run).
    static func fences(along fixes: [Fix]) -> [Geofence] {
        stride(from: 0, to: fixes.count, by: 25).map { index in
            Geofence(
                identifier: "fence\(index)",
                shape: .circle(
                    center: Coordinate(latitude: fixes[index].latitude, longitude: fixes[index].longitude),
                    radiusMeters: 60))
        }
    }

    /// Each fix delivered at its own time, as the device hands over a 1 Hz trace.
    static func deliveries(_ trace: Trace) -> [LocationDelivery] {
        trace.fixes.map { LocationDelivery(fix: $0, time: $0.timestamp) }
    }

    /// Every configuration over `deliveries`, in whole runs and in runs of at most 7; returns
    /// the early stops of each, in `configurations` order, whole runs first.
    static func compare(_ deliveries: [LocationDelivery], _ label: String) throws -> [Int] {
        var stops: [Int] = []
        for (name, configuration, hasFences) in configurations {
            let fences = hasFences ? fences(along: deliveries.map(\.fix)) : []
            for maximum in [Int.max, 7] {
                let differential = try LocationRunDifferential(
                    deliveries, configuration: configuration, fences: fences, maximumRunLength: maximum)
                #expect(differential.mismatches.isEmpty, "\(label), \(name), runs of \(maximum): \(differential.mismatches.prefix(3))")
                stops.append(differential.runsStoppedEarly)
            }
        }
        return stops
    }

    @Test("a synthetic drive: runs stop at the stationary region, the departure, the region refresh and the stop")
    func syntheticDrive() throws {
        let deliveries = Self.deliveries(EngineHarness.drive())
        let stops = try Self.compare(deliveries, "synthetic drive")
        // Every configuration writes requests in the middle of runs: none is the trivial case.
        #expect(stops.allSatisfy { $0 > 0 }, "early stops \(stops)")
        let moving = try LocationRunDifferential(deliveries, configuration: Self.configurations[1].configuration)
        // Moving from the start, stopped by the still samples' timer, off again through the
        // stationary region's exit, stopped after the drive.
        #expect(moving.records?.runs.motionTransitions.map(\.state) == [.moving, .stationary, .moving, .stationary])
        // 9,000 m of driving refresh the moving region about every 100 m; a refresh that falls
        // on the first delivery of a run (after a motion sample) ends nothing early.
        #expect(moving.runsStoppedEarly == 81, "early stops \(moving.runsStoppedEarly)")
    }

    @Test("the short bundled traces, every configuration", arguments: TestTier.shortTraces)
    func shortTrace(_ path: String) throws {
        let trace = try TraceImporter.load(path: path)
        let stops = try Self.compare(Self.deliveries(trace), path)
        #expect(stops.contains { $0 > 0 }, "no run stopped early on \(path): \(stops)")
    }

    @Test("every bundled trace, every configuration (slow tier)")
    func everyBundledTrace() throws {
        guard TestTier.isSlow else { return }
        for path in Repository.bundledTracePaths {
            let trace = try TraceImporter.load(path: path)
            _ = try Self.compare(Self.deliveries(trace), path)
        }
    }

    @Test("each rejection reason is counted on its own")
    func rejectionSlots() {
        var recorder = Recorder()
        for (offset, reason) in RejectionReason.allCases.enumerated() {
            for _ in 0...offset { recorder.rejected(reason) }
        }
        for (offset, reason) in RejectionReason.allCases.enumerated() {
            #expect(recorder.rejectionCount(reason) == offset + 1, "\(reason)")
        }
        #expect(recorder.rejections.map(\.count).reduce(0, +) == (1...RejectionReason.allCases.count).reduce(0, +))
    }

    @Test("a run stops after the delivery that writes a request, and the next run goes on from there")
    func stopAndContinue() throws {
        let fixes = EngineHarness.drive(stillBefore: 3, driving: 0, stillAfter: 0).fixes
        let engine = try TrackingEngine(context: GEOSContext())
        var requests: [LocationClientRequest<EngineTimer>] = []
        let launch = LocationClientLaunch(
            authorizationStatus: .authorizedAlways, accuracyAuthorization: .fullAccuracy,
            motionAuthorizationStatus: .authorized, isMotionActivityAvailable: true)
        engine.start(launch, at: fixes[0].timestamp, into: &requests)
        requests.removeAll()
        let run = LocationRun(Self.deliveries(Trace(fixes: fixes, provenance: TraceProvenance(format: .gpx11)))[...])
        // The first fix is held by the gate, the second confirms it: the stationary region and
        // GPS off are requested on the second, so the run stops there with the third unhandled.
        #expect(!engine.takesLocationRuns)
        #expect(engine.didUpdateLocationRun(run, into: &requests) == 2)
        #expect(requests.count == 2, "\(requests)")
        #expect(engine.recorder.deliveredFixCount == 2)
        requests.removeAll()
        let rest = LocationRun(run.deliveries.dropFirst(2))
        #expect(engine.didUpdateLocationRun(rest, into: &requests) == 1)
        #expect(requests.isEmpty)
        #expect(engine.recorder.deliveredFixCount == 3)
        #expect(engine.recorder.acceptedFixCount == 3)
    }
}
