import SimulationCore

/// The person's and the system's lifecycle inputs, fed to `LifecycleStateMachine`, and what
/// its actions mean for the app and for authorization.
extension Device {
    mutating func handleUser(_ action: UserAction, at now: SimInstant, into actions: inout [DeviceAction]) {
        switch action {
        case .launchedApp:
            perform(lifecycle.userLaunchedApp(), at: now, into: &actions)
        case .movedAppToForeground:
            perform(lifecycle.userMovedAppToForeground(), at: now, into: &actions)
        case .unlockedScreen:
            perform(lifecycle.userUnlockedScreen(), at: now, into: &actions)
        case .movedAppToBackground:
            perform(lifecycle.userMovedAppToBackground(at: now), at: now, into: &actions)
        case .lockedScreen:
            perform(lifecycle.userLockedScreen(at: now), at: now, into: &actions)
        case .forceQuitApp:
            perform(lifecycle.userForceQuitApp(), at: now, into: &actions)
        case .answeredPrompt(let answer):
            if let kind = authorization.state.promptOnScreen {
                promptLog.append(PromptLogEntry(time: now, kind: kind, outcome: .answered(answer)))
            }
            authorize(.promptAnswered(answer), at: now, into: &actions)
        case .changedSettings(let change):
            authorize(.settingsChanged(change), at: now, into: &actions)
        }
    }

    mutating func handleSystem(_ event: SystemEvent, at now: SimInstant, into actions: inout [DeviceAction]) {
        switch event {
        case .terminatedApp:
            perform(lifecycle.systemTerminatedApp(), at: now, into: &actions)
        case .suspendedApp:
            perform(
                lifecycle.systemSuspendedApp(hasFullAlways: authorization.state.isFullAlways), at: now, into: &actions)
        case .timerFired(.inUseCutoff(let generation)):
            perform(lifecycle.cutoffTimerFired(generation: generation, at: now), at: now, into: &actions)
        case .timerFired(.wakeWindowEnded(let generation)):
            perform(
                lifecycle.wakeWindowEnded(
                    generation: generation, hasFullAlways: authorization.state.isFullAlways, at: now),
                at: now,
                into: &actions)
        case .timerFired(.allowOnceLapse), .timerFired(.regionEventsDue):
            // The authorization and region timers (Device+Authorization, Device+BackgroundEvents).
            if case .timerFired(let timer) = event { serviceTimerFired(timer, at: now, into: &actions) }
        case .timerFired(.suspensionDue(let generation)):
            perform(
                lifecycle.suspensionTimerFired(
                    generation: generation, hasFullAlways: authorization.state.isFullAlways, at: now),
                at: now, into: &actions)
        }
    }

    /// After anything that may change what keeps the app running: arms (or moves) the automatic
    /// suspension (a4 #2), and hands the queued updates to an app that runs again.
    mutating func settleLifecycle(at now: SimInstant, into actions: inout [DeviceAction]) {
        if let timer = lifecycle.armSuspension(hasFullAlways: authorization.state.isFullAlways, at: now) {
            actions.append(.schedule(timer.timer, at: timer.due))
        }
        handOverToRunningApp(into: &actions)
    }

    /// What a suspended app missed, handed over when it runs again (in the foreground or the
    /// background): Core Location's enqueued updates in one `didUpdateLocations` (a4 #2), then
    /// the automatic pause that happened meanwhile, then the current motion activity
    /// (`resumedAppGetsCurrentMotion`).
    mutating func handOverToRunningApp(into actions: inout [DeviceAction]) {
        guard lifecycle.isRunning else { return }
        if !queuedLocations.isEmpty {
            for fix in queuedLocations { actions.append(.deliverLocation(fix)) }
            queuedLocations.removeAll(keepingCapacity: true)
        }
        if pauseNoticePending {
            pauseNoticePending = false
            actions.append(.locationUpdatesPaused)
        }
        if let sample = motionMissedWhileSuspended {
            motionMissedWhileSuspended = nil
            if motionRefusal == nil { actions.append(.deliverMotion(sample)) }
        }
    }

    /// Carries out what the lifecycle asked for, in the order iOS does it.
    mutating func perform(
        _ action: LifecycleStateMachine.Action?, at now: SimInstant, into actions: inout [DeviceAction]
    ) {
        guard let action else { return }
        switch action {
        case .schedule(let scheduled):
            actions.append(.schedule(scheduled.timer, at: scheduled.due))
        case .launchInForeground:
            // Models the temporary full-accuracy grant ending with the app session (a2 #9).
            authorize(.appLaunched, at: now, into: &actions)
            actions.append(.appLaunched(.user, inBackground: false))
        case .launchInBackground(let reason, let wakeWindow):
            authorize(.appLaunched, at: now, into: &actions)
            actions.append(.schedule(wakeWindow.timer, at: wakeWindow.due))
            actions.append(.appLaunched(reason, inBackground: true))
        case .terminate(let rule):
            // The queue belongs to the process's location manager; a new process starts empty.
            queuedLocations.removeAll()
            pauseNoticePending = false
            motionMissedWhileSuspended = nil
            actions.append(.appTerminated(rule))
            // A terminated app is no longer in use: Allow Once lapses now (a1 #12).
            authorize(.appStoppedBeingInUse, at: now, into: &actions)
        case .stopBeingInUse:
            authorize(.appStoppedBeingInUse, at: now, into: &actions)
        case .refuseEvent:
            // Only `eventNeedsApp` returns it, and `deliverBackgroundEvent` drops the event
            // itself before performing anything else.
            break
        }
    }
}
