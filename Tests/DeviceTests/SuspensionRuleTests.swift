import Device
import Geometry
import SimulationCore
import Testing
import Traces

/// Issue 16 §1: automatic suspension, wake windows, the queue of a suspended app's updates
/// and what the receiver costs; one test per rule, at the rule's boundary.
@Suite("Device rules: suspension, wake windows and queued updates")
struct SuspensionRuleTests {
    static let backgroundUpdates = LocationUpdateOptions(allowsBackgroundLocationUpdates: true)

    static func region(_ identifier: String) -> MonitoredRegion {
        MonitoredRegion(identifier: identifier, center: DeviceRun.origin, radiusMeters: 100)
    }

    /// One timeline of the suspension rule: the phone, what happens, and the last instant
    /// the app still runs in the background, then when it is suspended (never, for `nil`).
    struct SuspensionTimeline: Sendable, CustomTestStringConvertible {
        var name: String
        var configuration: Device.Configuration
        var steps: [(seconds: Double, event: DeviceEvent)]
        var stillRunningAt: Double
        var suspendedAt: Double?

        var testDescription: String { name }

        /// Grace 30 s, the parameter the updating timelines change.
        static var longGrace: Device.Configuration {
            var parameters = DeviceParameters()
            parameters.backgroundSuspensionGraceSeconds = 30
            return Setup.authorized(.authorizedAlways, parameters: parameters)
        }

        static let all: [SuspensionTimeline] = [
            SuspensionTimeline(
                name: "an idle app is running 4.9 s after leaving the foreground, suspended at 5 s",
                configuration: Setup.authorized(.authorizedAlways),
                steps: [(0, .user(.launchedApp)), (10, .user(.movedAppToBackground))],
                stillRunningAt: 14.9, suspendedAt: 15),
            // Updates without the background flag keep the app while it is in use (the 70 s
            // cutoff), then it is suspended; the grace is a parameter.
            SuspensionTimeline(
                name: "updates keep a locked app until the cutoff, then it is suspended",
                configuration: longGrace,
                steps: [
                    (0, .user(.launchedApp)), (1, .app(.startedLocationUpdates(LocationUpdateOptions()))),
                    (10, .user(.lockedScreen)),
                ],
                stillRunningAt: 79.9, suspendedAt: 80),
            SuspensionTimeline(
                name: "stopping the updates in the background starts the grace from then",
                configuration: longGrace,
                steps: [
                    (0, .user(.launchedApp)), (1, .app(.startedLocationUpdates(LocationUpdateOptions()))),
                    (10, .user(.lockedScreen)), (20, .app(.stoppedLocationUpdates)),
                ],
                stillRunningAt: 49.9, suspendedAt: 50),
            SuspensionTimeline(
                name: "background updates under Always keep it running",
                configuration: Setup.authorized(.authorizedAlways),
                steps: [
                    (0, .user(.launchedApp)), (1, .app(.startedLocationUpdates(backgroundUpdates))),
                    (10, .user(.lockedScreen)),
                ],
                stillRunningAt: 3600, suspendedAt: nil),
            SuspensionTimeline(
                name: "a When-In-Use background session keeps it running",
                configuration: Setup.authorized(.authorizedWhenInUse),
                steps: [(0, .user(.launchedApp)), (1, .app(.startedBackgroundSession)), (10, .user(.lockedScreen))],
                stillRunningAt: 3600, suspendedAt: nil),
            SuspensionTimeline(
                name: "ending the background session starts the grace",
                configuration: Setup.authorized(.authorizedWhenInUse),
                steps: [
                    (0, .user(.launchedApp)), (1, .app(.startedBackgroundSession)), (10, .user(.lockedScreen)),
                    (3600, .app(.endedBackgroundSession)),
                ],
                stillRunningAt: 3604.9, suspendedAt: 3605),
        ]
    }

    @Test(
        "backgroundAppSuspendedAfterGrace: a background app nothing keeps running is suspended after the grace",
        arguments: SuspensionTimeline.all)
    func backgroundAppSuspendedAfterGrace(_ scripted: SuspensionTimeline) {
        var timeline = DeviceRun.testing(scripted.configuration)
        for (seconds, event) in scripted.steps { timeline.at(seconds, event) }
        timeline.advance(to: scripted.stillRunningAt)
        #expect(timeline.device.lifecycle.phase == .background)
        guard let suspendedAt = scripted.suspendedAt else { return }
        timeline.advance(to: suspendedAt)
        #expect(timeline.device.lifecycle.phase == .suspended)
    }

    @Test("backgroundAppSuspendedAfterGrace: the lifecycle machine arms, moves and disarms its timer by generation")
    func suspensionTimerMachine() {
        let start = SimInstant(nanosecondsSinceEpoch: 1_700_000_000_000_000_000)
        func time(_ seconds: Double) -> SimInstant { start.advanced(bySeconds: seconds) }
        var updates = AppProcess()
        updates.locationUpdates = .running(LocationUpdateOptions(), startedInForeground: true)
        var machine = LifecycleStateMachine(
            state: .background(updates, leftForegroundAt: time(0), wakeWindowEndsAt: nil))
        // Updates in use: due when the cutoff ends (70 s), not after the grace.
        let first = machine.armSuspension(hasFullAlways: true, at: time(0))
        #expect(first?.due == time(70))
        #expect(machine.armSuspension(hasFullAlways: true, at: time(1)) == nil)
        // Stopping them moves it to the grace; the old timer is stale.
        machine.locationUpdatesStopped()
        let second = machine.armSuspension(hasFullAlways: true, at: time(10))
        #expect(second?.due == time(15))
        if case .suspensionDue(let generation)? = first?.timer {
            #expect(machine.suspensionTimerFired(generation: generation, hasFullAlways: true, at: time(70)) == nil)
        }
        #expect(machine.phase == .background)
        if case .suspensionDue(let generation)? = second?.timer {
            _ = machine.suspensionTimerFired(generation: generation, hasFullAlways: true, at: time(15))
        }
        #expect(machine.phase == .suspended)
        // In the foreground nothing is armed.
        var foreground = LifecycleStateMachine(state: .foreground(AppProcess()))
        #expect(foreground.armSuspension(hasFullAlways: true, at: time(0)) == nil)
    }

    @Test("suspendedAppGetsNoMotionOrTimers: motion reaches the app until the suspension, not after")
    func suspendedAppGetsNoMotionOrTimers() {
        var timeline = DeviceRun.testing(Setup.authorized(.authorizedAlways))
        timeline.at(0, .user(.launchedApp))
        timeline.at(1, .app(.startedMotionUpdates))
        timeline.at(10, .user(.lockedScreen))
        let sample = { (seconds: Double) in
            MotionSample(timestamp: timeline.time(seconds), activity: .automotive, confidence: .high)
        }
        #expect(timeline.at(14.9, .sensor(.motionSampleRecorded(sample(14.9)))) == [.deliverMotion(sample(14.9))])
        #expect(
            timeline.at(15, .sensor(.motionSampleRecorded(sample(15))))
                == [.dropMotion(.suspendedAppGetsNoMotionOrTimers)])
        // Derived motion (a trace without samples) is refused the same way.
        let derived = timeline.record(60, north: 0, speed: 20) + timeline.record(75, north: 300, speed: 20)
        #expect(!derived.contains { if case .deliverMotion = $0 { true } else { false } })
    }

    @Test("wokenAppSuspendedAfterWakeWindow: an app that left the foreground is suspended again 10 s after a wake")
    func wokenAppSuspendedAfterWakeWindow() {
        func woken(startsUpdates: Bool) -> (DeviceRun, Double) {
            var timeline = DeviceRun.testing(Setup.authorized(.authorizedAlways, parameters: Setup.immediateRegions))
            timeline.at(0, .user(.launchedApp))
            timeline.at(1, .app(.startedMonitoring(Self.region("depot"))))
            timeline.record(2)
            timeline.at(5, .user(.movedAppToBackground))
            timeline.advance(to: 10)
            #expect(timeline.device.lifecycle.phase == .suspended)
            var woke: Double?
            for second in stride(from: 100.0, through: 130, by: 1) {
                let actions = timeline.record(second, north: 400)
                if woke == nil, actions.contains(.regionEvent(identifier: "depot", .exit)) {
                    woke = second
                    if startsUpdates {
                        // An SDK starts background updates inside the wake window (a4 #5, d 14).
                        timeline.at(second, .app(.startedLocationUpdates(Self.backgroundUpdates)))
                    }
                    break
                }
            }
            return (timeline, woke ?? 0)
        }
        var (timeline, woke) = woken(startsUpdates: false)
        #expect(woke > 100)
        #expect(timeline.device.lifecycle.phase == .background)
        timeline.advance(to: woke + 9.9)
        #expect(timeline.device.lifecycle.phase == .background)
        timeline.advance(to: woke + 10)
        #expect(timeline.device.lifecycle.phase == .suspended)

        var (kept, keptWoke) = woken(startsUpdates: true)
        kept.advance(to: keptWoke + 600)
        #expect(kept.device.lifecycle.phase == .background)
    }

    @Test("suspendedAppUpdatesQueued: fixes of a suspended Always app are queued and handed over when it runs again")
    func suspendedAppUpdatesQueued() {
        func run(limit: Int) -> (DeviceRun, [DeviceAction]) {
            var parameters = Setup.queuedSuspendedUpdates
            parameters.suspendedLocationQueueLimit = limit
            var timeline = DeviceRun.testing(Setup.authorized(.authorizedAlways, parameters: parameters))
            timeline.at(0, .user(.launchedApp))
            timeline.at(1, .app(.startedLocationUpdates(LocationUpdateOptions())))
            timeline.at(10, .user(.lockedScreen))
            #expect(timeline.record(79.9).deliveries.count == 1)
            #expect(timeline.record(80).drops == [.suspendedAppUpdatesQueued])
            for second in stride(from: 81.0, through: 84, by: 1) { timeline.record(second, north: second) }
            return (timeline, timeline.at(90, .user(.unlockedScreen)))
        }
        let (timeline, resumed) = run(limit: 100)
        #expect(resumed.deliveries.map { $0.timestamp } == [80, 81, 82, 83, 84].map { timeline.time($0) })
        // The queue keeps the newest.
        let (short, trimmed) = run(limit: 2)
        #expect(trimmed.deliveries.map { $0.timestamp } == [83, 84].map { short.time($0) })

        // Under When-In-Use the queue holds only what came while the app was in use.
        var whenInUse = DeviceRun.testing(Setup.authorized(.authorizedWhenInUse, parameters: Setup.queuedSuspendedUpdates))
        whenInUse.at(0, .user(.launchedApp))
        whenInUse.at(1, .app(.startedLocationUpdates(LocationUpdateOptions())))
        whenInUse.at(10, .user(.lockedScreen))
        whenInUse.at(20, .system(.suspendedApp))
        #expect(whenInUse.record(79.9).drops == [.suspendedAppUpdatesQueued])
        #expect(whenInUse.record(80).drops == [.whenInUseStopsAfterCutoff])
        #expect(whenInUse.at(90, .user(.unlockedScreen)).deliveries.count == 1)
    }

    @Test("receiverRunsOnlyForRunningUpdates: GPS runs for queued updates of a suspended app, not when paused or ended")
    func receiverRunsOnlyForRunningUpdates() {
        var timeline = DeviceRun.testing(Setup.authorized(.authorizedAlways, parameters: Setup.queuedSuspendedUpdates))
        timeline.at(0, .user(.launchedApp))
        timeline.at(1, .app(.startedLocationUpdates(LocationUpdateOptions())))
        timeline.at(10, .user(.lockedScreen))
        timeline.advance(to: 80)
        #expect(timeline.device.lifecycle.phase == .suspended)
        #expect(timeline.device.isReceiverRunning(at: timeline.time(80)))
        timeline.at(100, .system(.terminatedApp))
        #expect(!timeline.device.isReceiverRunning(at: timeline.time(100)))

        // Provisional Always delivers as When-In-Use: no GPS once not in use.
        var provisional = Setup.authorized(.authorizedAlways)
        provisional.authorization.isProvisionalAlways = true
        var asWhenInUse = DeviceRun.testing(provisional)
        asWhenInUse.at(0, .user(.launchedApp))
        asWhenInUse.at(1, .app(.startedLocationUpdates(LocationUpdateOptions())))
        asWhenInUse.at(10, .user(.lockedScreen))
        #expect(asWhenInUse.device.isReceiverRunning(at: asWhenInUse.time(79.9)))
        #expect(!asWhenInUse.device.isReceiverRunning(at: asWhenInUse.time(80)))

        // Paused updates power the hardware down (a4 #7).
        var paused = DeviceRun.testing(Setup.authorized(.authorizedAlways))
        paused.at(0, .user(.launchedApp))
        paused.at(1, .app(.startedLocationUpdates(Self.backgroundUpdates)))
        #expect(paused.record(2).deliveries.count == 1)
        #expect(paused.device.isReceiverRunning(at: paused.time(2)))
        #expect(paused.record(903).contains(.locationUpdatesPaused))
        #expect(paused.device.isUpdatingLocation)
        #expect(!paused.device.isReceiverRunning(at: paused.time(903)))
    }

    @Test("backgroundSessionFormsWhileInUse: background updates started 69.9 s after the lock keep When-In-Use, at 70 s they fail")
    func backgroundSessionFormsWhileInUse() {
        func run(startAt seconds: Double) -> DeviceRun {
            var timeline = DeviceRun.testing(Setup.authorized(.authorizedWhenInUse))
            timeline.at(0, .user(.launchedApp))
            // Plain updates keep the app running while in use, so it can still act at the edge.
            timeline.at(1, .app(.startedLocationUpdates(LocationUpdateOptions())))
            timeline.at(10, .user(.lockedScreen))
            timeline.at(seconds, .app(.startedLocationUpdates(Self.backgroundUpdates)))
            return timeline
        }
        var inside = run(startAt: 79.9)
        #expect(inside.record(600, north: 500).deliveries.count == 1)
        #expect(inside.device.lifecycle.phase == .background)
        var edge = run(startAt: 80)
        #expect(edge.record(600, north: 500).drops == [.whenInUseStopsAfterCutoff])

        // The activity session follows the same edge (the lifecycle machine alone).
        let left = edge.time(10)
        for (seconds, forms) in [(79.9, true), (80.0, false)] {
            var machine = LifecycleStateMachine(
                state: .background(AppProcess(), leftForegroundAt: left, wakeWindowEndsAt: nil))
            machine.activitySessionStarted(at: edge.time(seconds))
            #expect(machine.process?.hasActivitySession == forms, "\(seconds)")
        }
    }
}
