import Device
import Permissions
import Testing

/// Every rule and example of the permissions wizard document (seed 004), headless.
@Suite("Permissions wizard")
struct PermissionsWizardTests {
    static let configuration = PermissionsWizard.Configuration.defaultConfiguration(appName: "Your App")

    static func agreeable(precise: Bool = true) -> SimulatedUser {
        Sessions.user([
            .location: [.answer(.allowWhileUsing(precise: precise), afterSeconds: 2)],
            .upgrade: [.answer(.changeToAlways, afterSeconds: 2)], .motion: [.answer(.allow, afterSeconds: 2)],
        ])
    }

    static func kinds(_ result: PermissionsWizard.LaunchResult) -> [PermissionsWizard.Step.Kind] { result.transcript.map(\.kind) }

    @Test("pages in order: When-In-Use, Always, Motion; Continue raises each prompt; all granted closes with true")
    func happyPath() {
        var session = Sessions.make(user: Self.agreeable())
        let result = PermissionsWizard.launch(&session, configuration: Self.configuration)
        #expect(result.granted)
        let pages = Self.kinds(result).compactMap { if case .pageShown(let page, _) = $0 { page } else { nil } }
        #expect(pages == [.locationWhenInUse, .locationAlways, .motion])
        #expect(session.promptsShown == [.location, .alwaysUpgrade, .motion])
        #expect(Self.kinds(result).last == .closed(granted: true))
    }

    @Test("a prompt iOS would not show again: Continue advances instead of blocking")
    func continueAdvances() {
        var session = Sessions.make(user: Self.agreeable()) { $0.authorization.motionStatus = .denied }
        let result = PermissionsWizard.launch(&session, configuration: Self.configuration)
        #expect(Self.kinds(result).contains(.promptNotShown(.motion, .motionRequestPrompts)))
        #expect(!result.granted)
    }

    @Test("When-In-Use denied: the Always page is skipped and Motion follows")
    func deniedSkipsAlways() {
        var session = Sessions.make(
            user: Sessions.user([.location: [.answer(.dontAllow, afterSeconds: 1)], .motion: [.answer(.allow, afterSeconds: 1)]]))
        let result = PermissionsWizard.launch(&session, configuration: Self.configuration)
        #expect(Self.kinds(result).contains(.pageSkipped(.locationAlways, reason: "When-In-Use was denied")))
        #expect(session.promptsShown == [.location, .motion])
    }

    @Test("Allow Once: the Always prompt does not appear and the wizard moves on to Motion")
    func allowOnce() {
        var session = Sessions.make(
            user: Sessions.user([
                .location: [.answer(.allowOnce(precise: true), afterSeconds: 1)], .motion: [.answer(.allow, afterSeconds: 1)],
            ]))
        let result = PermissionsWizard.launch(&session, configuration: Self.configuration)
        #expect(Self.kinds(result).contains(.promptNotShown(.alwaysUpgrade, .allowOnceIgnoresAlwaysRequests)))
        #expect(Self.kinds(result).contains(.pageShown(.motion, title: Self.configuration.motion.title)))
    }

    @Test("status page: rows in the configured texts when something is missing or location is reduced")
    func statusPage() {
        var reduced = Sessions.make(user: Self.agreeable(precise: false))
        let result = PermissionsWizard.launch(&reduced, configuration: Self.configuration)
        let status = Self.configuration.status
        #expect(
            Self.kinds(result).contains(
                .statusRow(title: status.locationTitle, text: status.locationPreciseRequiredText, isSatisfied: false)))
        #expect(Self.kinds(result).contains(.statusRow(title: status.motionTitle, text: status.motionEnabledText, isSatisfied: true)))
        var whileUsing = Sessions.make(
            user: Sessions.user([
                .location: [Sessions.allowWhileUsing], .upgrade: [.answer(.keepWhileUsing, afterSeconds: 1)],
                .motion: [.answer(.deny, afterSeconds: 1)],
            ]))
        let second = PermissionsWizard.launch(&whileUsing, configuration: Self.configuration)
        #expect(
            Self.kinds(second).contains(
                .statusRow(title: status.locationTitle, text: status.locationAlwaysRequiredText, isSatisfied: false)))
        #expect(Self.kinds(second).contains(.statusRow(title: status.motionTitle, text: status.motionActionNeededText, isSatisfied: false)))
        var denied = Sessions.make(
            user: Sessions.user([.location: [.answer(.dontAllow, afterSeconds: 1)], .motion: [.answer(.allow, afterSeconds: 1)]]))
        let third = PermissionsWizard.launch(&denied, configuration: Self.configuration)
        #expect(
            Self.kinds(third).contains(.statusRow(title: status.locationTitle, text: status.locationActionNeededText, isSatisfied: false)))
    }

    @Test("Fix in Settings and Skip for now both close with the current result; Fix also opens Settings")
    func statusActions() {
        for action in [PermissionsWizard.StatusAction.fixInSettings, .skip] {
            var session = Sessions.make(user: Self.agreeable(precise: false))
            let result = PermissionsWizard.launch(&session, configuration: Self.configuration, statusAction: action)
            #expect(!result.granted)
            #expect(Self.kinds(result).contains(.closed(granted: false)))
            #expect(Self.kinds(result).contains(.settingsOpened) == (action == .fixInSettings))
        }
    }

    @Test("not presented while already displayed or without a visible screen")
    func notPresented() {
        var session = Sessions.make()
        var displayed = PermissionsWizard.Presentation()
        displayed.isAlreadyDisplayed = true
        #expect(!PermissionsWizard.launch(&session, configuration: Self.configuration, presentation: displayed).wasPresented)
        var hidden = PermissionsWizard.Presentation()
        hidden.hasVisibleScreen = false
        #expect(!PermissionsWizard.launch(&session, configuration: Self.configuration, presentation: hidden).wasPresented)
        #expect(session.device.promptLog.isEmpty)
    }

    @Test("required result: Always + Precise + Motion; on a simulator-class device motion counts as granted")
    func requiredResult() {
        var session = Sessions.make(
            user: Sessions.user([
                .location: [Sessions.allowWhileUsing], .upgrade: [.answer(.changeToAlways, afterSeconds: 1)],
                .motion: [.answer(.deny, afterSeconds: 1)],
            ]))
        var simulator = PermissionsWizard.Presentation()
        simulator.isSimulatorClassDevice = true
        let result = PermissionsWizard.launch(&session, configuration: Self.configuration, presentation: simulator)
        #expect(result.granted)
        #expect(!PermissionsWizard.isAllRequiredPermissionsGranted(session.device))
        #expect(PermissionsWizard.isAllRequiredPermissionsGranted(session.device, isSimulatorClassDevice: true))
    }

    @Test("missing-permissions alert: only after both were asked, blocking or not, dismissed once fixed")
    func missingPermissionsAlert() throws {
        let fresh = Sessions.make()
        var alert = MissingPermissionsAlert(configuration: .defaultConfiguration(appName: "Your App"))
        #expect(alert.appEnteredForeground(fresh.device) == nil)  // both still not determined
        var session = Sessions.make(user: Self.agreeable(precise: false))
        _ = PermissionsWizard.launch(&session, configuration: Self.configuration)
        guard case .shown(let buttons, let rows)? = alert.appEnteredForeground(session.device) else {
            Issue.record("the alert should show")
            return
        }
        #expect(buttons == ["Open Settings", "Not now"])
        #expect(rows.first == "Location: Turn on Precise Location")
        #expect(alert.appEnteredForeground(session.device) == nil)  // already showing
        session.perform(.user(.changedSettings(.setPrecise(true))))
        #expect(alert.appEnteredForeground(session.device) == .dismissed)
        var blockingTexts = PermissionsWizard.StatusConfiguration.defaultStatus(appName: "Your App")
        blockingTexts.title = "Permissions needed"
        var blocking = MissingPermissionsAlert(configuration: try .init(texts: blockingTexts, isBlocking: true))
        session.perform(.user(.changedSettings(.setMotion(false))))
        guard case .shown(let blockingButtons, _)? = blocking.appEnteredForeground(session.device) else {
            Issue.record("the blocking alert should show")
            return
        }
        #expect(blockingButtons == ["Open Settings"])
        var disabled = MissingPermissionsAlert(configuration: .defaultConfiguration(appName: "X"), isEnabled: false)
        #expect(disabled.appEnteredForeground(session.device) == nil)
    }

    @Test("default texts carry the app name")
    func defaultTexts() {
        let configuration = PermissionsWizard.Configuration.defaultConfiguration(appName: "Fleetly")
        #expect(configuration.locationWhenInUse.body.contains("Fleetly"))
        #expect(configuration.locationAlways.body.contains("Fleetly"))
        #expect(configuration.status.body.contains("Fleetly"))
    }

    @Test("custom configuration: pages, status and themes; an out-of-range colour is refused")
    func customConfiguration() throws {
        let page = PermissionsWizard.PageConfiguration(
            title: "Allow location", body: "Needed for trips.", primaryButtonTitle: "Next", hintLead: "TAP:", permissionHint: "Allow")
        let configuration = try PermissionsWizard.Configuration(
            locationWhenInUse: page, locationAlways: page, motion: page, status: .defaultStatus(appName: "A"),
            lightTheme: .light, darkTheme: .dark)
        var session = Sessions.make(user: Self.agreeable())
        let result = PermissionsWizard.launch(&session, configuration: configuration)
        #expect(Self.kinds(result).contains(.tapped("Next")))
        var broken = PermissionsWizard.Theme.dark
        broken.modalScrimColor = WizardColor(red: 0, green: 0, blue: 0, alpha: 1.6)
        broken.titleTextColor = WizardColor(red: -0.1, green: 0, blue: 0)
        #expect(throws: PermissionsWizard.ThemeError(theme: "dark", colors: ["titleTextColor", "modalScrimColor"])) {
            try PermissionsWizard.Configuration(
                locationWhenInUse: page, locationAlways: page, motion: page, status: .defaultStatus(appName: "A"),
                lightTheme: .light, darkTheme: broken)
        }
    }
}
