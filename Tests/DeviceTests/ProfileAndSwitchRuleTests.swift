import Device
import Foundation
import Geometry
import SimulationCore
import Testing
import Traces

/// One test per OS-profile and switch rule (issue 16 §3), each at the rule's boundary.
@Suite("Device rules: OS profiles and phone-wide switches")
struct ProfileAndSwitchRuleTests {
    static let region = MonitoredRegion(identifier: "stationary", center: DeviceRun.origin, radiusMeters: 100)
    static let backgroundUpdates = LocationUpdateOptions(allowsBackgroundLocationUpdates: true)

    static func parameters(
        _ profile: OSBehaviourProfile, _ change: (inout DeviceParameters) -> Void = { _ in }
    ) -> DeviceParameters {
        // Region events without the OS's latency: these tests are about who gets them.
        var parameters = Setup.immediateRegions
        parameters.osProfile = profile
        // Significant changes at Apple's 500 m, undrawn, for the same reason.
        parameters.significantChangeDistanceMedianMeters = 500
        parameters.significantChangeDistanceSpread = 0
        change(&parameters)
        return parameters
    }

    /// An Always app that monitors a 100 m region and significant changes at the origin, is
    /// force-quit at 5 s, and then the phone drives 600 m north from 400 s: beyond the region's
    /// cushion (exit after the 20 s dwell) and past the significant-change distance.
    static func forceQuitDrive(_ parameters: DeviceParameters, significantChangesOnly: Bool = false) -> DeviceRun {
        var timeline = DeviceRun.testing(Setup.authorized(.authorizedAlways, parameters: parameters))
        timeline.at(0, .user(.launchedApp))
        if significantChangesOnly {
            timeline.at(1, .app(.startedSignificantChanges))
        } else {
            timeline.at(1, .app(.startedMonitoring(region)))
        }
        timeline.record(2)
        timeline.at(5, .user(.forceQuitApp))
        for second in stride(from: 400.0, through: 430, by: 1) { timeline.record(second, north: 600) }
        return timeline
    }

    @Test(
        "forceQuitRelaunchOnLocationEvents: up to ios18 an exit or a significant change relaunches a force-quit app",
        arguments: [OSBehaviourProfile.ios13, .ios14To17, .ios18])
    func forceQuitRelaunchOnLocationEvents(on profile: OSBehaviourProfile) {
        let region = Self.forceQuitDrive(Self.parameters(profile))
        // Not before the 20 s dwell past the cushion, then relaunched by the exit.
        #expect(!region.actions(from: 400, to: 419).contains(.appLaunched(.regionEvent, inBackground: true)))
        let exit = region.actions(from: 420, to: 420)
        #expect(exit.contains(.appLaunched(.regionEvent, inBackground: true)))
        #expect(exit.contains(.regionEvent(identifier: "stationary", .exit)))
        let change = Self.forceQuitDrive(Self.parameters(profile), significantChangesOnly: true)
        #expect(change.actions(from: 400, to: 400).contains(.appLaunched(.significantChange, inBackground: true)))
        #expect(change.device.lifecycle.phase != .forceQuit)
        // The override wins over the profile.
        let overridden = Self.forceQuitDrive(Self.parameters(profile) { $0.regionRelaunchAfterForceQuit = false })
        #expect(
            overridden.actions(from: 420, to: 420).contains(
                .regionEventDropped(identifier: "stationary", .exit, .forceQuitStopsEverything)))
        #expect(profile.relaunchesForceQuitAppForLocationEvents)
        #expect(DeviceRule.forceQuitRelaunchOnLocationEvents.info.profiles.contains(profile))
    }

    @Test("forceQuitNoRelaunchOnIOS26: on ios26 neither a region exit nor a significant change relaunches it")
    func forceQuitNoRelaunchOnIOS26() {
        let region = Self.forceQuitDrive(Self.parameters(.ios26))
        #expect(
            region.actions(from: 420, to: 420) == [
                .regionEventDropped(identifier: "stationary", .exit, .forceQuitNoRelaunchOnIOS26),
                .dropLocation(.forceQuitStopsEverything),
            ])
        #expect(region.device.lifecycle.phase == .forceQuit)
        let change = Self.forceQuitDrive(Self.parameters(.ios26), significantChangesOnly: true)
        #expect(change.actions(from: 400, to: 400).contains(.significantChangeDropped(.forceQuitNoRelaunchOnIOS26)))
        #expect(change.device.lifecycle.phase == .forceQuit)
        // `current` is ios26 today; an override brings the relaunch back on it.
        #expect(OSBehaviourProfile.current == .ios26)
        let overridden = Self.forceQuitDrive(
            Self.parameters(.ios26) { $0.significantChangeRelaunchAfterForceQuit = true }, significantChangesOnly: true)
        #expect(overridden.actions(from: 400, to: 400).contains(.appLaunched(.significantChange, inBackground: true)))
        #expect(DeviceRule.forceQuitNoRelaunchOnIOS26.info.profiles == [.ios26])
    }

    /// An Always app monitoring a 100 m region, moved to the background at 5 s; suspended at
    /// 10 s unless `keepAlive` (background updates keep an Always app running). It drives
    /// 600 m north from 100 s, so the exit is reported at 120 s.
    static func backgroundExit(_ parameters: DeviceParameters, keepAlive: Bool) -> DeviceRun {
        var timeline = DeviceRun.testing(Setup.authorized(.authorizedAlways, parameters: parameters))
        timeline.at(0, .user(.launchedApp))
        timeline.at(1, .app(.startedMonitoring(region)))
        if keepAlive { timeline.at(1, .app(.startedLocationUpdates(backgroundUpdates))) }
        timeline.record(2)
        timeline.at(5, .user(.movedAppToBackground))
        timeline.at(10, .system(.suspendedApp))
        for second in stride(from: 100.0, through: 125, by: 1) { timeline.record(second, north: 600) }
        return timeline
    }

    @Test("backgroundAppRefreshOffStopsWakes: off, a suspended app is not woken; a running one still gets the exit")
    func backgroundAppRefreshOffStopsWakes() {
        let on = Self.backgroundExit(Self.parameters(.ios26), keepAlive: false)
        #expect(on.actions(from: 120, to: 120).contains(.regionEvent(identifier: "stationary", .exit)))
        let off = Self.backgroundExit(Self.parameters(.ios26) { $0.backgroundAppRefresh = false }, keepAlive: false)
        #expect(off.device.lifecycle.phase == .suspended)
        #expect(
            off.actions(from: 100, to: 125).contains(
                .regionEventDropped(identifier: "stationary", .exit, .backgroundAppRefreshOffStopsWakes)))
        let running = Self.backgroundExit(Self.parameters(.ios26) { $0.backgroundAppRefresh = false }, keepAlive: true)
        #expect(running.device.lifecycle.phase == .background)
        #expect(running.actions(from: 120, to: 120).contains(.regionEvent(identifier: "stationary", .exit)))
    }

    @Test("lowPowerModeStopsWakes: in Low Power Mode a suspended app is not woken; a running one still gets the exit")
    func lowPowerModeStopsWakes() {
        let low = Self.backgroundExit(Self.parameters(.ios26) { $0.lowPowerMode = true }, keepAlive: false)
        #expect(
            low.actions(from: 100, to: 125).contains(
                .regionEventDropped(identifier: "stationary", .exit, .lowPowerModeStopsWakes)))
        #expect(!low.actions(from: 100, to: 125).contains(.regionEvent(identifier: "stationary", .exit)))
        let running = Self.backgroundExit(Self.parameters(.ios26) { $0.lowPowerMode = true }, keepAlive: true)
        #expect(running.actions(from: 120, to: 120).contains(.regionEvent(identifier: "stationary", .exit)))
        // A terminated app is not relaunched either, even by a system kill's usual relaunch.
        var terminated = DeviceRun.testing(
            Setup.authorized(.authorizedAlways, parameters: Self.parameters(.ios18) { $0.lowPowerMode = true }))
        terminated.at(0, .user(.launchedApp))
        terminated.at(1, .app(.startedSignificantChanges))
        terminated.record(2)
        terminated.at(5, .system(.terminatedApp))
        terminated.record(400, north: 600)
        #expect(terminated.device.lifecycle.phase == .terminatedBySystem)
        #expect(terminated.actions(from: 400, to: 400).contains(.significantChangeDropped(.lowPowerModeStopsWakes)))
    }

    @Test("locationEventsWaitForFirstUnlock: an exit before the first unlock is lost, the next crossing after it is not")
    func locationEventsWaitForFirstUnlock() {
        func run(unlockAt unlock: Double) -> DeviceRun {
            var timeline = DeviceRun.testing(
                Setup.authorized(.authorizedAlways, parameters: Self.parameters(.ios26) { $0.startsBeforeFirstUnlock = true })
            )
            timeline.at(0, .user(.launchedApp))
            timeline.at(1, .app(.startedMonitoring(Self.region)))
            timeline.at(1, .app(.startedLocationUpdates(Self.backgroundUpdates)))
            timeline.record(2)
            timeline.at(5, .user(.lockedScreen))
            // Out at 100-125 s (exit reported at 120 s), back in from 200 s (entry at 220 s).
            for second in stride(from: 100.0, through: 125, by: 1) {
                if second == unlock { timeline.at(second, .user(.unlockedScreen)) }
                timeline.record(second, north: 600)
            }
            if unlock > 125 { timeline.at(unlock, .user(.unlockedScreen)) }
            for second in stride(from: 200.0, through: 225, by: 1) { timeline.record(second) }
            return timeline
        }
        let late = run(unlockAt: 150)
        #expect(
            late.actions(from: 120, to: 120).contains(
                .regionEventDropped(identifier: "stationary", .exit, .locationEventsWaitForFirstUnlock)))
        #expect(late.actions(from: 220, to: 220).contains(.regionEvent(identifier: "stationary", .enter)))
        // Unlocked one second before the exit is reported: the exit arrives.
        let early = run(unlockAt: 119)
        #expect(early.actions(from: 120, to: 120).contains(.regionEvent(identifier: "stationary", .exit)))
        // Off by default.
        #expect(!DeviceParameters().startsBeforeFirstUnlock)
    }

    /// Background seconds until the first memory-pressure kill for seed 0, as the device draws
    /// them: from the kills' own generator, seeded with the device seed mixed with "mempress".
    static func firstKillBudget(killsPerHour: Double) -> Double {
        var random = SplitMix64(seed: 0 ^ 0x6D65_6D70_7265_7373)
        return -log(1 - random.uniform(0...1)) * 3_600 / killsPerHour
    }

    /// An Always app kept running by background updates, locked at 10 s, with fixes every second;
    /// with `motion`, derived motion draws from the device's generator too.
    static func memoryPressure(
        killsPerHour: Double, lockAt lock: Double? = 10, until end: Double, motion: Bool = false
    ) -> DeviceRun {
        var timeline = DeviceRun.testing(
            Setup.authorized(
                .authorizedAlways, parameters: parameters(.ios26) { $0.memoryPressureKillsPerHour = killsPerHour }))
        timeline.at(0, .user(.launchedApp))
        timeline.at(1, .app(.startedMonitoring(region)))
        timeline.at(1, .app(.startedLocationUpdates(backgroundUpdates)))
        if motion { timeline.at(1, .app(.startedMotionUpdates)) }
        for second in stride(from: 2.0, through: end, by: 1) {
            if second == lock { timeline.at(second, .user(.lockedScreen)) }
            timeline.record(second)
        }
        return timeline
    }

    @Test("memoryPressureKillsInBackground: killed at the seeded background time, never in the foreground, relaunched by an exit")
    func memoryPressureKillsInBackground() {
        let budget = Self.firstKillBudget(killsPerHour: 60)
        #expect(budget > 2 && budget < 3_000, "seed 0 should give a testable first kill, not \(budget)")
        let killAt = 10 + budget.rounded(.up)
        var timeline = Self.memoryPressure(killsPerHour: 60, until: killAt - 1)
        #expect(timeline.device.lifecycle.phase == .background)
        let kill = timeline.record(killAt)
        #expect(kill.contains(.appTerminated(.memoryPressureKillsInBackground)))
        #expect(timeline.device.lifecycle.phase == .terminatedBySystem)
        // Unlike a force quit on ios26, a system kill is relaunched by the region exit.
        for second in stride(from: killAt + 1, through: killAt + 30, by: 1) { timeline.record(second, north: 600) }
        #expect(timeline.actions(from: killAt + 1, to: killAt + 30).contains(.appLaunched(.regionEvent, inBackground: true)))
        // The same seed kills at the same instant; off by default; never in the foreground.
        let again = Self.memoryPressure(killsPerHour: 60, until: killAt)
        #expect(again.actions(from: killAt, to: killAt).contains(.appTerminated(.memoryPressureKillsInBackground)))
        #expect(DeviceParameters().memoryPressureKillsPerHour == 0)
        let foreground = Self.memoryPressure(killsPerHour: 3_600, lockAt: nil, until: 7_200)
        #expect(foreground.device.lifecycle.phase == .foreground)
        // Other rules' draws (derived motion here) do not move the kill: it has its own generator.
        let withMotion = Self.memoryPressure(killsPerHour: 60, until: killAt, motion: true)
        #expect(withMotion.log.contains { if case .deliverMotion = $0.action { true } else { false } })
        #expect(withMotion.log.first { $0.action == .appTerminated(.memoryPressureKillsInBackground) }?.time == withMotion.time(killAt))
        let off = Self.memoryPressure(killsPerHour: 0, until: 7_200)
        // Parked, its updates pause after 15 min and it is suspended (issue 16 §1), never killed.
        #expect(off.device.lifecycle.phase == .suspended)
        #expect(!off.log.contains { $0.action == .appTerminated(.memoryPressureKillsInBackground) })
    }
}
