import Device
import Geometry
import SimulationCore
import Testing
import Traces

/// Issue 16 review findings in the device: out-of-order region crossings, the automatic pause
/// of queued updates, motion at the resume, wake windows restarted by later events, stale
/// suspension timers after a kill, and parameters large enough to overflow the clock.
@Suite("Device review fixes (issue 16)")
struct ReviewFixTests {
    static let region = MonitoredRegion(identifier: "r", center: DeviceRun.origin, radiusMeters: 300)

    @Test("regionEventLatency: an exit and the re-entry after it arrive in that order for every seed, the entry no earlier than the exit")
    func regionCrossingsInOrder() {
        var entryClampedToExit = false
        for seed in UInt64(0)..<40 {
            var configuration = Setup.authorized(.authorizedAlways)
            // Apple's 5-minute upper latency, so that an entry can be drawn to come due before the
            // exit it follows (the default's 15 s never reaches past the 31 s between them).
            configuration.parameters.regionLatencyMaximumSeconds = 300
            configuration.seed = seed
            var timeline = DeviceRun.testing(configuration)
            timeline.at(0, .user(.launchedApp))
            timeline.at(1, .app(.startedMonitoring(Self.region)))
            timeline.record(2)
            // Out (600 m, past 300 + 50) for 30 s, then back at the centre.
            for second in stride(from: 10.0, through: 40, by: 1) { timeline.record(second, north: 600) }
            for second in stride(from: 41.0, through: 80, by: 1) { timeline.record(second, north: 0) }
            timeline.advance(to: 1_000)
            var order: [RegionCrossing] = []
            var times: [SimInstant] = []
            for entry in timeline.log {
                switch entry.action {
                case .regionEvent(_, let crossing), .regionEventDropped(_, let crossing, _):
                    order.append(crossing)
                    times.append(entry.time)
                default: break
                }
            }
            #expect(order == [.exit, .enter], "seed \(seed): \(order)")
            if times.count == 2 {
                #expect(times[0] <= times[1], "seed \(seed)")
                // The boundary: an entry drawn earlier than the exit comes due with it.
                if times[0] == times[1] { entryClampedToExit = true }
            }
        }
        // Seed 0 draws the entry's latency shorter than the exit's (the review's probe).
        #expect(entryClampedToExit)
    }

    @Test("automaticPause: a suspended app's queued updates pause after the stillness and GPS goes off; told at the resume")
    func queuedUpdatesPause() {
        var timeline = DeviceRun.testing(Setup.authorized(.authorizedAlways, parameters: Setup.queuedSuspendedUpdates))
        timeline.at(0, .user(.launchedApp))
        timeline.at(1, .app(.startedLocationUpdates(LocationUpdateOptions())))
        timeline.at(10, .user(.lockedScreen))
        // Still from the first fix at 11 s: the pause comes at the fix 900 s later.
        for second in stride(from: 11.0, through: 910, by: 1) {
            #expect(!timeline.record(second).contains(.locationUpdatesPaused), "\(second)")
        }
        #expect(timeline.device.lifecycle.phase == .suspended)
        #expect(timeline.device.isReceiverRunning(at: timeline.time(910)))
        #expect(!timeline.record(911).contains(.locationUpdatesPaused))
        #expect(!timeline.device.isReceiverRunning(at: timeline.time(911)))
        #expect(!timeline.device.lifecycle.hasRunningLocationUpdates)
        // Nothing is queued after the pause; the resume hands over the queue, then the pause.
        timeline.record(1_000)
        let resume = timeline.at(1_100, .user(.unlockedScreen))
        #expect(resume.last == .locationUpdatesPaused)
        #expect(resume.filter { $0 == .locationUpdatesPaused }.count == 1)
        #expect(resume.deliveries.last?.timestamp == timeline.time(911))
    }

    static func motion(_ seconds: Double, _ activity: MotionActivity, in timeline: DeviceRun) -> MotionSample {
        MotionSample(timestamp: timeline.time(seconds), activity: activity, confidence: .high)
    }

    @Test("resumedAppGetsCurrentMotion: the newest activity missed while suspended comes once at the resume")
    func motionAtResume() {
        var configuration = Setup.authorized(.authorizedAlways)
        configuration.traceHasMotionSamples = true
        var timeline = DeviceRun.testing(configuration)
        timeline.at(0, .user(.launchedApp))
        timeline.at(1, .app(.startedMotionUpdates))
        let walking = Self.motion(5, .walking, in: timeline)
        #expect(timeline.at(5, .sensor(.motionSampleRecorded(walking))) == [.deliverMotion(walking)])
        timeline.at(10, .user(.lockedScreen))
        timeline.advance(to: 20)
        #expect(timeline.device.lifecycle.phase == .suspended)
        let driving = Self.motion(30, .automotive, in: timeline)
        let stopped = Self.motion(99.9, .stationary, in: timeline)
        #expect(
            timeline.at(30, .sensor(.motionSampleRecorded(driving)))
                == [.dropMotion(.suspendedAppGetsNoMotionOrTimers)])
        timeline.at(99.9, .sensor(.motionSampleRecorded(stopped)))
        // The boundary: the sample just before the resume is the one handed over, once.
        let resume = timeline.at(100, .user(.unlockedScreen))
        #expect(resume.filter { if case .deliverMotion = $0 { true } else { false } } == [.deliverMotion(stopped)])
        // A second suspension with nothing missed hands over nothing.
        timeline.at(110, .user(.lockedScreen))
        timeline.advance(to: 130)
        #expect(timeline.device.lifecycle.phase == .suspended)
        let again = timeline.at(200, .user(.unlockedScreen))
        #expect(!again.contains { if case .deliverMotion = $0 { true } else { false } })
    }

    @Test("resumedAppGetsCurrentMotion: derived activity missed while driving suspended reaches the resumed app")
    func derivedMotionAtResume() {
        var timeline = DeviceRun.testing(Setup.authorized(.authorizedAlways))
        timeline.at(0, .user(.launchedApp))
        timeline.at(1, .app(.startedMotionUpdates))
        timeline.at(10, .user(.lockedScreen))
        for second in stride(from: 11.0, through: 299, by: 1) {
            timeline.record(second, north: (second - 11) * 15, speed: 15)
        }
        timeline.at(300, .user(.unlockedScreen))
        let delivered = timeline.actions(from: 300, to: 300).compactMap {
            if case .deliverMotion(let sample) = $0 { sample } else { nil }
        }
        #expect(delivered.map(\.activity) == [.automotive])
    }

    /// An Always app monitoring region `a` (and `b`, 100 m north, when given), backgrounded at 5 s.
    static func wakeTimeline(secondRegion: Bool) -> DeviceRun {
        var timeline = DeviceRun.testing(Setup.authorized(.authorizedAlways, parameters: Setup.immediateRegions))
        timeline.at(0, .user(.launchedApp))
        timeline.at(
            1, .app(.startedMonitoring(MonitoredRegion(identifier: "a", center: DeviceRun.origin, radiusMeters: 200))))
        if secondRegion {
            let north = Geodesy.destination(from: DeviceRun.origin, bearingDegrees: 0, distanceMeters: 100)
            timeline.at(1, .app(.startedMonitoring(MonitoredRegion(identifier: "b", center: north, radiusMeters: 200))))
        }
        timeline.record(2)
        return timeline
    }

    @Test("wakeWindowAfterRelaunch: an event in the suspension grace gets a full wake window")
    func eventInGrace() {
        var timeline = Self.wakeTimeline(secondRegion: false)
        // Out of region a from 100 s in the foreground; the dwell ends at 120 s, 0.5 s into the grace.
        for second in stride(from: 100.0, through: 119, by: 1) { timeline.record(second, north: 500) }
        timeline.at(119.5, .user(.movedAppToBackground))
        #expect(timeline.record(120, north: 500).contains(.regionEvent(identifier: "a", .exit)))
        timeline.advance(to: 129.5)
        #expect(timeline.device.lifecycle.phase == .background)
        timeline.advance(to: 130.5)
        #expect(timeline.device.lifecycle.phase == .suspended)
    }

    @Test("wakeWindowAfterRelaunch: a second event inside a wake window starts a full window again")
    func secondEventInWindow() {
        var timeline = Self.wakeTimeline(secondRegion: true)
        timeline.at(5, .user(.movedAppToBackground))
        timeline.advance(to: 20)
        #expect(timeline.device.lifecycle.phase == .suspended)
        // 290 m north: out of a (past 200 + 50 m; exit at 120 s), still inside b (190 m from its
        // centre); from 105 s, 700 m: out of b (exit at 125 s).
        for second in stride(from: 100.0, through: 104, by: 1) { timeline.record(second, north: 290) }
        for second in stride(from: 105.0, through: 125, by: 1) { timeline.record(second, north: 700) }
        #expect(timeline.actions(from: 120, to: 120).contains(.regionEvent(identifier: "a", .exit)))
        #expect(timeline.actions(from: 125, to: 125).contains(.regionEvent(identifier: "b", .exit)))
        timeline.advance(to: 134.5)
        #expect(timeline.device.lifecycle.phase == .background)
        timeline.advance(to: 135.5)
        #expect(timeline.device.lifecycle.phase == .suspended)
    }

    @Test("backgroundAppSuspendedAfterGrace: after a kill, the ended process's suspension timer does not suspend the next one")
    func staleSuspensionAfterKill() throws {
        let start = SimInstant(nanosecondsSinceEpoch: 1_700_000_000_000_000_000)
        func time(_ seconds: Double) -> SimInstant { start.advanced(bySeconds: seconds) }
        var machine = LifecycleStateMachine(state: .notRunning)
        _ = machine.userLaunchedApp()
        _ = machine.userMovedAppToBackground(at: time(0))
        let armed = machine.armSuspension(hasFullAlways: false, at: time(0))
        let stale = try #require(armed)
        #expect(stale.due == time(5))
        _ = machine.systemTerminatedApp()
        _ = machine.userLaunchedApp()
        _ = machine.userMovedAppToBackground(at: time(4))
        guard case .suspensionDue(let staleGeneration) = stale.timer else {
            Issue.record("not a suspension timer: \(stale.timer)")
            return
        }
        _ = machine.suspensionTimerFired(generation: staleGeneration, hasFullAlways: false, at: time(5))
        #expect(machine.phase == .background)
        // The new process's own grace still ends it, at 4 + 5 s.
        let rearmed = machine.armSuspension(hasFullAlways: false, at: time(4))
        let own = try #require(rearmed)
        #expect(own.due == time(9))
        guard case .suspensionDue(let generation) = own.timer else { return }
        _ = machine.suspensionTimerFired(generation: generation, hasFullAlways: false, at: time(9))
        #expect(machine.phase == .suspended)
    }

    @Test("times of a year or more saturate the clock instead of trapping")
    func hugeTimes() {
        var parameters = DeviceParameters()
        parameters.whenInUseLockCutoffSeconds = 1e10
        parameters.wakeWindowSeconds = 1e10
        parameters.backgroundSuspensionGraceSeconds = 1e10
        parameters.motionOnsetLatencyMinimumSeconds = 1e10
        parameters.motionOnsetLatencyMaximumSeconds = 1e11
        var timeline = DeviceRun.testing(Setup.authorized(.authorizedWhenInUse, parameters: parameters))
        timeline.at(0, .user(.launchedApp))
        timeline.at(1, .app(.startedLocationUpdates(LocationUpdateOptions())))
        timeline.at(1, .app(.startedMotionUpdates))
        timeline.at(10, .user(.lockedScreen))
        for second in stride(from: 11.0, through: 100, by: 1) { timeline.record(second, north: second * 15, speed: 15) }
        #expect(timeline.device.lifecycle.phase == .background)
        #expect(timeline.device.isInUse(at: timeline.time(100)))
        #expect(timeline.record(101, north: 1_515).deliveries.count == 1)
    }

    @Test("inconsistency names a minimum above its maximum and speeds out of order; equal values are fine")
    func inconsistency() {
        var parameters = DeviceParameters()
        #expect(parameters.inconsistency == nil)
        parameters.regionLatencyMinimumSeconds = 15
        #expect(parameters.inconsistency == nil)
        parameters.regionLatencyMinimumSeconds = 15.5
        #expect(parameters.inconsistency?.name == "regionLatencyMinimumSeconds")
        #expect(parameters.inconsistency?.other == "regionLatencyMaximumSeconds")
        parameters = DeviceParameters()
        parameters.motionRunningSpeedMetersPerSecond = 7.5
        #expect(parameters.inconsistency?.name == "motionRunningSpeedMetersPerSecond")
        #expect(parameters.inconsistency?.reason == "7.5 is above motionAutomotiveSpeedMetersPerSecond (7); it must be at most that")
        // A library user who skips the check gets draws from the reversed range, not a trap.
        parameters = DeviceParameters()
        parameters.motionOnsetLatencyMinimumSeconds = 20
        parameters.reducedDisplacementMinimumMeters = 30_000
        var timeline = DeviceRun.testing(Setup.authorized(.authorizedAlways, precise: false, parameters: parameters))
        timeline.at(0, .user(.launchedApp))
        timeline.at(1, .app(.startedLocationUpdates(LocationUpdateOptions())))
        timeline.at(1, .app(.startedMotionUpdates))
        for second in stride(from: 2.0, through: 60, by: 1) { timeline.record(second, north: second * 15, speed: 15) }
        #expect(!timeline.actions(from: 0, to: 60).deliveries.isEmpty)
    }
}
