import Engine
import Geometry
import SimulationCore
import Testing
import Traces

@Suite("Odometer, distance filter and smoothing")
struct OdometerAndFilterTests {
    @Test("the local approximation stays within 0.1 % of the great circle for steps up to 5 km")
    func localDistanceErrorBound() {
        var random = SplitMix64(seed: 9)
        var worst = 0.0
        for _ in 0..<2000 {
            let start = Coordinate(latitude: random.uniform(-70...70), longitude: random.uniform(-180...180))
            let step = random.uniform(1...5000)
            let end = Geodesy.destination(from: start, bearingDegrees: random.uniform(0...360), distanceMeters: step)
            let reference = Geodesy.distanceMeters(start, end)
            worst = max(worst, abs(LocalDistance.meters(start, end) - reference) / reference)
        }
        #expect(worst < 0.001, "worst relative error \(worst)")
    }

    @Test("the odometer over the MTV drive matches a haversine sum, and skips fixes worse than 20 m")
    func odometerOnRealDrive() throws {
        let trace = try EngineHarness.bundled("gps-measurement-tools/MTV.Local1.ublox-F9K.20200206-181434.nmea")
        var odometer = Odometer()
        var reference = 0.0
        var previous: Coordinate?
        for fix in trace.fixes {
            let accuracy = fix.horizontalAccuracyMeters()?.meters
            odometer.add(fix, accuracyMeters: accuracy)
            if let accuracy, accuracy > 20 { continue }
            let point = Coordinate(latitude: fix.latitude, longitude: fix.longitude)
            if let previous { reference += Geodesy.distanceMeters(previous, point) }
            previous = point
        }
        #expect(reference > 8_000, "a real drive: \(reference) m")
        #expect(abs(odometer.meters - reference) / reference < 1e-4, "\(odometer.meters) m vs \(reference) m")
        var strict = Odometer()
        strict.accuracyThresholdMeters = 5
        for fix in trace.fixes { strict.add(fix, accuracyMeters: fix.horizontalAccuracyMeters()?.meters) }
        #expect(strict.meters < odometer.meters, "a stricter threshold drops steps")
    }

    @Test("distance filter elasticity: the anchor SDKs' own examples")
    func elasticity() {
        var transistorsoft = DistanceFilter()
        transistorsoft.distanceFilterMeters = 50
        #expect(transistorsoft.thresholdMeters(speedMetersPerSecond: 27) == 300)
        #expect(transistorsoft.thresholdMeters(speedMetersPerSecond: 0) == 50)
        #expect(transistorsoft.thresholdMeters(speedMetersPerSecond: 5) == 50)
        #expect(transistorsoft.thresholdMeters(speedMetersPerSecond: 5.01) == 100)
        var mauron = DistanceFilter()
        mauron.distanceFilterMeters = 30
        mauron.elasticity = .mauron85
        #expect(mauron.thresholdMeters(speedMetersPerSecond: 7.7) == 130)
        #expect(mauron.thresholdMeters(speedMetersPerSecond: 100) == 30)
        #expect(mauron.thresholdMeters(speedMetersPerSecond: 99) == 1000)
        var none = DistanceFilter()
        none.elasticity = .none
        #expect(none.thresholdMeters(speedMetersPerSecond: 40) == 10)
    }

    @Test("the distance filter thins a 14 m/s drive: with elasticity, one fix in 3 s is recorded")
    func distanceFilterInPipeline() throws {
        var configuration = EngineConfiguration()
        configuration.startsMoving = true
        let trace = EngineHarness.drive(stillBefore: 0, driving: 300, speed: 14, stillAfter: 0)
        let (elastic, _) = try EngineHarness.replay(trace, configuration: configuration)
        // 14 m/s: threshold ceil(14 / 5) x 10 m = 30 m; fixes are 14 m apart, so every third.
        #expect(elastic.recorder.acceptedFixCount == 300)
        #expect(elastic.recorder.recordedFixCount == 100)
        configuration.distanceFilter.elasticity = .none
        let (flat, _) = try EngineHarness.replay(trace, configuration: configuration)
        #expect(flat.recorder.recordedFixCount == 300)
    }

    @Test("adjust smoothing pulls noisy fixes toward the true line; conservative rejects a jump")
    func kalman() {
        var random = SplitMix64(seed: 3)
        var smoother = KalmanSmoother()
        var rawError = 0.0
        var smoothError = 0.0
        for second in 0..<120 {
            let truth = Geodesy.destination(from: EngineHarness.origin, bearingDegrees: 0, distanceMeters: Double(second) * 10)
            let noisy = Geodesy.destination(from: truth, bearingDegrees: random.uniform(0...360), distanceMeters: random.uniform(0...15))
            let fix = Fix(
                timestamp: EngineHarness.time(Double(second)), latitude: noisy.latitude, longitude: noisy.longitude,
                horizontalAccuracy: .meters(10), provider: .gps)
            guard let smoothed = smoother.smooth(fix, accuracyMeters: 10, rejectOutliers: false) else { continue }
            if second >= 20 {
                rawError += Geodesy.distanceMeters(truth, noisy)
                smoothError += Geodesy.distanceMeters(truth, Coordinate(latitude: smoothed.latitude, longitude: smoothed.longitude))
            }
        }
        #expect(smoothError < rawError * 0.8, "smoothed \(smoothError) vs raw \(rawError)")
        let jump = Geodesy.destination(from: EngineHarness.origin, bearingDegrees: 90, distanceMeters: 5000)
        let outlier = Fix(
            timestamp: EngineHarness.time(120), latitude: jump.latitude, longitude: jump.longitude,
            horizontalAccuracy: .meters(10), provider: .gps)
        #expect(smoother.smooth(outlier, accuracyMeters: 10, rejectOutliers: true) == nil)
    }
}

@Suite("Per-fix budgets")
struct BudgetTests {
    @Test("Fix stays 64 bytes and the per-fix event and request types stay small")
    func sizes() {
        #expect(MemoryLayout<Fix>.size <= 64)
        #expect(MemoryLayout<Fix>.stride <= 64)
        // A request or decision carries at most a fix and a tag, and is passed by value per fix.
        #expect(MemoryLayout<AccuracyGate.Decision>.size <= 2 * 64 + 1)
        #expect(MemoryLayout<MotionStateMachine.Event>.size <= 64 + 1)
        #expect(MemoryLayout<RejectionReason>.size == 1)
        #expect(MemoryLayout<GeofenceEvent>.size <= 40)
        #expect(MemoryLayout<AccuracyGate>.size <= 3 * 64 + 64)
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
