import SimulationCore

/// Feeds `AuthorizationStateMachine` and turns its actions into the device's.
extension Device {
    /// What the authorization machine needs to know about the lifecycle.
    private var authorizationContext: AuthorizationStateMachine.Context {
        AuthorizationStateMachine.Context(isInForeground: lifecycle.phase == .foreground)
    }

    mutating func authorize(
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
