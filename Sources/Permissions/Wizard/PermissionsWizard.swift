import Device

/// The permissions wizard (seed document 004), headless: instructional pages for
/// When-In-Use, Always and Motion & Fitness, each whose Continue raises the system prompt
/// (or just advances when iOS would not show it), then a status page when something
/// required is missing. What happens is recorded as a transcript.
public enum PermissionsWizard {
    /// The wizard's screens.
    public enum Page: String, Sendable {
        case locationWhenInUse, locationAlways, motion, status
    }

    /// The person's choice on the status page.
    public enum StatusAction: String, Sendable {
        case fixInSettings, skip
    }

    /// One step of a wizard run.
    public struct Step: Sendable, Equatable {
        /// What happened.
        public enum Kind: Sendable, Equatable {
            case pageShown(Page, title: String)
            case tapped(String)
            case promptShown(PromptKind)
            case promptNotShown(PromptKind, DeviceRule)
            case pageSkipped(Page, reason: String)
            case statusRow(title: String, text: String, isSatisfied: Bool)
            case settingsOpened
            case closed(granted: Bool)
            case notPresented(reason: String)
        }

        /// Seconds from the session's start.
        public var atSeconds: Double
        /// What happened.
        public var kind: Kind
    }

    /// How a launch went.
    public struct LaunchResult: Sendable, Equatable {
        /// Whether the wizard appeared at all.
        public var wasPresented: Bool
        /// The completion value: every required permission held.
        public var granted: Bool
        /// The steps, in order.
        public var transcript: [Step]
    }

    /// The host's situation when `launch` is called.
    public struct Presentation: Sendable, Equatable {
        /// The wizard is already on screen.
        public var isAlreadyDisplayed = false
        /// A view controller is visible to present over.
        public var hasVisibleScreen = true
        /// Motion counts as granted (a simulator-class device).
        public var isSimulatorClassDevice = false
        /// Seconds a person spends on a page before tapping.
        public var readingSeconds = 5.0

        /// The usual situation: a visible screen, a real device.
        public init() {}
    }

    /// The required result: Always, Precise and Motion (motion waived on a simulator-class device).
    public static func isAllRequiredPermissionsGranted(_ device: Device, isSimulatorClassDevice: Bool = false) -> Bool {
        let state = device.authorization.state
        let motion = isSimulatorClassDevice || state.motionStatus == .authorized
        return state.status == .authorizedAlways && state.accuracy == .fullAccuracy && motion
    }

    /// Presents the wizard and runs it to the end.
    public static func launch(
        _ session: inout PermissionSession, configuration: Configuration, presentation: Presentation = Presentation(),
        statusAction: StatusAction = .skip
    ) -> LaunchResult {
        var steps: [Step] = []
        if presentation.isAlreadyDisplayed || !presentation.hasVisibleScreen || !session.isActive {
            steps.record(
                .notPresented(
                    reason: presentation.isAlreadyDisplayed ? "the wizard is already displayed" : "no visible screen"),
                session)
            return LaunchResult(wasPresented: false, granted: granted(session, presentation), transcript: steps)
        }

        // Location When In Use.
        page(
            .locationWhenInUse, configuration.locationWhenInUse, .app(.requestedWhenInUse), &session, presentation,
            &steps)
        let afterWhenInUse = session.device.authorization.state
        if afterWhenInUse.status == .denied {
            steps.record(.pageSkipped(.locationAlways, reason: "When-In-Use was denied"), session)
        } else {
            // With Allow Once, iOS ignores the Always request: the page's Continue just advances.
            page(.locationAlways, configuration.locationAlways, .app(.requestedAlways), &session, presentation, &steps)
        }
        page(.motion, configuration.motion, .app(.startedMotionUpdates), &session, presentation, &steps)

        if granted(session, presentation) {
            steps.record(.closed(granted: true), session)
            return LaunchResult(wasPresented: true, granted: true, transcript: steps)
        }
        let status = configuration.status
        steps.record(.pageShown(.status, title: status.title), session)
        for row in statusRows(session.device, status, presentation) {
            steps.record(.statusRow(title: row.title, text: row.text, isSatisfied: row.isSatisfied), session)
        }
        session.advance(by: presentation.readingSeconds)
        steps.record(
            .tapped(statusAction == .fixInSettings ? status.fixInSettingsButtonTitle : status.skipButtonTitle), session)
        let result = granted(session, presentation)
        steps.record(.closed(granted: result), session)
        if statusAction == .fixInSettings { steps.record(.settingsOpened, session) }
        return LaunchResult(wasPresented: true, granted: result, transcript: steps)
    }

    private static func page(
        _ page: Page, _ texts: PageConfiguration, _ request: DeviceEvent, _ session: inout PermissionSession,
        _ presentation: Presentation, _ steps: inout [Step]
    ) {
        steps.record(.pageShown(page, title: texts.title), session)
        session.advance(by: presentation.readingSeconds)
        steps.record(.tapped(texts.primaryButtonTitle), session)
        // The wizard's steps record only what the user sees of a prompt.
        for action in session.perform(request) {
            if case .promptShown(let kind) = action {
                steps.record(.promptShown(kind), session)
                session.wait(atMost: BackgroundGeolocation.unansweredPromptLimitSeconds) {
                    $0.authorization.state.promptOnScreen == nil
                }
            } else if case .promptSuppressed(let kind, let rule) = action {
                steps.record(.promptNotShown(kind, rule), session)
            }
        }
    }

    private static func granted(_ session: PermissionSession, _ presentation: Presentation) -> Bool {
        isAllRequiredPermissionsGranted(session.device, isSimulatorClassDevice: presentation.isSimulatorClassDevice)
    }

    /// The status page's (and the alert's) two rows.
    static func statusRows(
        _ device: Device, _ texts: StatusConfiguration, _ presentation: Presentation
    ) -> [(title: String, text: String, isSatisfied: Bool)] {
        let state = device.authorization.state
        let location: (String, Bool)
        switch (state.status, state.accuracy) {
        case (.authorizedAlways, .fullAccuracy): location = (texts.locationEnabledText, true)
        case (.authorizedAlways, .reducedAccuracy): location = (texts.locationPreciseRequiredText, false)
        case (.authorizedWhenInUse, _): location = (texts.locationAlwaysRequiredText, false)
        case (.notDetermined, _), (.restricted, _), (.denied, _): location = (texts.locationActionNeededText, false)
        }
        let motionOK = presentation.isSimulatorClassDevice || state.motionStatus == .authorized
        return [
            (texts.locationTitle, location.0, location.1),
            (texts.motionTitle, motionOK ? texts.motionEnabledText : texts.motionActionNeededText, motionOK),
        ]
    }
}

extension [PermissionsWizard.Step] {
    fileprivate mutating func record(_ kind: PermissionsWizard.Step.Kind, _ session: PermissionSession) {
        append(PermissionsWizard.Step(atSeconds: session.elapsedSeconds, kind: kind))
    }
}

/// The independent missing-permissions alert: checked on every foreground entry, shown
/// only once location and motion have both been asked and something is still missing,
/// dismissed on the next foreground entry after everything is fixed.
public struct MissingPermissionsAlert: Sendable, Equatable {
    /// What a foreground check did.
    public enum Change: Sendable, Equatable {
        /// The alert appeared, with these buttons and rows.
        case shown(buttons: [String], rows: [String])
        /// The alert went away by itself: everything is fixed.
        case dismissed
    }

    public var configuration: PermissionsWizard.MissingPermissionsAlertConfiguration
    /// Whether foreground checks run.
    public var isEnabled: Bool
    /// Whether the alert is on screen.
    public private(set) var isShowing = false

    /// Creates the alert.
    public init(configuration: PermissionsWizard.MissingPermissionsAlertConfiguration, isEnabled: Bool = true) {
        self.configuration = configuration
        self.isEnabled = isEnabled
    }

    /// Runs the check made when the app enters the foreground.
    public mutating func appEnteredForeground(_ device: Device, isSimulatorClassDevice: Bool = false) -> Change? {
        guard isEnabled else { return nil }
        let state = device.authorization.state
        let bothAsked = state.storedStatus != .notDetermined && state.motionStatus != .notDetermined
        let complete = PermissionsWizard.isAllRequiredPermissionsGranted(
            device, isSimulatorClassDevice: isSimulatorClassDevice)
        if complete {
            guard isShowing else { return nil }
            isShowing = false
            return .dismissed
        }
        guard bothAsked, !isShowing else { return nil }
        isShowing = true
        let texts = configuration.texts
        var presentation = PermissionsWizard.Presentation()
        presentation.isSimulatorClassDevice = isSimulatorClassDevice
        let rows = PermissionsWizard.statusRows(device, texts, presentation).map { "\($0.title): \($0.text)" }
        let buttons =
            configuration.isBlocking
            ? [texts.fixInSettingsButtonTitle] : [texts.fixInSettingsButtonTitle, texts.skipButtonTitle]
        return .shown(buttons: buttons, rows: rows)
    }

    /// The person tapped the skip action of a non-blocking alert.
    public mutating func skipTapped() {
        if !configuration.isBlocking { isShowing = false }
    }
}
