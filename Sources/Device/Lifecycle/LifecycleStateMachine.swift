import SimulationCore

/// The app's lifecycle as iOS runs it: where the process is, what it has started, the screen
/// lock, and the When-In-Use "in use" definition that depends on all three.
///
/// A pure state machine in the swift-nio manner: one `State` with a payload per phase, so a
/// combination iOS cannot produce cannot be written; one `mutating func` per input, taking the
/// time as an argument and returning the one thing `Device` must do (`Action`), or `nil`.
/// Inputs that do not apply in the current phase (an unlock after a lock that did not cover
/// the app, a timer whose generation moved on) change nothing and return `nil`.
///
/// Where things live, and why: what the app's process started (`AppProcess`) is in the
/// payload of the phases that have a process, because it ends with the process; the screen lock
/// (`ScreenLock`) sits beside the state, because the screen belongs to the phone and outlives
/// the process; the timers' generations are plain counters beside it, because they must keep
/// growing across processes for a timer of an earlier one to be stale.
///
/// `Device` owns one and drives it from `DeviceEvent`s; read it through `Device.lifecycle`.
public struct LifecycleStateMachine: Sendable, Equatable {
    /// Where the process is, with what each phase needs to decide the next one.
    public enum State: Sendable, Equatable {
        /// Never launched in this replay.
        case notRunning
        /// On screen.
        case foreground(AppProcess)
        /// Running off screen. `leftForegroundAt` starts the When-In-Use cutoff (a4 #1, #3); it is
        /// `nil` for a process launched into the background. `wakeWindowEndsAt` is the end of the
        /// window a background launch or a wake for an event runs in (a4 #11), `nil` outside one.
        case background(AppProcess, leftForegroundAt: SimInstant?, wakeWindowEndsAt: SimInstant?)
        /// In memory, not running (a4 #2). Keeps what the process started, and when it left the
        /// foreground, since the When-In-Use cutoff still runs.
        case suspended(AppProcess, leftForegroundAt: SimInstant?)
        /// Ended by the system (memory pressure, a crash, a revoked permission).
        case terminatedBySystem
        /// Swiped away by the user.
        case forceQuit
    }

    /// A timer to schedule: which one, and when it comes due.
    package struct ScheduledTimer: Sendable, Equatable {
        /// The timer `Device` wants back as `SystemEvent.timerFired`.
        package var timer: DeviceTimer
        package var due: SimInstant

        package init(timer: DeviceTimer, due: SimInstant) {
            self.timer = timer
            self.due = due
        }
    }

    /// What `Device` does after an input; the machine itself only changes state.
    package enum Action: Sendable, Equatable {
        /// Ask the run loop for this timer: the When-In-Use cutoff after leaving the foreground, or
        /// the end of a wake window after a wake from suspension.
        case schedule(ScheduledTimer)
        /// The user opened an app that had no process: a new process in the foreground. The
        /// device ends the old session's temporary full accuracy (a2 #9) and tells the app.
        case launchInForeground
        /// An event relaunched the app into the background for `reason`; it runs until
        /// `wakeWindow` unless something keeps it alive (a4 #11).
        case launchInBackground(LaunchReason, wakeWindow: ScheduledTimer)
        /// The process ended, for this rule: the device tells the app, and Allow Once lapses
        /// since a terminated app is no longer in use (a1 #12).
        case terminate(DeviceRule)
        /// The When-In-Use cutoff passed and nothing keeps the app in use: Allow Once lapses
        /// (a1 #12).
        case stopBeingInUse
        /// Only from `eventNeedsApp`: the event cannot reach the app, for this rule.
        case refuseEvent(DeviceRule)
    }

    /// The current phase and its payload.
    public private(set) var state = State.notRunning
    /// The screen lock, kept beside the phase (see `ScreenLock`).
    public private(set) var screen = ScreenLock()
    /// Bumped whenever a scheduled cutoff or wake-window timer stops applying, so a stale one is
    /// ignored. Never reset: a timer of an earlier process is stale too.
    package private(set) var cutoffGeneration = 0
    package private(set) var wakeGeneration = 0
    package private(set) var suspensionGeneration = 0
    /// When the armed suspension timer comes due, `nil` when none is armed.
    package private(set) var suspensionDue: SimInstant?

    private let cutoffSeconds: Double
    private let wakeWindowSeconds: Double
    private let suspensionGraceSeconds: Double
    /// Why a region or significant-change event does not relaunch a force-quit app (`nil`: it
    /// does), from the OS profile and its overrides.
    private let regionForceQuitRefusal: DeviceRule?
    private let significantChangeForceQuitRefusal: DeviceRule?
    private let hasLocationBackgroundMode: Bool

    /// A machine for an app that has not been launched.
    /// - Parameters:
    ///   - parameters: the When-In-Use cutoff, the wake window, and whether region and
    ///     significant-change events relaunch a force-quit app.
    ///   - hasLocationBackgroundMode: the Info.plist declares the `location` background mode,
    ///     which a background session needs (a4 #4, #8).
    package init(parameters: DeviceParameters, hasLocationBackgroundMode: Bool) {
        cutoffSeconds = parameters.whenInUseLockCutoffSeconds
        wakeWindowSeconds = parameters.wakeWindowSeconds
        suspensionGraceSeconds = parameters.backgroundSuspensionGraceSeconds
        regionForceQuitRefusal = parameters.forceQuitRelaunchRefusal(for: .regionEvent)
        significantChangeForceQuitRefusal = parameters.forceQuitRelaunchRefusal(for: .significantChange)
        self.hasLocationBackgroundMode = hasLocationBackgroundMode
    }

    /// A machine already in `state`, for tests that start mid-story.
    package init(
        state: State, screen: ScreenLock = ScreenLock(), parameters: DeviceParameters = DeviceParameters(),
        hasLocationBackgroundMode: Bool = true
    ) {
        self.init(parameters: parameters, hasLocationBackgroundMode: hasLocationBackgroundMode)
        self.state = state
        self.screen = screen
    }

    // MARK: Reading the state

    /// The phase without its payload, as reports print it.
    @inlinable public var phase: AppPhase {
        switch state {
        case .notRunning: .notRunning
        case .foreground: .foreground
        case .background: .background
        case .suspended: .suspended
        case .terminatedBySystem: .terminatedBySystem
        case .forceQuit: .forceQuit
        }
    }

    /// The screen is locked (independent of the phase: it stays locked over a relaunch).
    @inlinable public var isScreenLocked: Bool { screen.isLocked }

    /// Whether the process runs code and can receive deliveries (foreground or background).
    package var isRunning: Bool { phase.isRunning }

    /// The process, while there is one (running or suspended).
    package var process: AppProcess? {
        switch state {
        case .foreground(let process), .background(let process, _, _), .suspended(let process, _): process
        case .notRunning, .terminatedBySystem, .forceQuit: nil
        }
    }

    /// Standard updates were requested by the current process and not stopped (paused ones
    /// count); `false` without a process.
    ///
    /// Inlinable, like `phase` and `isScreenLocked`: a replay reads them after every event.
    @inlinable public var isUpdatingLocation: Bool {
        switch state {
        case .foreground(let process), .background(let process, _, _), .suspended(let process, _):
            process.isUpdatingLocation
        case .notRunning, .terminatedBySystem, .forceQuit:
            false
        }
    }

    /// Standard updates run and are not paused: what keeps the receiver on for the app, also
    /// while it is suspended, since Core Location enqueues the updates for it (a4 #2). Paused
    /// updates power the hardware down (a4 #7).
    @inlinable public var hasRunningLocationUpdates: Bool {
        switch state {
        case .foreground(let process), .background(let process, _, _), .suspended(let process, _):
            if case .running = process.locationUpdates { true } else { false }
        case .notRunning, .terminatedBySystem, .forceQuit:
            false
        }
    }

    /// Motion-activity updates were started by the current process.
    package var isMotionRunning: Bool { process?.isMotionRunning ?? false }

    /// The options of running (not paused) location updates.
    package var runningUpdateOptions: LocationUpdateOptions? {
        guard case .running(let options, _)? = process?.locationUpdates else { return nil }
        return options
    }

    /// Models When-In-Use "in use" (a4 #3): in the foreground, within the cutoff after leaving
    /// it, or while a background session keeps a running app in use (a4 #4, #8).
    /// - Complexity: O(1); inlined, as delivery asks it for every fix.
    @inline(__always)
    public func isInUse(at now: SimInstant) -> Bool {
        switch state {
        case .foreground:
            return true
        case .background(let process, let left, _):
            if hasBackgroundSession(process) { return true }
            return isWithinCutoff(since: left, at: now)
        case .suspended(_, let left):
            return isWithinCutoff(since: left, at: now)
        case .notRunning, .terminatedBySystem, .forceQuit:
            return false
        }
    }

    private func isWithinCutoff(since left: SimInstant?, at now: SimInstant) -> Bool {
        guard let left else { return false }
        return now.seconds(since: left) < cutoffSeconds
    }

    /// Models the keep-alive of a When-In-Use app (a4 #4, #8): updates started in the
    /// foreground with the background mode and `allowsBackgroundLocationUpdates`, or an
    /// activity session.
    private func hasBackgroundSession(_ process: AppProcess) -> Bool {
        guard hasLocationBackgroundMode else { return false }
        if case .running(let options, let startedInForeground) = process.locationUpdates,
            options.allowsBackgroundLocationUpdates && startedInForeground
        {
            return true
        }
        return process.hasActivitySession
    }

    /// Whether a background process keeps running indefinitely instead of being suspended: a
    /// When-In-Use session, or Always (`hasFullAlways`: not provisional) with background updates
    /// running.
    private func keepsRunning(_ process: AppProcess, hasFullAlways: Bool) -> Bool {
        if hasBackgroundSession(process) { return true }
        guard hasFullAlways, case .running(let options, _) = process.locationUpdates else { return false }
        return options.allowsBackgroundLocationUpdates
    }

    /// How long a background process is kept running.
    private enum KeepAlive {
        /// Nothing keeps it: it is suspended after the grace.
        case nothing
        /// Running location updates keep it while it is in use, until this instant (the
        /// When-In-Use cutoff after leaving the foreground).
        case until(SimInstant)
        /// A service keeps it running until the service ends.
        case indefinitely
    }

    /// Models what keeps a backgrounded app from suspension (a4 #2, #4, #8): a service that
    /// keeps it running, or standard updates while the app is still in use (the grace period in
    /// which Apple says an app still receives its updates, a4 #3).
    private func keepAlive(
        _ process: AppProcess, left: SimInstant?, hasFullAlways: Bool, at now: SimInstant
    ) -> KeepAlive {
        if keepsRunning(process, hasFullAlways: hasFullAlways) { return .indefinitely }
        if case .running = process.locationUpdates, let left, isWithinCutoff(since: left, at: now) {
            return .until(left.advanced(bySeconds: cutoffSeconds))
        }
        return .nothing
    }

    // MARK: The person

    /// The user opened the app: an existing process comes to the foreground (even from the
    /// foreground, which restarts the timers' generations); otherwise a new one is launched.
    package mutating func userLaunchedApp() -> Action? {
        switch state {
        case .foreground(let process), .background(let process, _, _), .suspended(let process, _):
            enterForeground(process)
            return nil
        case .notRunning, .terminatedBySystem, .forceQuit:
            cutoffGeneration += 1
            wakeGeneration += 1
            state = .foreground(AppProcess())
            screen.isLocked = false
            return .launchInForeground
        }
    }

    /// The user switched back to the app: only a background or suspended process comes forward.
    package mutating func userMovedAppToForeground() -> Action? {
        switch state {
        case .background(let process, _, _), .suspended(let process, _):
            enterForeground(process)
        case .notRunning, .foreground, .terminatedBySystem, .forceQuit:
            break
        }
        return nil
    }

    /// The user unlocked the screen. The app comes back only if the lock covered it in the
    /// foreground; otherwise the unlock just unlocks.
    package mutating func userUnlockedScreen() -> Action? {
        screen.isLocked = false
        guard screen.unlockReturnsToApp else { return nil }
        screen.unlockReturnsToApp = false
        return userMovedAppToForeground()
    }

    /// The user switched away. Models leaving as the start of the When-In-Use cutoff (a4 #1, #3).
    package mutating func userMovedAppToBackground(at now: SimInstant) -> Action? {
        guard case .foreground(let process) = state else { return nil }
        state = .background(process, leftForegroundAt: now, wakeWindowEndsAt: nil)
        cutoffGeneration += 1
        let due = now.advanced(bySeconds: cutoffSeconds)
        return .schedule(ScheduledTimer(timer: .inUseCutoff(generation: cutoffGeneration), due: due))
    }

    /// The user locked the screen: over the foreground app this is leaving it (a4 #1, #3).
    package mutating func userLockedScreen(at now: SimInstant) -> Action? {
        screen.isLocked = true
        screen.unlockReturnsToApp = phase == .foreground
        return userMovedAppToBackground(at: now)
    }

    /// The user swiped the app away. Ends any phase but `notRunning`, a force-quit one again.
    package mutating func userForceQuitApp() -> Action? {
        if case .notRunning = state { return nil }
        return terminate(to: .forceQuit, rule: .forceQuitStopsEverything)
    }

    // MARK: The operating system

    /// The system ended the app under memory pressure. Ends any phase but `notRunning`.
    package mutating func systemTerminatedApp() -> Action? {
        if case .notRunning = state { return nil }
        return terminate(to: .terminatedBySystem, rule: .suspendedAppsReceiveNothing)
    }

    /// The system ended the app for `rule` (a crash, a revoked permission), whatever its phase.
    package mutating func systemTerminatedApp(for rule: DeviceRule) -> Action? {
        terminate(to: .terminatedBySystem, rule: rule)
    }

    /// The system suspends a background app unless something keeps it running.
    /// - Parameter hasFullAlways: Always that is not provisional.
    package mutating func systemSuspendedApp(hasFullAlways: Bool) -> Action? {
        guard case .background(let process, let left, _) = state, !keepsRunning(process, hasFullAlways: hasFullAlways)
        else { return nil }
        state = .suspended(process, leftForegroundAt: left)
        return nil
    }

    /// Arms, moves or disarms the automatic suspension of a background process (a4 #2): due
    /// `backgroundSuspensionGraceSeconds` after nothing keeps it running, or when the in-use
    /// period that keeps its updates running ends. A process in a wake window is left to that
    /// window's timer. Returns the timer to schedule when a new one is armed.
    /// - Parameter hasFullAlways: Always that is not provisional.
    package mutating func armSuspension(hasFullAlways: Bool, at now: SimInstant) -> ScheduledTimer? {
        guard case .background(let process, let left, nil) = state else {
            suspensionDue = nil
            return nil
        }
        let due: SimInstant
        switch keepAlive(process, left: left, hasFullAlways: hasFullAlways, at: now) {
        case .indefinitely:
            suspensionDue = nil
            return nil
        case .until(let end):
            due = end
        case .nothing:
            let graceEnd = now.advanced(bySeconds: suspensionGraceSeconds)
            if let armed = suspensionDue, armed <= graceEnd { return nil }
            due = graceEnd
        }
        if suspensionDue == due { return nil }
        suspensionGeneration += 1
        suspensionDue = due
        return ScheduledTimer(timer: .suspensionDue(generation: suspensionGeneration), due: due)
    }

    /// The automatic suspension timer fired: a background process that nothing keeps running
    /// any more is suspended. A stale generation changes nothing.
    package mutating func suspensionTimerFired(generation: Int, hasFullAlways: Bool, at now: SimInstant) -> Action? {
        guard generation == suspensionGeneration, suspensionDue != nil else { return nil }
        suspensionDue = nil
        guard case .background(let process, let left, nil) = state,
            case .nothing = keepAlive(process, left: left, hasFullAlways: hasFullAlways, at: now)
        else { return nil }
        state = .suspended(process, leftForegroundAt: left)
        return nil
    }

    /// The When-In-Use cutoff timer fired. A stale generation, or an app still in use, changes
    /// nothing.
    package mutating func cutoffTimerFired(generation: Int, at now: SimInstant) -> Action? {
        guard generation == cutoffGeneration, !isInUse(at: now) else { return nil }
        return .stopBeingInUse
    }

    /// The wake window timer fired: the background process is suspended again unless something
    /// keeps it running (a4 #11), whether it was launched into the background or woken after
    /// leaving the foreground earlier. A woken app that started a service keeping it running
    /// (Always with background updates, a4 #5, d 14) stays in the background.
    package mutating func wakeWindowEnded(generation: Int, hasFullAlways: Bool, at now: SimInstant) -> Action? {
        guard generation == wakeGeneration, case .background(let process, let left, .some) = state else { return nil }
        switch keepAlive(process, left: left, hasFullAlways: hasFullAlways, at: now) {
        case .indefinitely, .until:
            state = .background(process, leftForegroundAt: left, wakeWindowEndsAt: nil)
        case .nothing:
            state = .suspended(process, leftForegroundAt: left)
        }
        return nil
    }

    /// A region, significant-change or visit event needs an app the device may deliver to in
    /// the background (the device checked Always first). A running app just takes it; a
    /// suspended one is woken (a4 #11); one without a process is relaunched (a6 #7, a5 #5),
    /// except after a force quit, where a visit never relaunches it and a region or
    /// significant-change event only as the OS profile (or its override) says (a4 #13, d 6).
    /// Anything but `.refuseEvent` means the event is delivered.
    ///
    /// An app already running in the background that nothing keeps running (in the suspension
    /// grace, in the in-use period of its updates, or in another event's wake window) gets a
    /// full wake window from now, as a woken app does: the event's handler must not be cut short
    /// by a suspension that was due anyway.
    /// - Parameter hasFullAlways: Always that is not provisional (what keeps background updates
    ///   running).
    package mutating func eventNeedsApp(_ reason: LaunchReason, hasFullAlways: Bool, at now: SimInstant) -> Action? {
        switch state {
        case .foreground:
            return nil
        case .background(let process, let left, let windowEnd):
            if case .indefinitely = keepAlive(process, left: left, hasFullAlways: hasFullAlways, at: now) {
                return nil
            }
            // A window that already runs longer is kept (a shorter window never cuts one short).
            if let windowEnd, now.advanced(bySeconds: wakeWindowSeconds) <= windowEnd { return nil }
            wakeGeneration += 1
            let wakeWindow = makeWakeWindow(at: now)
            state = .background(process, leftForegroundAt: left, wakeWindowEndsAt: wakeWindow.due)
            return .schedule(wakeWindow)
        case .suspended(let process, let left):
            // Models the wake into the background for the event (a4 #11).
            wakeGeneration += 1
            let wakeWindow = makeWakeWindow(at: now)
            state = .background(process, leftForegroundAt: left, wakeWindowEndsAt: wakeWindow.due)
            return .schedule(wakeWindow)
        case .forceQuit:
            if let rule = forceQuitRefusal(for: reason) { return .refuseEvent(rule) }
            fallthrough
        case .terminatedBySystem, .notRunning:
            cutoffGeneration += 1
            wakeGeneration += 1
            let wakeWindow = makeWakeWindow(at: now)
            state = .background(AppProcess(), leftForegroundAt: nil, wakeWindowEndsAt: wakeWindow.due)
            return .launchInBackground(reason, wakeWindow: wakeWindow)
        }
    }

    // MARK: The app's own services (app code runs only in a running phase)

    /// `startUpdatingLocation()` passed the device's checks; the updates remember whether they
    /// started while the app was in use (the foreground or the grace after it, as issue 16
    /// reads a4 #4; Apple's page says "in the foreground").
    package mutating func locationUpdatesStarted(_ options: LocationUpdateOptions, at now: SimInstant) {
        let startedInForeground = startsWhileInUse(at: now)
        modifyProcess { $0.locationUpdates = .running(options, startedInForeground: startedInForeground) }
    }

    /// `stopUpdatingLocation()`.
    package mutating func locationUpdatesStopped() {
        modifyProcess { $0.locationUpdates = .stopped }
    }

    /// The OS paused running updates (`pausesLocationUpdatesAutomatically`).
    package mutating func locationUpdatesPaused() {
        modifyProcess { $0.locationUpdates = .paused }
    }

    /// Motion-activity updates started.
    package mutating func motionUpdatesStarted() {
        modifyProcess { $0.isMotionRunning = true }
    }

    /// Models `CLBackgroundActivitySession`: only while the app is in use, with the background
    /// mode (a4 #8); the device checks the authorization. The header says "foregrounded and in
    /// direct use"; issue 16 counts the grace after leaving the foreground as in use too.
    package mutating func activitySessionStarted(at now: SimInstant) {
        guard hasLocationBackgroundMode, startsWhileInUse(at: now) else { return }
        modifyProcess { $0.hasActivitySession = true }
    }

    /// In the foreground, or running in the background within the cutoff after leaving it.
    private func startsWhileInUse(at now: SimInstant) -> Bool {
        switch state {
        case .foreground: true
        case .background(_, let left, _): isWithinCutoff(since: left, at: now)
        case .notRunning, .suspended, .terminatedBySystem, .forceQuit: false
        }
    }

    /// The session was invalidated.
    package mutating func activitySessionEnded() {
        modifyProcess { $0.hasActivitySession = false }
    }

    // MARK: Transitions

    private mutating func enterForeground(_ process: AppProcess) {
        state = .foreground(process)
        screen.isLocked = false
        cutoffGeneration += 1
        wakeGeneration += 1
    }

    /// Models a process ending: what it started ends with it (a4 #11, #12); the OS keeps
    /// monitoring regions and significant change.
    private mutating func terminate(to ended: State, rule: DeviceRule) -> Action {
        state = ended
        cutoffGeneration += 1
        wakeGeneration += 1
        // The armed suspension belonged to the ended process: it must not suspend the next one.
        suspensionGeneration += 1
        suspensionDue = nil
        return .terminate(rule)
    }

    private func forceQuitRefusal(for reason: LaunchReason) -> DeviceRule? {
        switch reason {
        case .regionEvent: regionForceQuitRefusal
        case .significantChange: significantChangeForceQuitRefusal
        case .visit, .user: .forceQuitStopsEverything
        }
    }

    private func makeWakeWindow(at now: SimInstant) -> ScheduledTimer {
        ScheduledTimer(
            timer: .wakeWindowEnded(generation: wakeGeneration),
            due: now.advanced(bySeconds: wakeWindowSeconds))
    }

    private mutating func modifyProcess(_ change: (inout AppProcess) -> Void) {
        switch state {
        case .foreground(var process):
            change(&process)
            state = .foreground(process)
        case .background(var process, let left, let wakeWindowEndsAt):
            change(&process)
            state = .background(process, leftForegroundAt: left, wakeWindowEndsAt: wakeWindowEndsAt)
        case .suspended(var process, let left):
            change(&process)
            state = .suspended(process, leftForegroundAt: left)
        case .notRunning, .terminatedBySystem, .forceQuit:
            break
        }
    }
}
