import SimulationCore

/// Feeds `AuthorizationStateMachine` and turns its actions into the device's.
extension Device {
    /// What the authorization machine needs to know about the lifecycle.
    private var authorizationContext: AuthorizationStateMachine.Context {
        AuthorizationStateMachine.Context(
            isInForeground: lifecycle.phase == .foreground, isScreenLocked: lifecycle.isScreenLocked)
    }

    /// After anything the person does: a deferred upgrade prompt waiting for a locked screen
    /// appears once the phone is unlocked in front of them (a1 #10, d 3). Cheap when nothing waits.
    mutating func offerWaitingPrompt(at now: SimInstant, into actions: inout [DeviceAction]) {
        guard authorization.state.isDeferredUpgradeAwaitingUser, !lifecycle.isScreenLocked else { return }
        authorize(.userCanSeeScreen, at: now, into: &actions)
    }

    /// Applies an authorization event. An app that stops being in use under Allow Once keeps
    /// it for `allowOnceLapseSeconds` more when that is set (a timer); a terminated app loses
    /// it at once (a1 #12, d 2).
    mutating func authorize(
        _ event: AuthorizationStateMachine.Event, at now: SimInstant, into actions: inout [DeviceAction]
    ) {
        if event == .appStoppedBeingInUse, parameters.allowOnceLapseSeconds > 0, authorization.state.isAllowOnce,
            lifecycle.process != nil
        {
            actions.append(
                .schedule(
                    .allowOnceLapse(generation: lifecycle.cutoffGeneration),
                    at: now.advanced(bySeconds: parameters.allowOnceLapseSeconds)))
            return
        }
        let answering = authorization.state.promptOnScreen
        apply(event, at: now, into: &actions)
        if case .promptAnswered = event, answering == .deferredAlwaysUpgrade {
            releaseHeldAlwaysEvent(at: now, into: &actions)
        }
    }

    /// A timer of the authorization or region services came due. Allow Once's lapse delay ran
    /// out: it lapses unless the app came back into use since. A region crossing's latency ran
    /// out: the crossings due now are delivered.
    mutating func serviceTimerFired(_ timer: DeviceTimer, at now: SimInstant, into actions: inout [DeviceAction]) {
        switch timer {
        case .allowOnceLapse(let generation):
            guard generation == lifecycle.cutoffGeneration, !isInUse(at: now) else { return }
            apply(.appStoppedBeingInUse, at: now, into: &actions)
        case .regionEventsDue:
            deliverDueRegionEvents(at: now, into: &actions)
        case .inUseCutoff, .wakeWindowEnded, .suspensionDue:
            // The lifecycle's timers; `handleSystem` gives them to the lifecycle machine.
            break
        }
    }

    private mutating func apply(
        _ event: AuthorizationStateMachine.Event, at now: SimInstant, into actions: inout [DeviceAction]
    ) {
        for action in authorization.handle(event, context: authorizationContext) {
            switch action {
            case .showPrompt(let kind):
                promptLog.append(PromptLogEntry(time: now, kind: kind, outcome: .shown))
                actions.append(.promptShown(kind))
            case .suppressPrompt(let kind, let rule):
                promptLog.append(PromptLogEntry(time: now, kind: kind, outcome: .suppressed(rule)))
                actions.append(.promptSuppressed(kind, rule))
            case .notifyAuthorizationChanged(let status, let accuracy):
                actions.append(.authorizationChanged(status, accuracy))
            case .completeTemporaryFullAccuracy(let granted):
                actions.append(.temporaryFullAccuracyCompleted(granted: granted))
            case .notifyMotionAuthorizationChanged(let status):
                actions.append(.motionAuthorizationChanged(status))
            case .notifyBluetoothAuthorizationChanged(let status):
                actions.append(.bluetoothAuthorizationChanged(status))
            case .terminateApp(let rule):
                perform(lifecycle.systemTerminatedApp(for: rule), at: now, into: &actions)
            }
        }
    }
}
