import Device

/// The Airship-style location permission delegate (seed document 003): a three-state
/// mapping and a request that acts only from `notDetermined` while the app is active.
public enum AirshipLocationPermissionDelegate {
    /// Airship's three permission states.
    public enum Status: String, Sendable {
        case notDetermined, granted, denied
    }

    /// What a check or request returns, with what the three-state mapping hides.
    public struct Outcome: Sendable, Equatable {
        /// The delegate's answer.
        public var status: Status
        /// Whether the app could collect location in the background with this authorization.
        public var isBackgroundCollectionPossible: Bool
        /// Set when `granted` is reported while background collection is impossible: the
        /// documented pitfall of collapsing When-In-Use into granted.
        public var warning: String?
    }

    /// The mapping: restricted and denied are `denied`; both authorized statuses are `granted`.
    public static func status(_ device: Device) -> Status {
        switch device.authorization.state.status {
        case .notDetermined: .notDetermined
        case .restricted, .denied: .denied
        case .authorizedAlways, .authorizedWhenInUse: .granted
        }
    }

    /// `checkPermissionStatus()`.
    public static func checkPermissionStatus(_ session: PermissionSession) -> Outcome {
        outcome(status(session.device), session.device)
    }

    /// `requestPermission()` (the Swift version): only from `notDetermined`, only while
    /// active (otherwise `notDetermined`); asks for Always, then waits for the app to become
    /// active again, which happens when the system alert is dismissed.
    public static func requestPermission(_ session: inout PermissionSession) -> Outcome {
        guard status(session.device) == .notDetermined else { return checkPermissionStatus(session) }
        guard session.isActive else { return outcome(.notDetermined, session.device) }
        session.perform(.app(.requestedAlways))
        session.wait(atMost: BackgroundGeolocation.unansweredPromptLimitSeconds) {
            $0.authorization.state.promptOnScreen == nil && $0.lifecycle.phase == .foreground
        }
        return checkPermissionStatus(session)
    }

    /// The Objective-C version: it completes on the next main-queue turn after asking, without
    /// waiting for the answer, so a first request reports `notDetermined`.
    public static func requestPermissionObjectiveC(_ session: inout PermissionSession) -> Outcome {
        guard status(session.device) == .notDetermined else { return checkPermissionStatus(session) }
        guard session.isActive else { return outcome(.notDetermined, session.device) }
        session.perform(.app(.requestedAlways))
        return checkPermissionStatus(session)
    }

    private static func outcome(_ status: Status, _ device: Device) -> Outcome {
        let state = device.authorization.state
        let background = state.status == .authorizedAlways && !state.isProvisionalAlways
        let warning =
            status == .granted && !background
            ? "granted is When-In-Use only: fixes stop shortly after the screen locks and regions never start"
            : nil
        return Outcome(status: status, isBackgroundCollectionPossible: background, warning: warning)
    }
}
