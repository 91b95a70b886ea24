import Device
import Engine
import Geometry
import Scenarios
import SimulationCore
import Testing
import Traces

/// Issue 16 §1 and §2: the SDK countermeasures against suspension (`preventSuspend`, the
/// heartbeat), each off by default and priced in GPS time, and iOS's automatic pause as an
/// engine setting.
@Suite("Engine countermeasures: preventSuspend, heartbeat, automatic pause")
struct CountermeasureTests {
    static let lockAt30 = [ScriptedDeviceEvent(time: EngineHarness.time(30), event: .user(.lockedScreen))]

    static func run(
        _ change: (inout EngineConfiguration) -> Void, trace: Trace = EngineHarness.drive(stillBefore: 600, driving: 600, stillAfter: 0)
    ) throws -> (engine: TrackingEngine, replay: Replay<TrackingEngine>) {
        var configuration = EngineConfiguration()
        change(&configuration)
        return try EngineHarness.replay(trace, configuration: configuration, script: lockAt30)
    }

    static func departure(_ engine: TrackingEngine) -> Double? {
        engine.recorder.motionTransitions.first { $0.state == .moving }.map { EngineHarness.seconds($0.time) }
    }

    @Test("preventSuspend keeps the parked, locked app running: departure by motion, paid in GPS time")
    func preventSuspend() throws {
        let (plain, plainReplay) = try Self.run { _ in }
        let (kept, keptReplay) = try Self.run { $0.preventSuspend = true }
        #expect(plainReplay.lifecycleTimeline.contains { $0.phase == .suspended })
        #expect(!keptReplay.lifecycleTimeline.contains { $0.phase == .suspended })
        let plainDeparture = try #require(Self.departure(plain))
        let keptDeparture = try #require(Self.departure(kept))
        // Motion reports the drive within its onset latency (2-10 s); the suspended app waits
        // for the stationary region's exit (about 225 m at 15 m/s, then a 20 s dwell).
        #expect(keptDeparture <= 610, "\(keptDeparture)")
        #expect(plainDeparture > keptDeparture + 20, "\(plainDeparture)")
        let end = EngineHarness.time(1199)
        #expect(keptReplay.gpsOn.seconds(closingAt: end) > plainReplay.gpsOn.seconds(closingAt: end) + 500)
        // The keep-alive's own fixes are not tracking: nothing is recorded while parked.
        #expect(kept.recorder.acceptedTimes.filter { EngineHarness.seconds($0) > 5 && EngineHarness.seconds($0) < 600 }.isEmpty)
    }

    @Test("heartbeat fires every interval while the app runs; a suspended app gets one at the resume")
    func heartbeat() throws {
        let (kept, _) = try Self.run {
            $0.preventSuspend = true
            $0.heartbeatIntervalSeconds = 60
        }
        #expect(kept.recorder.heartbeatTimes.map(EngineHarness.seconds) == stride(from: 60.0, through: 1140, by: 60).map { $0 })
        let (plain, plainReplay) = try Self.run { $0.heartbeatIntervalSeconds = 60 }
        let beats = plain.recorder.heartbeatTimes.map(EngineHarness.seconds)
        // Suspended at 35 s: nothing until the departure wakes the app, then exactly one overdue
        // beat at the resume, and the next a full interval later.
        #expect(!beats.contains { $0 > 35 && $0 < 600 })
        let resume = try #require(
            plainReplay.lifecycleTimeline.first { EngineHarness.seconds($0.time) > 35 && $0.phase.isRunning })
        let resumeSeconds = EngineHarness.seconds(resume.time)
        #expect(beats.filter { $0 > 35 && $0 < resumeSeconds + 60 } == [resumeSeconds], "\(beats), resume \(resumeSeconds)")
        #expect(beats.count < kept.recorder.heartbeatTimes.count)
        #expect(EngineConfiguration().heartbeatIntervalSeconds == nil && !EngineConfiguration().preventSuspend)
    }

    @Test("automaticPause: with the SDK's own stop detection out of the way, iOS pauses after 15 min still and the engine stops")
    func automaticPause() throws {
        let trace = EngineHarness.drive(stillBefore: 60, driving: 300, speed: 15, stillAfter: 1200)
        let (paused, pausedReplay) = try Self.run(
            {
                $0.motion.stopTimeoutSeconds = 86_400
                $0.locationOptions.pausesLocationUpdatesAutomatically = true
            }, trace: trace)
        let (unpaused, unpausedReplay) = try Self.run(
            {
                $0.motion.stopTimeoutSeconds = 86_400
                $0.locationOptions.pausesLocationUpdatesAutomatically = false
            }, trace: trace)
        #expect(EngineConfiguration().locationOptions.pausesLocationUpdatesAutomatically)
        let arrival = try #require(paused.recorder.motionTransitions.last { $0.state == .stationary })
        // Still from 360 s: paused once 900 s of fixes stayed within 50 m (the last metres of
        // the drive count as still already).
        #expect(abs(EngineHarness.seconds(arrival.time) - 1260) <= 10, "\(EngineHarness.seconds(arrival.time))")
        #expect(!unpaused.recorder.motionTransitions.contains { $0.state == .stationary && EngineHarness.seconds($0.time) > 360 })
        let end = EngineHarness.time(1559)
        #expect(pausedReplay.gpsOn.seconds(closingAt: end) < unpausedReplay.gpsOn.seconds(closingAt: end) - 250)
    }
}
