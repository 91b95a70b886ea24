import Device
import SimulationCore
import Testing

/// Each lifecycle input in each phase: the next state, the screen lock and the action, as
/// `LifecycleStateMachine` documents them, including the inputs it must ignore.
@Suite("Lifecycle state machine: every input in every phase")
struct LifecycleStateMachineTests {
    typealias Machine = LifecycleStateMachine
    typealias State = LifecycleStateMachine.State

    static let parameters = DeviceParameters()
    static let cutoff = parameters.whenInUseLockCutoffSeconds
    static let wakeWindow = parameters.wakeWindowSeconds

    static func time(_ seconds: Double) -> SimInstant {
        SimInstant(nanosecondsSinceEpoch: 1_700_000_000_000_000_000).advanced(byNanoseconds: Int64(seconds * 1e9))
    }

    /// A process that started nothing.
    static let idle = AppProcess()
    /// When-In-Use keep-alive: background updates started in the foreground (a4 #4).
    static let backgroundSession: AppProcess = {
        var process = AppProcess()
        process.locationUpdates = .running(
            LocationUpdateOptions(allowsBackgroundLocationUpdates: true), startedInForeground: true)
        return process
    }()
    /// Background updates started in the background: keep-alive only under full Always.
    static let alwaysUpdates: AppProcess = {
        var process = AppProcess()
        process.locationUpdates = .running(
            LocationUpdateOptions(allowsBackgroundLocationUpdates: true), startedInForeground: false)
        return process
    }()
    static let activitySession: AppProcess = {
        var process = AppProcess()
        process.hasActivitySession = true
        return process
    }()

    /// Every lifecycle input, with what the device passes along.
    enum Input: Sendable {
        case launched
        case movedToForeground
        case unlocked
        case movedToBackground
        case locked
        case forceQuit
        case systemTerminated
        case terminatedFor(DeviceRule)
        case suspended(hasFullAlways: Bool)
        case cutoffFired(generation: Int, atSeconds: Double)
        case wakeWindowEnded(generation: Int, hasFullAlways: Bool)
        case eventNeedsApp(LaunchReason, hasFullAlways: Bool = false)
    }

    /// Inputs other than the timers arrive at 10 s.
    static let now = time(10)

    static func apply(_ input: Input, to machine: inout Machine) -> Machine.Action? {
        switch input {
        case .launched: machine.userLaunchedApp()
        case .movedToForeground: machine.userMovedAppToForeground()
        case .unlocked: machine.userUnlockedScreen()
        case .movedToBackground: machine.userMovedAppToBackground(at: now)
        case .locked: machine.userLockedScreen(at: now)
        case .forceQuit: machine.userForceQuitApp()
        case .systemTerminated: machine.systemTerminatedApp()
        case .terminatedFor(let rule): machine.systemTerminatedApp(for: rule)
        case .suspended(let hasFullAlways): machine.systemSuspendedApp(hasFullAlways: hasFullAlways)
        case .cutoffFired(let generation, let seconds): machine.cutoffTimerFired(generation: generation, at: time(seconds))
        case .wakeWindowEnded(let generation, let hasFullAlways):
            machine.wakeWindowEnded(generation: generation, hasFullAlways: hasFullAlways, at: now)
        case .eventNeedsApp(let reason, let hasFullAlways):
            machine.eventNeedsApp(reason, hasFullAlways: hasFullAlways, at: now)
        }
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var rule: String
        var start: State
        var screen = ScreenLock()
        var input: Input
        var next: State
        var nextScreen: ScreenLock? = nil
        var action: Machine.Action? = nil
        var parameters = LifecycleStateMachineTests.parameters

        var testDescription: String { rule }
    }

    static let left = time(0)
    static let wakeEnds = time(5)
    static let cutoffTimer = Machine.ScheduledTimer(timer: .inUseCutoff(generation: 1), due: time(10 + cutoff))
    static let wakeTimer = Machine.ScheduledTimer(timer: .wakeWindowEnded(generation: 1), due: time(10 + wakeWindow))
    static let locked = ScreenLock(isLocked: true, unlockReturnsToApp: false)
    static let lockedOverApp = ScreenLock(isLocked: true, unlockReturnsToApp: true)
    static let noRelaunchAfterForceQuit: DeviceParameters = {
        var parameters = DeviceParameters()
        parameters.regionRelaunchAfterForceQuit = false
        return parameters
    }()
    static let ios18: DeviceParameters = {
        var parameters = DeviceParameters()
        parameters.osProfile = .ios18
        return parameters
    }()

    static let rows: [Row] = [
        // Opening the app.
        Row(
            rule: "launch: no process, a new one in the foreground", start: .notRunning, screen: locked,
            input: .launched, next: .foreground(idle), nextScreen: ScreenLock(), action: .launchInForeground),
        Row(
            rule: "launch: after a system termination, a new process", start: .terminatedBySystem, input: .launched,
            next: .foreground(idle), action: .launchInForeground),
        Row(
            rule: "launch: after a force quit, a new process", start: .forceQuit, input: .launched,
            next: .foreground(idle), action: .launchInForeground),
        Row(
            rule: "launch: in the foreground, nothing new", start: .foreground(backgroundSession), input: .launched,
            next: .foreground(backgroundSession)),
        Row(
            rule: "launch: a background process comes forward, services kept, screen unlocked",
            start: .background(backgroundSession, leftForegroundAt: left, wakeWindowEndsAt: wakeEnds), screen: locked,
            input: .launched, next: .foreground(backgroundSession), nextScreen: ScreenLock()),
        Row(
            rule: "launch: a suspended process comes forward with what it started",
            start: .suspended(alwaysUpdates, leftForegroundAt: left), input: .launched, next: .foreground(alwaysUpdates)),
        // Switching back.
        Row(
            rule: "foreground: from the background", start: .background(idle, leftForegroundAt: left, wakeWindowEndsAt: nil),
            input: .movedToForeground, next: .foreground(idle)),
        Row(
            rule: "foreground: from suspension", start: .suspended(idle, leftForegroundAt: nil),
            input: .movedToForeground, next: .foreground(idle)),
        Row(
            rule: "foreground: ignored without a process", start: .notRunning, input: .movedToForeground,
            next: .notRunning),
        Row(
            rule: "foreground: ignored after a termination", start: .terminatedBySystem, input: .movedToForeground,
            next: .terminatedBySystem),
        Row(
            rule: "foreground: ignored after a force quit", start: .forceQuit, input: .movedToForeground,
            next: .forceQuit),
        // Unlocking.
        Row(
            rule: "unlock: the lock covered the app, so it comes back",
            start: .background(idle, leftForegroundAt: left, wakeWindowEndsAt: nil), screen: lockedOverApp,
            input: .unlocked, next: .foreground(idle), nextScreen: ScreenLock()),
        Row(
            rule: "unlock: a suspended app the lock covered comes back", start: .suspended(idle, leftForegroundAt: left),
            screen: lockedOverApp, input: .unlocked, next: .foreground(idle), nextScreen: ScreenLock()),
        Row(
            rule: "unlock: ignored when the app was not in the foreground before the lock",
            start: .background(idle, leftForegroundAt: left, wakeWindowEndsAt: nil), screen: locked, input: .unlocked,
            next: .background(idle, leftForegroundAt: left, wakeWindowEndsAt: nil), nextScreen: ScreenLock()),
        Row(
            rule: "unlock: without a process only the screen unlocks (and the return is used up)",
            start: .terminatedBySystem, screen: lockedOverApp, input: .unlocked, next: .terminatedBySystem,
            nextScreen: ScreenLock()),
        Row(
            rule: "unlock: a switch back left the return armed; the next unlock still brings the app forward",
            start: .background(idle, leftForegroundAt: left, wakeWindowEndsAt: nil),
            screen: ScreenLock(isLocked: false, unlockReturnsToApp: true), input: .unlocked, next: .foreground(idle),
            nextScreen: ScreenLock()),
        // Leaving and locking (a4 #1, #3).
        Row(
            rule: "background: leaving the foreground starts the cutoff", start: .foreground(activitySession),
            input: .movedToBackground,
            next: .background(activitySession, leftForegroundAt: now, wakeWindowEndsAt: nil),
            action: .schedule(cutoffTimer)),
        Row(
            rule: "background: ignored in the background",
            start: .background(idle, leftForegroundAt: nil, wakeWindowEndsAt: wakeEnds), input: .movedToBackground,
            next: .background(idle, leftForegroundAt: nil, wakeWindowEndsAt: wakeEnds)),
        Row(
            rule: "background: ignored while suspended", start: .suspended(idle, leftForegroundAt: left),
            input: .movedToBackground, next: .suspended(idle, leftForegroundAt: left)),
        Row(
            rule: "background: ignored without a process", start: .notRunning, input: .movedToBackground,
            next: .notRunning),
        Row(
            rule: "lock: over the foreground app, leaves it and arms the return", start: .foreground(idle),
            input: .locked, next: .background(idle, leftForegroundAt: now, wakeWindowEndsAt: nil),
            nextScreen: lockedOverApp, action: .schedule(cutoffTimer)),
        Row(
            rule: "lock: over a background app, the screen only",
            start: .background(idle, leftForegroundAt: left, wakeWindowEndsAt: nil),
            screen: ScreenLock(isLocked: false, unlockReturnsToApp: true), input: .locked,
            next: .background(idle, leftForegroundAt: left, wakeWindowEndsAt: nil), nextScreen: locked),
        Row(
            rule: "lock: without a process, the screen only", start: .notRunning, input: .locked, next: .notRunning,
            nextScreen: locked),
        // Force quit and termination.
        Row(
            rule: "forceQuitStopsEverything: ignored before a launch", start: .notRunning, input: .forceQuit,
            next: .notRunning),
        Row(
            rule: "forceQuitStopsEverything: from the foreground", start: .foreground(backgroundSession),
            screen: locked, input: .forceQuit, next: .forceQuit, nextScreen: locked,
            action: .terminate(.forceQuitStopsEverything)),
        Row(
            rule: "forceQuitStopsEverything: from suspension", start: .suspended(idle, leftForegroundAt: left),
            input: .forceQuit, next: .forceQuit, action: .terminate(.forceQuitStopsEverything)),
        Row(
            rule: "forceQuitStopsEverything: after a termination, ended again", start: .terminatedBySystem,
            input: .forceQuit, next: .forceQuit, action: .terminate(.forceQuitStopsEverything)),
        Row(
            rule: "forceQuitStopsEverything: a force-quit app ended again", start: .forceQuit, input: .forceQuit,
            next: .forceQuit, action: .terminate(.forceQuitStopsEverything)),
        Row(
            rule: "suspendedAppsReceiveNothing: memory pressure ignored before a launch", start: .notRunning,
            input: .systemTerminated, next: .notRunning),
        Row(
            rule: "suspendedAppsReceiveNothing: memory pressure ends a background app",
            start: .background(alwaysUpdates, leftForegroundAt: nil, wakeWindowEndsAt: wakeEnds),
            input: .systemTerminated, next: .terminatedBySystem, action: .terminate(.suspendedAppsReceiveNothing)),
        Row(
            rule: "suspendedAppsReceiveNothing: memory pressure ends a force-quit app as terminated",
            start: .forceQuit, input: .systemTerminated, next: .terminatedBySystem,
            action: .terminate(.suspendedAppsReceiveNothing)),
        Row(
            rule: "backgroundUpdatesWithoutModeCrash: a crash ends the app whatever its phase", start: .notRunning,
            input: .terminatedFor(.backgroundUpdatesWithoutModeCrash), next: .terminatedBySystem,
            action: .terminate(.backgroundUpdatesWithoutModeCrash)),
        Row(
            rule: "motionMissingUsageKeyCrashes: a crash ends a foreground app", start: .foreground(idle),
            input: .terminatedFor(.motionMissingUsageKeyCrashes), next: .terminatedBySystem,
            action: .terminate(.motionMissingUsageKeyCrashes)),
        // Suspension (a4 #2) and what keeps a background app running (a4 #4, #8).
        Row(
            rule: "suspend: a background app with nothing keeping it",
            start:
                .background(idle, leftForegroundAt: left, wakeWindowEndsAt: wakeEnds),
            input: .suspended(hasFullAlways: true), next: .suspended(idle, leftForegroundAt: left)),
        Row(
            rule: "suspend: background updates started in the foreground keep it running",
            start: .background(backgroundSession, leftForegroundAt: left, wakeWindowEndsAt: nil),
            input: .suspended(hasFullAlways: false),
            next: .background(backgroundSession, leftForegroundAt: left, wakeWindowEndsAt: nil)),
        Row(
            rule: "suspend: an activity session keeps it running",
            start: .background(activitySession, leftForegroundAt: left, wakeWindowEndsAt: nil),
            input: .suspended(hasFullAlways: false),
            next: .background(activitySession, leftForegroundAt: left, wakeWindowEndsAt: nil)),
        Row(
            rule: "suspend: background updates under full Always keep it running",
            start: .background(alwaysUpdates, leftForegroundAt: nil, wakeWindowEndsAt: nil),
            input: .suspended(hasFullAlways: true),
            next: .background(alwaysUpdates, leftForegroundAt: nil, wakeWindowEndsAt: nil)),
        Row(
            rule: "suspend: the same updates without full Always do not",
            start: .background(alwaysUpdates, leftForegroundAt: nil, wakeWindowEndsAt: nil),
            input: .suspended(hasFullAlways: false), next: .suspended(alwaysUpdates, leftForegroundAt: nil)),
        Row(
            rule: "suspend: ignored in the foreground", start: .foreground(idle), input: .suspended(hasFullAlways: false),
            next: .foreground(idle)),
        Row(
            rule: "suspend: ignored without a process", start: .terminatedBySystem,
            input: .suspended(hasFullAlways: false), next: .terminatedBySystem),
        // The When-In-Use cutoff timer (a4 #3, a1 #12).
        Row(
            rule: "whenInUseStopsAfterCutoff: the current timer after the cutoff stops the app being in use",
            start: .background(idle, leftForegroundAt: left, wakeWindowEndsAt: nil),
            input: .cutoffFired(generation: 0, atSeconds: cutoff),
            next: .background(idle, leftForegroundAt: left, wakeWindowEndsAt: nil), action: .stopBeingInUse),
        Row(
            rule: "whenInUseStopsAfterCutoff: the cutoff also runs while suspended",
            start: .suspended(idle, leftForegroundAt: left), input: .cutoffFired(generation: 0, atSeconds: cutoff),
            next: .suspended(idle, leftForegroundAt: left), action: .stopBeingInUse),
        Row(
            rule: "inUseIncludesCutoffAfterForeground: a timer before the cutoff changes nothing",
            start: .background(idle, leftForegroundAt: left, wakeWindowEndsAt: nil),
            input: .cutoffFired(generation: 0, atSeconds: cutoff - 1),
            next: .background(idle, leftForegroundAt: left, wakeWindowEndsAt: nil)),
        Row(
            rule: "cutoff: a stale generation is ignored",
            start: .background(idle, leftForegroundAt: left, wakeWindowEndsAt: nil),
            input: .cutoffFired(generation: 7, atSeconds: cutoff + 100),
            next: .background(idle, leftForegroundAt: left, wakeWindowEndsAt: nil)),
        Row(
            rule: "backgroundSessionKeepsInUse: a session keeps the app in use past the cutoff",
            start: .background(backgroundSession, leftForegroundAt: left, wakeWindowEndsAt: nil),
            input: .cutoffFired(generation: 0, atSeconds: cutoff + 100),
            next: .background(backgroundSession, leftForegroundAt: left, wakeWindowEndsAt: nil)),
        Row(
            rule: "cutoff: ignored in the foreground", start: .foreground(idle),
            input: .cutoffFired(generation: 0, atSeconds: cutoff), next: .foreground(idle)),
        // The wake window (a4 #11).
        Row(
            rule: "wake window: a background launch is suspended when it ends",
            start: .background(idle, leftForegroundAt: nil, wakeWindowEndsAt: wakeEnds),
            input: .wakeWindowEnded(generation: 0, hasFullAlways: true), next: .suspended(idle, leftForegroundAt: nil)),
        Row(
            rule: "wake window: background updates under full Always keep it running, the window closed",
            start: .background(alwaysUpdates, leftForegroundAt: nil, wakeWindowEndsAt: wakeEnds),
            input: .wakeWindowEnded(generation: 0, hasFullAlways: true),
            next: .background(alwaysUpdates, leftForegroundAt: nil, wakeWindowEndsAt: nil)),
        Row(
            rule: "wokenAppSuspendedAfterWakeWindow: an app that left the foreground earlier is suspended too",
            start: .background(idle, leftForegroundAt: left, wakeWindowEndsAt: wakeEnds),
            input: .wakeWindowEnded(generation: 0, hasFullAlways: false),
            next: .suspended(idle, leftForegroundAt: left)),
        Row(
            rule: "wake window: a stale generation is ignored",
            start: .background(idle, leftForegroundAt: nil, wakeWindowEndsAt: wakeEnds),
            input: .wakeWindowEnded(generation: 3, hasFullAlways: false),
            next: .background(idle, leftForegroundAt: nil, wakeWindowEndsAt: wakeEnds)),
        Row(
            rule: "wake window: ignored in the foreground", start: .foreground(idle),
            input: .wakeWindowEnded(generation: 0, hasFullAlways: false), next: .foreground(idle)),
        // Events that need the app (a6 #7, a5 #5, a4 #11).
        Row(
            rule: "event: a foreground app takes it as it is", start: .foreground(idle),
            input: .eventNeedsApp(.regionEvent), next: .foreground(idle)),
        Row(
            rule: "wakeWindowAfterRelaunch: a background app nothing keeps running gets a full window for the event",
            start: .background(idle, leftForegroundAt: left, wakeWindowEndsAt: nil), input: .eventNeedsApp(.visit),
            next: .background(idle, leftForegroundAt: left, wakeWindowEndsAt: wakeTimer.due),
            action: .schedule(wakeTimer)),
        Row(
            rule: "wakeWindowAfterRelaunch: an event inside a wake window starts a full one again",
            start: .background(idle, leftForegroundAt: nil, wakeWindowEndsAt: wakeEnds), input: .eventNeedsApp(.visit),
            next: .background(idle, leftForegroundAt: nil, wakeWindowEndsAt: wakeTimer.due),
            action: .schedule(wakeTimer)),
        Row(
            rule: "event: a background app a service keeps running takes it as it is",
            start: .background(alwaysUpdates, leftForegroundAt: left, wakeWindowEndsAt: nil),
            input: .eventNeedsApp(.visit, hasFullAlways: true),
            next: .background(alwaysUpdates, leftForegroundAt: left, wakeWindowEndsAt: nil)),
        Row(
            rule: "event: a suspended app is woken into the background for the window",
            start: .suspended(alwaysUpdates, leftForegroundAt: left), input: .eventNeedsApp(.significantChange),
            next: .background(alwaysUpdates, leftForegroundAt: left, wakeWindowEndsAt: wakeTimer.due),
            action: .schedule(wakeTimer)),
        Row(
            rule: "event: an app never launched is launched into the background", start: .notRunning,
            screen: locked, input: .eventNeedsApp(.visit),
            next: .background(idle, leftForegroundAt: nil, wakeWindowEndsAt: wakeTimer.due), nextScreen: locked,
            action: .launchInBackground(.visit, wakeWindow: wakeTimer)),
        Row(
            rule: "event: a terminated app is relaunched into the background", start: .terminatedBySystem,
            input: .eventNeedsApp(.significantChange),
            next: .background(idle, leftForegroundAt: nil, wakeWindowEndsAt: wakeTimer.due),
            action: .launchInBackground(.significantChange, wakeWindow: wakeTimer)),
        Row(
            rule: "forceQuitRelaunchOnLocationEvents: a region crossing relaunches a force-quit app on ios18",
            start: .forceQuit, input: .eventNeedsApp(.regionEvent),
            next: .background(idle, leftForegroundAt: nil, wakeWindowEndsAt: wakeTimer.due),
            action: .launchInBackground(.regionEvent, wakeWindow: wakeTimer), parameters: ios18),
        Row(
            rule: "forceQuitRelaunchOnLocationEvents: so does a significant change on ios18", start: .forceQuit,
            input: .eventNeedsApp(.significantChange),
            next: .background(idle, leftForegroundAt: nil, wakeWindowEndsAt: wakeTimer.due),
            action: .launchInBackground(.significantChange, wakeWindow: wakeTimer), parameters: ios18),
        Row(
            rule: "forceQuitNoRelaunchOnIOS26: a region crossing leaves a force-quit app gone on ios26",
            start: .forceQuit, input: .eventNeedsApp(.regionEvent), next: .forceQuit,
            action: .refuseEvent(.forceQuitNoRelaunchOnIOS26)),
        Row(
            rule: "forceQuitNoRelaunchOnIOS26: and so does a significant change", start: .forceQuit,
            input: .eventNeedsApp(.significantChange), next: .forceQuit,
            action: .refuseEvent(.forceQuitNoRelaunchOnIOS26)),
        Row(
            rule: "forceQuitStopsEverything: a visit cannot relaunch a force-quit app", start: .forceQuit,
            input: .eventNeedsApp(.visit), next: .forceQuit, action: .refuseEvent(.forceQuitStopsEverything)),
        Row(
            rule: "forceQuitStopsEverything: nor a region crossing when the parameter says so", start: .forceQuit,
            input: .eventNeedsApp(.regionEvent), next: .forceQuit, action: .refuseEvent(.forceQuitStopsEverything),
            parameters: noRelaunchAfterForceQuit),
    ]

    @Test("the documented next state, screen and action", arguments: rows)
    func transition(_ row: Row) {
        var machine = Machine(state: row.start, screen: row.screen, parameters: row.parameters)
        let action = Self.apply(row.input, to: &machine)
        #expect(machine.state == row.next)
        #expect(machine.screen == (row.nextScreen ?? row.screen))
        #expect(action == row.action)
    }

    @Test("the payload-free phase names every state")
    func phaseNames() {
        let pairs: [(State, AppPhase)] = [
            (.notRunning, .notRunning), (.foreground(Self.idle), .foreground),
            (.background(Self.idle, leftForegroundAt: nil, wakeWindowEndsAt: nil), .background),
            (.suspended(Self.idle, leftForegroundAt: nil), .suspended), (.terminatedBySystem, .terminatedBySystem),
            (.forceQuit, .forceQuit),
        ]
        for (state, phase) in pairs {
            let machine = Machine(state: state)
            #expect(machine.phase == phase)
            #expect(machine.isRunning == phase.isRunning)
        }
    }

    @Test("a timer from before a return to the foreground is stale; the one after it is not")
    func generations() {
        var machine = Machine(state: .foreground(Self.idle))
        guard case .schedule(let first)? = machine.userMovedAppToBackground(at: Self.time(0)) else {
            Issue.record("leaving the foreground schedules the cutoff")
            return
        }
        #expect(machine.userMovedAppToForeground() == nil)
        guard case .schedule(let second)? = machine.userMovedAppToBackground(at: Self.time(20)) else {
            Issue.record("leaving the foreground again schedules a new cutoff")
            return
        }
        #expect(first.timer != second.timer)
        guard case .inUseCutoff(let stale) = first.timer, case .inUseCutoff(let current) = second.timer else {
            Issue.record("both are cutoff timers")
            return
        }
        #expect(machine.cutoffTimerFired(generation: stale, at: first.due) == nil)
        #expect(machine.cutoffTimerFired(generation: current, at: second.due) == .stopBeingInUse)
        // A process ending makes every timer of the old one stale.
        _ = machine.systemTerminatedApp()
        #expect(machine.cutoffGeneration > current)
    }

    @Test("in use: foreground, within the cutoff after leaving, or held by a session while running")
    func inUse() {
        let cutoff = Self.cutoff
        #expect(Machine(state: .foreground(Self.idle)).isInUse(at: Self.time(10_000)))
        let left = Machine(state: .background(Self.idle, leftForegroundAt: Self.left, wakeWindowEndsAt: nil))
        #expect(left.isInUse(at: Self.time(cutoff - 1)))
        #expect(!left.isInUse(at: Self.time(cutoff)))
        let launched = Machine(state: .background(Self.idle, leftForegroundAt: nil, wakeWindowEndsAt: Self.wakeEnds))
        #expect(!launched.isInUse(at: Self.time(1)))
        let session = Machine(
            state: .background(Self.backgroundSession, leftForegroundAt: Self.left, wakeWindowEndsAt: nil))
        #expect(session.isInUse(at: Self.time(cutoff * 10)))
        // The session needs the background mode in the Info.plist (a4 #4, #8).
        let withoutMode = Machine(
            state: .background(Self.backgroundSession, leftForegroundAt: Self.left, wakeWindowEndsAt: nil),
            hasLocationBackgroundMode: false)
        #expect(!withoutMode.isInUse(at: Self.time(cutoff * 10)))
        // Suspended, a session does not count; the cutoff still does.
        let suspended = Machine(state: .suspended(Self.backgroundSession, leftForegroundAt: Self.left))
        #expect(suspended.isInUse(at: Self.time(cutoff - 1)))
        #expect(!suspended.isInUse(at: Self.time(cutoff)))
        #expect(!Machine(state: .terminatedBySystem).isInUse(at: Self.time(0)))
    }

    @Test("the app's services: kept in the process, remembered as started in the foreground or not")
    func services() {
        let options = LocationUpdateOptions(allowsBackgroundLocationUpdates: true)
        var foreground = Machine(state: .foreground(Self.idle))
        foreground.locationUpdatesStarted(options, at: Self.time(10))
        #expect(foreground.state == .foreground(Self.backgroundSession))
        #expect(foreground.runningUpdateOptions == options)
        foreground.locationUpdatesPaused()
        #expect(foreground.isUpdatingLocation && foreground.runningUpdateOptions == nil)
        foreground.locationUpdatesStopped()
        #expect(!foreground.isUpdatingLocation)

        var background = Machine(state: .background(Self.idle, leftForegroundAt: nil, wakeWindowEndsAt: nil))
        background.locationUpdatesStarted(options, at: Self.time(10))
        #expect(background.state == .background(Self.alwaysUpdates, leftForegroundAt: nil, wakeWindowEndsAt: nil))
        // An activity session starts only while in use (a4 #8): not in a background launch.
        background.activitySessionStarted(at: Self.time(10))
        #expect(background.process?.hasActivitySession == false)
        foreground.activitySessionStarted(at: Self.time(10))
        #expect(foreground.process?.hasActivitySession == true)
        foreground.activitySessionEnded()
        #expect(foreground.process?.hasActivitySession == false)
        var withoutMode = Machine(state: .foreground(Self.idle), hasLocationBackgroundMode: false)
        withoutMode.activitySessionStarted(at: Self.time(10))
        #expect(withoutMode.process?.hasActivitySession == false)

        // Without a process there is nothing to start.
        var ended = Machine(state: .terminatedBySystem)
        ended.locationUpdatesStarted(options, at: Self.time(10))
        ended.motionUpdatesStarted()
        #expect(ended.state == .terminatedBySystem && !ended.isUpdatingLocation && !ended.isMotionRunning)

        // A relaunch starts a process without the old one's services (a4 #11, #12).
        var relaunched = Machine(state: .foreground(Self.idle))
        relaunched.motionUpdatesStarted()
        relaunched.locationUpdatesStarted(options, at: Self.time(10))
        _ = relaunched.userForceQuitApp()
        _ = relaunched.userLaunchedApp()
        #expect(relaunched.state == .foreground(Self.idle))
    }
}

/// Through `Device`: the inputs the device must ignore.
@Suite("Device lifecycle: ignored inputs")
struct DeviceLifecycleIgnoredInputTests {
    static let start = SimInstant(nanosecondsSinceEpoch: 1_700_000_000_000_000_000)

    static func time(_ seconds: Double) -> SimInstant { start.advanced(byNanoseconds: Int64(seconds * 1e9)) }

    @Test("suspendedAppsReceiveNothing: an app request while suspended is ignored")
    func requestWhileSuspended() {
        var device = Device()
        _ = device.handle(.user(.launchedApp), at: Self.time(0))
        _ = device.handle(.user(.movedAppToBackground), at: Self.time(1))
        _ = device.handle(.system(.suspendedApp), at: Self.time(2))
        #expect(device.lifecycle.phase == .suspended)
        #expect(device.handle(.app(.requestedWhenInUse), at: Self.time(3)).isEmpty)
        #expect(device.handle(.app(.startedLocationUpdates(LocationUpdateOptions())), at: Self.time(3)).isEmpty)
        #expect(device.promptLog.isEmpty)
        #expect(!device.isUpdatingLocation)
        #expect(device.authorization.state.status == .notDetermined)
        // The same request from the foreground shows the prompt.
        _ = device.handle(.user(.movedAppToForeground), at: Self.time(4))
        #expect(device.handle(.app(.requestedWhenInUse), at: Self.time(5)) == [.promptShown(.location)])
    }

    @Test("an unlock after a lock that did not cover the app leaves it in the background")
    func unlockWithoutForegroundBeforeLock() {
        var device = Device()
        _ = device.handle(.user(.launchedApp), at: Self.time(0))
        _ = device.handle(.user(.movedAppToBackground), at: Self.time(1))
        _ = device.handle(.user(.lockedScreen), at: Self.time(2))
        #expect(device.lifecycle.isScreenLocked)
        #expect(device.handle(.user(.unlockedScreen), at: Self.time(3)).isEmpty)
        #expect(device.lifecycle.phase == .background)
        #expect(!device.lifecycle.isScreenLocked)
    }

    @Test("a cutoff timer made stale by a return to the foreground is ignored")
    func staleCutoff() {
        var configuration = Device.Configuration()
        configuration.authorization.storedStatus = .authorizedWhenInUse
        configuration.authorization.isAllowOnce = true
        var device = Device(configuration: configuration)
        _ = device.handle(.user(.launchedApp), at: Self.time(0))
        let left = device.handle(.user(.movedAppToBackground), at: Self.time(1))
        guard case .schedule(let stale, _)? = left.first else {
            Issue.record("leaving the foreground schedules the cutoff")
            return
        }
        _ = device.handle(.user(.movedAppToForeground), at: Self.time(2))
        let current = device.handle(.user(.movedAppToBackground), at: Self.time(3))
        // Fired late, past every cutoff, the stale timer still changes nothing: Allow Once stays.
        let late = Self.time(3 + device.parameters.whenInUseLockCutoffSeconds + 10)
        #expect(!device.isInUse(at: late))
        #expect(device.handle(.system(.timerFired(stale)), at: late).isEmpty)
        #expect(device.authorization.state.status == .authorizedWhenInUse)
        // A stale wake-window timer changes nothing either.
        #expect(device.handle(.system(.timerFired(.wakeWindowEnded(generation: -1))), at: late).isEmpty)
        #expect(device.lifecycle.phase == .background)
        // The current one ends Allow Once (a1 #12).
        guard case .schedule(let timer, _)? = current.first else {
            Issue.record("leaving the foreground again schedules a new cutoff")
            return
        }
        #expect(
            device.handle(.system(.timerFired(timer)), at: late) == [.authorizationChanged(.notDetermined, .fullAccuracy)])
    }
}
