import SimulationCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the device remembers for the phone-wide switches of `DeviceParameters` (Low Power
/// Mode, Background App Refresh, a restart before the first unlock, memory pressure).
struct DeviceSwitchState: Sendable {
    /// The person unlocked the phone since the replay started (`startsBeforeFirstUnlock`).
    var hasBeenUnlocked = false
    /// When the memory-pressure clock last looked at the app.
    var memoryPressureCheckedAt: SimInstant?
    /// Seconds of background or suspended time left before the next memory-pressure kill,
    /// drawn when the app is first seen in the background after a kill or at the start.
    var memoryPressureBudgetSeconds: Double?
    /// The kills' own generator, seeded from the device seed, so the draws of other rules
    /// (region latency, derived motion, reduced accuracy) never move a kill.
    var memoryPressureRandom: SplitMix64

    /// Mixed into the device seed for `memoryPressureRandom` (ASCII "mempress").
    static let memoryPressureSeedMix: UInt64 = 0x6D65_6D70_7265_7373

    init(seed: UInt64) {
        memoryPressureRandom = SplitMix64(seed: seed ^ Self.memoryPressureSeedMix)
    }
}

/// The phone-wide switches: which background events they hold back, and the seeded
/// memory-pressure kills.
extension Device {
    /// Called for every event before it is handled: notes the first unlock and lets memory
    /// pressure end a background or suspended app. Costs two comparisons when both switches
    /// are at their defaults, as they are on the per-fix path of almost every replay.
    @inline(__always)
    mutating func observeSwitches(_ event: DeviceEvent, at now: SimInstant, into actions: inout [DeviceAction]) {
        if parameters.startsBeforeFirstUnlock, !switches.hasBeenUnlocked, case .user(.unlockedScreen) = event {
            switches.hasBeenUnlocked = true
        }
        observeMemoryPressure(at: now, into: &actions)
    }

    /// Lets memory pressure end a background or suspended app; one comparison when it is off.
    @inline(__always)
    mutating func observeMemoryPressure(at now: SimInstant, into actions: inout [DeviceAction]) {
        if parameters.memoryPressureKillsPerHour > 0 { applyMemoryPressure(at: now, into: &actions) }
    }

    /// Why a region, significant-change or visit event is held back by a switch, or `nil`.
    /// Before the first unlock after a restart nothing is monitored (a4 #14, a6 #10). With Low
    /// Power Mode or Background App Refresh off the event still reaches a running app but wakes
    /// or relaunches nothing (a6 #8, a4 #15); an app without authorization is refused for that
    /// reason instead, by the caller.
    func switchRefusal() -> DeviceRule? {
        if parameters.startsBeforeFirstUnlock && !switches.hasBeenUnlocked { return .locationEventsWaitForFirstUnlock }
        guard !lifecycle.isRunning, authorization.state.status.isAuthorized else { return nil }
        // Only the archived guide says Low Power Mode stops these wakes (a4 #15, a6 #8), so
        // `lowPowerModeStopsWakes` can turn the rule off for the band's optimistic end.
        if parameters.lowPowerMode && parameters.lowPowerModeStopsWakes { return .lowPowerModeStopsWakes }
        if !parameters.backgroundAppRefresh { return .backgroundAppRefreshOffStopsWakes }
        return nil
    }

    /// Models the system ending a background app under memory pressure (a4 #12) as a Poisson
    /// process over the time the app spends in the background or suspended: each kill comes
    /// after an exponentially distributed stretch of such time, drawn from a generator of its
    /// own seeded from the device seed, so a replay stays deterministic and other rules' draws
    /// do not move the kills. The process ends as any system termination
    /// does; region, significant-change and visit events relaunch it under Always.
    private mutating func applyMemoryPressure(at now: SimInstant, into actions: inout [DeviceAction]) {
        defer { switches.memoryPressureCheckedAt = now }
        guard let last = switches.memoryPressureCheckedAt else { return }
        switch lifecycle.phase {
        case .background, .suspended: break
        case .notRunning, .foreground, .terminatedBySystem, .forceQuit: return
        }
        let elapsed = now.seconds(since: last)
        guard elapsed > 0 else { return }
        let budget = switches.memoryPressureBudgetSeconds ?? nextMemoryPressureBudget()
        if elapsed < budget {
            switches.memoryPressureBudgetSeconds = budget - elapsed
            return
        }
        switches.memoryPressureBudgetSeconds = nil
        perform(lifecycle.systemTerminatedApp(for: .memoryPressureKillsInBackground), at: now, into: &actions)
    }

    /// Background seconds until the next kill: exponential with the configured rate.
    private mutating func nextMemoryPressureBudget() -> Double {
        let unit = switches.memoryPressureRandom.uniform(0...1)
        return -log(1 - unit) * 3_600 / parameters.memoryPressureKillsPerHour
    }
}
