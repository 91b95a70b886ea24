import Device
import SimulationCore

/// Core Location's status, named before the facade's own `AuthorizationStatus` shadows it.
private typealias CoreLocationStatus = AuthorizationStatus

/// The background-geolocation facade (seed document 001): `requestPermission()` with its
/// transition table, provider state, temporary full accuracy with a watchdog, and
/// provider-change events.
public enum BackgroundGeolocation {
    /// Which authorization the app asks for (`locationAuthorizationRequest`).
    public enum LocationAuthorizationRequest: String, Sendable, CaseIterable {
        /// Always (the default): from When-In-Use, the upgrade prompt is shown once per install.
        case always = "Always"
        /// When In Use only.
        case whenInUse = "WhenInUse"
        /// Either.
        case any = "Any"
    }

    /// The facade's status vocabulary.
    public enum AuthorizationStatus: String, Sendable {
        case always, whenInUse, denied, restricted, notDetermined

        fileprivate init(_ status: CoreLocationStatus) {
            switch status {
            case .authorizedAlways: self = .always
            case .authorizedWhenInUse: self = .whenInUse
            case .denied: self = .denied
            case .restricted: self = .restricted
            case .notDetermined: self = .notDetermined
            }
        }
    }

    /// The facade's accuracy vocabulary.
    public enum AccuracyAuthorization: String, Sendable {
        case full, reduced
    }

    /// What `getProviderState()` reports.
    public struct ProviderState: Sendable, Equatable {
        /// Location Services is on device-wide.
        public var enabled: Bool
        /// The authorization.
        public var status: AuthorizationStatus
        /// Precise or approximate.
        public var accuracyAuthorization: AccuracyAuthorization

        /// Creates a provider state.
        public init(enabled: Bool, status: AuthorizationStatus, accuracyAuthorization: AccuracyAuthorization) {
            self.enabled = enabled
            self.status = status
            self.accuracyAuthorization = accuracyAuthorization
        }
    }

    /// One `onProviderChange` event.
    public struct ProviderChangeEvent: Sendable, Equatable {
        /// Seconds from the session's start.
        public var atSeconds: Double
        /// The state after the change.
        public var state: ProviderState
    }

    /// How long a never-answered prompt is waited for before the call gives up.
    public static let unansweredPromptLimitSeconds = 86_400.0
    public static let temporaryFullAccuracyWatchdogSeconds = 30.0

    /// Asks per the transition table and returns the status once the prompt (if any) is answered.
    public static func requestPermission(
        _ session: inout PermissionSession, locationAuthorizationRequest: LocationAuthorizationRequest = .always
    ) -> AuthorizationStatus {
        let status = session.device.authorization.state.status
        let event: DeviceEvent?
        switch status {
        case .notDetermined:
            event = locationAuthorizationRequest == .always ? .app(.requestedAlways) : .app(.requestedWhenInUse)
        case .authorizedWhenInUse where locationAuthorizationRequest == .always:
            event = .app(.requestedAlways)  // the one-shot upgrade; silent once used
        case .authorizedWhenInUse, .denied, .restricted, .authorizedAlways:
            event = nil  // denied, restricted, Always, or When-In-Use when that is all that is wanted
        }
        if let event, session.perform(event).contains(where: { if case .promptShown = $0 { true } else { false } }) {
            session.wait(atMost: unansweredPromptLimitSeconds) { $0.authorization.state.promptOnScreen == nil }
        }
        return AuthorizationStatus(session.device.authorization.state.status)
    }

    /// Location Services, authorization and accuracy, read without prompting.
    public static func getProviderState(_ session: PermissionSession) -> ProviderState {
        let state = session.device.authorization.state
        return ProviderState(
            enabled: state.isLocationServicesEnabled, status: AuthorizationStatus(state.status),
            accuracyAuthorization: state.accuracy == .fullAccuracy ? .full : .reduced)
    }

    /// Asks for temporary full accuracy. iOS never calls back for an undeclared purpose; the
    /// watchdog then resolves with the unchanged accuracy after 30 s.
    public static func requestTemporaryFullAccuracy(_ session: inout PermissionSession, purpose: String)
        -> AccuracyAuthorization
    {
        let actions = session.perform(.app(.requestedTemporaryFullAccuracy(purpose: purpose)))
        let completed = actions.contains { if case .temporaryFullAccuracyCompleted = $0 { true } else { false } }
        let prompted = actions.contains { if case .promptShown = $0 { true } else { false } }
        if prompted {
            // The completion comes with the answer, unless the watchdog fires first.
            session.wait(atMost: temporaryFullAccuracyWatchdogSeconds) { $0.authorization.state.promptOnScreen == nil }
        } else if !completed {
            session.advance(by: temporaryFullAccuracyWatchdogSeconds)  // no callback will ever come
        }
        return getProviderState(session).accuracyAuthorization
    }

    /// Every `onProviderChange` event so far: each authorization, accuracy or Location
    /// Services change the device reported.
    public static func providerChanges(_ session: PermissionSession) -> [ProviderChangeEvent] {
        var servicesEnabled = true
        var eventIndex = 0
        var changes: [ProviderChangeEvent] = []
        let events = session.events
        for entry in session.transcript {
            while eventIndex < events.count, events[eventIndex].time <= entry.time {
                if case .user(.changedSettings(.setLocationServices(let isOn))) = events[eventIndex].event {
                    servicesEnabled = isOn
                }
                eventIndex += 1
            }
            guard case .authorizationChanged(let status, let accuracy) = entry.action else { continue }
            changes.append(
                ProviderChangeEvent(
                    atSeconds: entry.time.seconds(since: session.start),
                    state: ProviderState(
                        enabled: servicesEnabled, status: AuthorizationStatus(status),
                        accuracyAuthorization: accuracy == .fullAccuracy ? .full : .reduced)))
        }
        return changes
    }
}
