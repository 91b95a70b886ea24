import Device
import Engine
import Geometry
import SimulationCore
import Testing
import Traces

/// The motion state machine over a synthetic drive: 10 min still, 10 min north at 15 m/s,
/// 15 min still, replayed through the device (which derives activity from speed).
@Suite("Motion state machine timelines")
struct MotionTimelineTests {
    private func departure(_ engine: TrackingEngine) -> Double? {
        engine.recorder.motionTransitions.first { $0.state == .moving }.map { EngineHarness.seconds($0.time) }
    }

    @Test("with motion, departure comes within the activity onset latency (2-10 s)")
    func departureWithMotion() throws {
        let (engine, _) = try EngineHarness.replay(EngineHarness.drive())
        let departed = try #require(departure(engine))
        #expect(departed >= 602 && departed <= 610, "departed at \(departed) s; the drive starts at 600 s")
    }

    @Test("without motion permission, departure waits for the stationary-region exit and comes later")
    func departureWithoutMotion() throws {
        let (withMotion, _) = try EngineHarness.replay(EngineHarness.drive())
        let (withoutMotion, replay) = try EngineHarness.replay(
            EngineHarness.drive(), device: EngineHarness.device(motion: .denied))
        let early = try #require(departure(withMotion))
        let late = try #require(departure(withoutMotion))
        // The stationary region is 25 m but the OS cushion makes the exit about 200 m: at 15 m/s
        // that is at least 13 s of driving before the wake.
        #expect(late - 600 >= 13, "departed at \(late) s")
        #expect(late - early >= 5, "with motion \(early) s, without \(late) s")
        // The wake is the device's region exit for the stationary region.
        let exit = replay.deviceLog.first {
            if case .regionEvent(TrackingEngine.stationaryRegionIdentifier, .exit) = $0.action { return true }
            return false
        }
        #expect(exit.map { EngineHarness.seconds($0.time) } == late)
    }

    @Test("GPS turns off stopTimeout (300 s) after the stop, leaving a stationary region")
    func gpsOffAfterStopTimeout() throws {
        for motion in [MotionAuthorizationStatus.authorized, .denied] {
            let (engine, replay) = try EngineHarness.replay(
                EngineHarness.drive(), device: EngineHarness.device(motion: motion))
            let arrival = try #require(engine.recorder.motionTransitions.first { $0.state == .stationary })
            let arrived = EngineHarness.seconds(arrival.time)
            // Still from 1200 s; with motion the coprocessor reports it after its latency.
            #expect(arrived >= 1500 && arrived <= 1512, "\(motion): arrived at \(arrived) s")
            let lastInterval = try #require(replay.gpsOn.intervals.last)
            #expect(lastInterval.end == arrival.time)
            #expect(!replay.device.isUpdatingLocation)
            #expect(replay.device.monitoredRegionIdentifiers.contains(TrackingEngine.stationaryRegionIdentifier))
        }
    }

    @Test("GPS is off while parked: on-seconds cover the drive plus the stop timeout, not the whole trace")
    func gpsOnSecondsAreTheBatteryProxy() throws {
        let trace = EngineHarness.drive()
        let (_, replay) = try EngineHarness.replay(trace)
        let onSeconds = replay.gpsOn.seconds(closingAt: trace.fixes.last!.timestamp)
        // Roughly: 1 s to place the first stationary region, 600 s of driving, 300 s stop timeout.
        #expect(onSeconds > 890 && onSeconds < 925, "\(onSeconds) s on of \(trace.fixes.count)")
        #expect(replay.gpsOn.intervals.count == 2)
    }

    @Test("a second departure after parking wakes on the stationary region")
    func wakeOnStationaryRegionExit() throws {
        var fixes = EngineHarness.drive(stillAfter: 900).fixes
        // Drive on again from 2100 s.
        let parked = fixes.last!
        var north = 0.0
        for second in 2100..<2400 {
            north += 15
            let position = Geodesy.destination(
                from: Coordinate(latitude: parked.latitude, longitude: parked.longitude), bearingDegrees: 0,
                distanceMeters: north)
            fixes.append(
                Fix(
                    timestamp: EngineHarness.time(Double(second)), latitude: position.latitude,
                    longitude: position.longitude, horizontalAccuracy: .meters(5), speedMetersPerSecond: 15,
                    provider: .gps))
        }
        let trace = Trace(fixes: fixes, provenance: TraceProvenance(format: .gpx11))
        let (engine, replay) = try EngineHarness.replay(trace, device: EngineHarness.device(motion: .denied))
        let departures = engine.recorder.motionTransitions.filter { $0.state == .moving }.map { EngineHarness.seconds($0.time) }
        #expect(departures.count == 2)
        #expect(departures.last.map { $0 > 2100 && $0 < 2140 } == true, "\(departures)")
        #expect(replay.gpsOn.intervals.count == 3)
    }

    @Test("the Radar-style stop rule arrives after 140 s within 70 m")
    func radarStopRule() throws {
        var configuration = EngineConfiguration()
        configuration.motion.stopRule = .radarDefault
        let (engine, _) = try EngineHarness.replay(EngineHarness.drive(), configuration: configuration)
        let arrival = try #require(engine.recorder.motionTransitions.first { $0.state == .stationary })
        let arrived = EngineHarness.seconds(arrival.time)
        // The last anchor more than 70 m from the previous one is set in the final 5 s of driving (15 m/s).
        #expect(arrived >= 1335 && arrived <= 1340, "arrived at \(arrived) s")
    }

    @Test("the state machine's actions at the boundaries, without a device")
    func machineActions() {
        var machine = MotionStateMachine(usesMotionActivity: true)
        let t0 = EngineHarness.time(0)
        let fix = Fix(timestamp: t0, latitude: 37, longitude: -122, horizontalAccuracy: .meters(5), provider: .gps)
        #expect(
            machine.handle(.fixAccepted(fix), at: t0)
                == [.stopGPS, .monitorStationaryRegion(center: Coordinate(latitude: 37, longitude: -122), radiusMeters: 25)])
        let low = MotionSample(timestamp: t0, activity: .automotive, confidence: .low, isCoarse: false, isDerived: false)
        #expect(machine.handle(.motionActivityReceived(low), at: t0).isEmpty, "low confidence is below the threshold")
        let driving = MotionSample(timestamp: t0, activity: .automotive, confidence: .medium, isCoarse: false, isDerived: false)
        #expect(machine.handle(.motionActivityReceived(driving), at: t0) == [.removeStationaryRegion, .startGPS, .departed])
        let still = MotionSample(timestamp: t0, activity: .stationary, confidence: .high, isCoarse: false, isDerived: false)
        let scheduled = machine.handle(.motionActivityReceived(still), at: t0)
        guard case .schedule(let timer, let due)? = scheduled.first else {
            Issue.record("expected a stop timer, got \(scheduled)")
            return
        }
        #expect(due == EngineHarness.time(0).advanced(byNanoseconds: 300_000_000_000))
        // Moving again cancels the pending stop: the old timer is stale.
        #expect(machine.handle(.motionActivityReceived(driving), at: t0).isEmpty)
        #expect(machine.handle(.stopTimerFired(timer), at: due).isEmpty)
        #expect(machine.state == .moving)
    }
}
