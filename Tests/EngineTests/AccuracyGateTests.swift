import Device
import Engine
import Geometry
import SimulationCore
import Testing
import Traces

@Suite("Accuracy gate")
struct AccuracyGateTests {
    private func fix(_ seconds: Double, north meters: Double = 0, accuracy: Accuracy? = .meters(5)) -> Fix {
        let position = Geodesy.destination(from: EngineHarness.origin, bearingDegrees: 0, distanceMeters: meters)
        return Fix(
            timestamp: EngineHarness.time(seconds), latitude: position.latitude, longitude: position.longitude,
            horizontalAccuracy: accuracy, provider: .gps)
    }

    /// A gate that accepts its first fix at once, so each case tests one rule.
    private func gate() -> AccuracyGate {
        var configuration = AccuracyGate.Configuration()
        configuration.confirmsFirstFix = false
        return AccuracyGate(configuration: configuration)
    }

    @Test("accuracy: 100 m passes, anything worse is lowAccuracy; negative and NaN are invalid")
    func accuracyBoundary() {
        var gate = gate()
        #expect(
            gate.evaluate(fix(0, accuracy: .meters(100)), deliveredAt: EngineHarness.time(0))
                == .accept(fix(0, accuracy: .meters(100)), held: nil))
        #expect(gate.evaluate(fix(1, accuracy: .meters(100.01)), deliveredAt: EngineHarness.time(1)) == .reject(.lowAccuracy))
        #expect(gate.evaluate(fix(2, accuracy: .meters(-1)), deliveredAt: EngineHarness.time(2)) == .reject(.invalidAccuracy))
        #expect(gate.evaluate(fix(3, accuracy: .meters(.nan)), deliveredAt: EngineHarness.time(3)) == .reject(.invalidAccuracy))
        // HDOP 13.4 is about 100.5 m estimated with the 7.5 m UERE: rejected, as an estimate.
        #expect(gate.evaluate(fix(4, accuracy: .dilution(13.4)), deliveredAt: EngineHarness.time(4)) == .reject(.lowAccuracy))
    }

    @Test("implied speed: 60 m/s passes, 61 m/s is a teleport")
    func impliedSpeedBoundary() {
        var gate = gate()
        _ = gate.evaluate(fix(0), deliveredAt: EngineHarness.time(0))
        if case .accept = gate.evaluate(fix(10, north: 599), deliveredAt: EngineHarness.time(10)) {
        } else {
            Issue.record("59.9 m/s should pass")
        }
        #expect(gate.evaluate(fix(11, north: 599 + 61), deliveredAt: EngineHarness.time(11)) == .reject(.impliedSpeed))
    }

    @Test("age: 15 s old at delivery passes, 15.5 s is stale")
    func staleBoundary() {
        var gate = gate()
        if case .accept = gate.evaluate(fix(0), deliveredAt: EngineHarness.time(15)) {
        } else {
            Issue.record("15 s should pass")
        }
        #expect(gate.evaluate(fix(1), deliveredAt: EngineHarness.time(16.5)) == .reject(.stale))
    }

    @Test("duplicates and out-of-order timestamps are rejected")
    func ordering() {
        var gate = gate()
        _ = gate.evaluate(fix(10), deliveredAt: EngineHarness.time(10))
        #expect(gate.evaluate(fix(10, north: 1), deliveredAt: EngineHarness.time(10)) == .reject(.duplicate))
        #expect(gate.evaluate(fix(9), deliveredAt: EngineHarness.time(10)) == .reject(.outOfOrder))
    }

    @Test("the first fix is held, then released with a second that agrees with it")
    func firstFixConfirmation() {
        var gate = AccuracyGate()
        #expect(gate.evaluate(fix(0), deliveredAt: EngineHarness.time(0)) == .hold)
        #expect(gate.evaluate(fix(1, north: 10), deliveredAt: EngineHarness.time(1)) == .accept(fix(1, north: 10), held: fix(0)))
    }

    @Test("mapbox urban drive: the stale first fix, 665 m from the second, is rejected as staleFirstFix")
    func mapboxStaleFirstFix() throws {
        let trace = try EngineHarness.bundled("mapbox-navigation-ios/38512A3B-032C-452D-95EA-06C845B64780.json")
        let first = trace.fixes[0]
        let second = trace.fixes[1]
        let offset = Geodesy.distanceMeters(
            Coordinate(latitude: first.latitude, longitude: first.longitude),
            Coordinate(latitude: second.latitude, longitude: second.longitude))
        #expect(offset > 660 && offset < 670, "\(offset) m")
        var configuration = EngineConfiguration()
        configuration.startsMoving = true
        let (engine, _) = try EngineHarness.replay(trace, configuration: configuration)
        #expect(engine.recorder.rejectionCount(.staleFirstFix) == 1)
        #expect(engine.recorder.deliveredFixCount == 39)
        // The file's last fix also jumps 61.7 m in 1 s, just over the 60 m/s teleport limit.
        #expect(engine.recorder.rejectionCount(.impliedSpeed) == 1)
        #expect(engine.recorder.acceptedFixCount == 37)
        #expect(engine.recorder.recordedTimes.first == second.timestamp)
    }

    @Test("mapbox tunnel: the 21 s outage is a gap, and the repeated last fix is merged at import, not delivered twice")
    func tunnelGap() throws {
        let trace = try EngineHarness.bundled("mapbox-navigation-ios/tunnel.json")
        #expect(trace.diagnostics.merged.count == 1)
        var configuration = EngineConfiguration()
        configuration.startsMoving = true
        let (engine, _) = try EngineHarness.replay(trace, configuration: configuration)
        #expect(engine.recorder.deliveredFixCount == 12)
        #expect(engine.recorder.rejectionCount(.duplicate) == 0)
        #expect(engine.recorder.acceptedFixCount == 12)
        #expect(engine.recorder.gaps.count == 1)
        let gap = try #require(engine.recorder.gaps.first)
        #expect(abs(gap.seconds - 21.0016) < 0.001, "\(gap.seconds) s")
    }

    @Test("SPAN reference: the 655.3 HDOP sentinel arrives as a dilution and is rejected as low accuracy")
    func spanSentinelHDOP() throws {
        let trace = try EngineHarness.bundled(
            "gps-measurement-tools/MTV.Local1.SPAN.20200206-181434.gga",
            options: ImportOptions(nmeaStartDate: CalendarDate("2020-02-07")))
        let sentinels = trace.fixes.filter { $0.horizontalAccuracy == .dilution(655.3) }
        #expect(sentinels.count == 27)
        // Nothing in the file is a measured metre value, so nothing can be mistaken for one.
        #expect(!trace.fixes.contains { if case .meters = $0.horizontalAccuracy { true } else { false } })
        var gate = AccuracyGate()
        var rejectedSentinels = 0
        for fix in trace.fixes {
            let decision = gate.evaluate(fix, deliveredAt: fix.timestamp)
            if fix.horizontalAccuracy == .dilution(655.3) {
                #expect(decision == .reject(.lowAccuracy))
                rejectedSentinels += 1
            }
        }
        #expect(rejectedSentinels == 27)
    }
}
