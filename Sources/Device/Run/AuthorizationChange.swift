import SimulationCore

/// One row of a run's authorization timeline: what the app was allowed, and whether it could
/// run, changed at `time`. With the prompt log it explains a run's gaps: a status or accuracy
/// change (an Allow Once lapse is a change back to `notDetermined`), a suspension, a wake.
public struct AuthorizationChange: Sendable, Equatable {
    /// What changed.
    public enum Kind: Sendable, Equatable {
        /// `locationManagerDidChangeAuthorization(_:)`: the status and accuracy the app is told;
        /// `provisional` when the Always it is told is provisional (it behaves as When-In-Use
        /// until the upgrade prompt is answered).
        case location(AuthorizationStatus, AccuracyAuthorization, provisional: Bool)
        /// Motion & Fitness for the app.
        case motion(MotionAuthorizationStatus)
        /// An Allow Once grant ended (the app stopped being in use, or the person reset it); the
        /// status change back to `notDetermined` follows.
        case allowOnceLapsed
        /// The app stopped running code (suspended in memory).
        case suspended
        /// A suspended app was woken in the background, for the event that woke it (a region, a
        /// significant change or a visit); `nil` when the step shows none.
        case woken(LaunchReason?)
        /// The app process started, for this reason (a relaunch in the background, or the user).
        case launched(LaunchReason, inBackground: Bool)
        /// The system ended the app, for this rule.
        case terminated(DeviceRule)
    }

    public var time: SimInstant
    public var kind: Kind

    public init(time: SimInstant, kind: Kind) {
        self.time = time
        self.kind = kind
    }

    /// A short stable token for reports: `location`, `motion`, `suspended`, `woken`, `launched`,
    /// `terminated`.
    public var name: String {
        switch kind {
        case .location: "location"
        case .motion: "motion"
        case .allowOnceLapsed: "allowOnceLapsed"
        case .suspended: "suspended"
        case .woken: "woken"
        case .launched: "launched"
        case .terminated: "terminated"
        }
    }

    /// What the recorder compares before and after a device step. Built from the phase and the
    /// authorization state (a few plain fields), never from the whole `Device`: passing the
    /// device costs a copy of it per event.
    struct Snapshot {
        var phase: AppPhase
        var isProvisionalAlways: Bool
        var isAllowOnce: Bool

        @inline(__always) init(_ phase: AppPhase, _ state: AuthorizationStateMachine.State) {
            self.phase = phase
            isProvisionalAlways = state.isProvisionalAlways
            isAllowOnce = state.isAllowOnce
        }
    }

    /// The background event among one step's actions that woke the app.
    private static func wakeReason(in actions: [DeviceAction], from first: Int) -> LaunchReason? {
        for action in actions[first...] {
            if case .regionEvent = action { return .regionEvent }
            if case .significantChange = action { return .significantChange }
            if case .visit = action { return .visit }
        }
        return nil
    }

    /// Appends the rows one device step made, the phone now being in `phase` with `state`: the
    /// actions that change authorization or the process, the phase change since `before`, the
    /// end of an Allow Once grant, and the end (or start) of provisional Always, which changes
    /// no status the app is told. Cheap when nothing relevant happened (a fix delivered), since
    /// it runs for every event of a replay.
    @inline(__always) static func record(
        _ actions: [DeviceAction], from first: Int, since before: Snapshot, phase: AppPhase,
        state: AuthorizationStateMachine.State,
        at time: SimInstant, into timeline: inout [AuthorizationChange]
    ) {
        let after = Snapshot(phase, state)
        // Allow Once ends back at notDetermined; turned into While Using in Settings, it is kept.
        if before.isAllowOnce && !after.isAllowOnce && state.storedStatus == .notDetermined {
            timeline.append(AuthorizationChange(time: time, kind: .allowOnceLapsed))
        }
        if before.isProvisionalAlways != after.isProvisionalAlways,
            !actions[first...].contains(where: {
                if case .authorizationChanged = $0 { return true }
                return false
            })
        {
            timeline.append(
                AuthorizationChange(
                    time: time, kind: .location(state.status, state.accuracy, provisional: after.isProvisionalAlways)))
        }
        if before.phase != after.phase {
            if after.phase == .suspended { timeline.append(AuthorizationChange(time: time, kind: .suspended)) }
            if before.phase == .suspended && after.phase == .background {
                timeline.append(AuthorizationChange(time: time, kind: .woken(wakeReason(in: actions, from: first))))
            }
        }
        for index in first..<actions.endIndex {
            switch actions[index] {
            case .authorizationChanged(let status, let accuracy):
                timeline.append(
                    AuthorizationChange(
                        time: time, kind: .location(status, accuracy, provisional: after.isProvisionalAlways)))
            case .motionAuthorizationChanged(let status):
                timeline.append(AuthorizationChange(time: time, kind: .motion(status)))
            case .appLaunched(let reason, let inBackground):
                timeline.append(AuthorizationChange(time: time, kind: .launched(reason, inBackground: inBackground)))
            case .appTerminated(let rule):
                timeline.append(AuthorizationChange(time: time, kind: .terminated(rule)))
            case .deliverLocation, .dropLocation, .locationUpdatesFailed, .locationUpdatesPaused, .promptShown,
                .promptSuppressed, .temporaryFullAccuracyCompleted, .bluetoothAuthorizationChanged, .regionEvent,
                .regionEventDropped, .regionMonitoringFailed, .significantChange, .significantChangeDropped, .visit,
                .visitDropped, .deliverMotion, .dropMotion, .schedule:
                // Prompts are in the device's prompt log; the rest is delivery, not permission.
                continue
            }
        }
    }
}
