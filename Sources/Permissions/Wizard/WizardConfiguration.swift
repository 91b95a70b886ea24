/// A colour as red, green, blue and alpha components in 0...1.
public struct WizardColor: Sendable, Equatable {
    /// The red component, 0...1.
    public var red: Double
    /// The green component, 0...1.
    public var green: Double
    /// The blue component, 0...1.
    public var blue: Double
    /// The opacity, 0...1.
    public var alpha: Double

    /// Creates a colour; `PermissionsWizard.Theme.validate()` checks the ranges.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    var isValid: Bool { [red, green, blue, alpha].allSatisfy { $0.isFinite && (0...1).contains($0) } }
}

extension PermissionsWizard {
    /// The texts of one instructional page.
    public struct PageConfiguration: Sendable, Equatable {
        public var title: String
        public var body: String
        public var primaryButtonTitle: String
        /// The lead text above the expected system action.
        public var hintLead: String
        /// The system prompt's button to tap.
        public var permissionHint: String

        /// Creates a page configuration.
        public init(title: String, body: String, primaryButtonTitle: String, hintLead: String, permissionHint: String) {
            self.title = title
            self.body = body
            self.primaryButtonTitle = primaryButtonTitle
            self.hintLead = hintLead
            self.permissionHint = permissionHint
        }
    }

    /// The texts of the final status page (and of the missing-permissions alert's rows).
    public struct StatusConfiguration: Sendable, Equatable {
        public var title: String
        public var body: String
        public var locationTitle: String
        public var motionTitle: String
        public var locationEnabledText: String
        public var locationAlwaysRequiredText: String
        public var locationPreciseRequiredText: String
        public var locationActionNeededText: String
        public var motionEnabledText: String
        public var motionActionNeededText: String
        /// The fix in settings button title.
        public var fixInSettingsButtonTitle: String
        public var skipButtonTitle: String

        /// Creates status texts.
        public init(
            title: String, body: String, locationTitle: String, motionTitle: String, locationEnabledText: String,
            locationAlwaysRequiredText: String, locationPreciseRequiredText: String, locationActionNeededText: String,
            motionEnabledText: String, motionActionNeededText: String, fixInSettingsButtonTitle: String,
            skipButtonTitle: String
        ) {
            self.title = title
            self.body = body
            self.locationTitle = locationTitle
            self.motionTitle = motionTitle
            self.locationEnabledText = locationEnabledText
            self.locationAlwaysRequiredText = locationAlwaysRequiredText
            self.locationPreciseRequiredText = locationPreciseRequiredText
            self.locationActionNeededText = locationActionNeededText
            self.motionEnabledText = motionEnabledText
            self.motionActionNeededText = motionActionNeededText
            self.fixInSettingsButtonTitle = fixInSettingsButtonTitle
            self.skipButtonTitle = skipButtonTitle
        }
    }

    /// The wizard's colours for one interface style. Every component must lie in 0...1.
    public struct Theme: Sendable, Equatable {
        public var backgroundColor: WizardColor
        public var gradientStartColor: WizardColor
        public var gradientEndColor: WizardColor
        public var titleTextColor: WizardColor
        public var bodyTextColor: WizardColor
        public var primaryElementColor: WizardColor
        public var secondaryElementColor: WizardColor
        public var buttonTextColor: WizardColor
        public var cardBackgroundColor: WizardColor
        public var successElementColor: WizardColor
        public var warningElementColor: WizardColor
        public var secondaryButtonTextColor: WizardColor
        public var secondaryButtonBackgroundColor: WizardColor
        public var statusIndicatorTextColor: WizardColor
        public var modalScrimColor: WizardColor

        /// The names of the colours out of range, empty when the theme is valid.
        public func invalidColors() -> [String] {
            Mirror(reflecting: self).children.compactMap { child in
                guard let label = child.label, let color = child.value as? WizardColor, !color.isValid else {
                    return nil
                }
                return label
            }
        }

        /// TraceSim's light default.
        public static let light = Theme(
            backgroundColor: .init(red: 0.96, green: 0.97, blue: 0.99),
            gradientStartColor: .init(red: 0.88, green: 0.93, blue: 0.98),
            gradientEndColor: .init(red: 0.99, green: 0.99, blue: 1.0),
            titleTextColor: .init(red: 0.10, green: 0.12, blue: 0.25),
            bodyTextColor: .init(red: 0.35, green: 0.38, blue: 0.44),
            primaryElementColor: .init(red: 0.15, green: 0.20, blue: 0.45),
            secondaryElementColor: .init(red: 0.90, green: 0.91, blue: 0.94),
            buttonTextColor: .init(red: 1, green: 1, blue: 1),
            cardBackgroundColor: .init(red: 1, green: 1, blue: 1),
            successElementColor: .init(red: 0.20, green: 0.70, blue: 0.35),
            warningElementColor: .init(red: 0.95, green: 0.60, blue: 0.10),
            secondaryButtonTextColor: .init(red: 0.50, green: 0.53, blue: 0.58),
            secondaryButtonBackgroundColor: .init(red: 0, green: 0, blue: 0, alpha: 0),
            statusIndicatorTextColor: .init(red: 1, green: 1, blue: 1),
            modalScrimColor: .init(red: 0, green: 0, blue: 0, alpha: 0.5))

        /// TraceSim's dark default.
        public static let dark = Theme(
            backgroundColor: .init(red: 0.08, green: 0.09, blue: 0.20),
            gradientStartColor: .init(red: 0.08, green: 0.09, blue: 0.17),
            gradientEndColor: .init(red: 0.03, green: 0.04, blue: 0.09),
            titleTextColor: .init(red: 1, green: 1, blue: 1),
            bodyTextColor: .init(red: 0.86, green: 0.86, blue: 0.88),
            primaryElementColor: .init(red: 1, green: 1, blue: 1),
            secondaryElementColor: .init(red: 0.18, green: 0.19, blue: 0.28),
            buttonTextColor: .init(red: 0.08, green: 0.09, blue: 0.20),
            cardBackgroundColor: .init(red: 0.14, green: 0.15, blue: 0.22),
            successElementColor: .init(red: 0.30, green: 0.80, blue: 0.45),
            warningElementColor: .init(red: 1.0, green: 0.70, blue: 0.20),
            secondaryButtonTextColor: .init(red: 0.78, green: 0.80, blue: 0.84),
            secondaryButtonBackgroundColor: .init(red: 0, green: 0, blue: 0, alpha: 0),
            statusIndicatorTextColor: .init(red: 1, green: 1, blue: 1),
            modalScrimColor: .init(red: 0, green: 0, blue: 0, alpha: 0.6))
    }

    /// A theme with colours out of range.
    public struct ThemeError: Error, Sendable, Equatable, CustomStringConvertible {
        /// Which theme: `light` or `dark`.
        public var theme: String
        /// The offending colour names.
        public var colors: [String]

        /// Creates an error.
        public init(theme: String, colors: [String]) {
            self.theme = theme
            self.colors = colors
        }

        /// The wording.
        public var description: String {
            "\(theme) theme: \(colors.joined(separator: ", ")) must have every component within 0...1"
        }
    }

    /// Pages, status texts and themes.
    public struct Configuration: Sendable, Equatable {
        public var locationWhenInUse: PageConfiguration
        public var locationAlways: PageConfiguration
        public var motion: PageConfiguration
        public var status: StatusConfiguration
        public var lightTheme: Theme
        public var darkTheme: Theme

        /// Creates a custom configuration.
        /// - Throws: `ThemeError` when a theme has a colour out of range.
        public init(
            locationWhenInUse: PageConfiguration, locationAlways: PageConfiguration, motion: PageConfiguration,
            status: StatusConfiguration, lightTheme: Theme, darkTheme: Theme
        ) throws(ThemeError) {
            for (name, theme) in [("light", lightTheme), ("dark", darkTheme)] {
                let invalid = theme.invalidColors()
                if !invalid.isEmpty { throw ThemeError(theme: name, colors: invalid) }
            }
            self.locationWhenInUse = locationWhenInUse
            self.locationAlways = locationAlways
            self.motion = motion
            self.status = status
            self.lightTheme = lightTheme
            self.darkTheme = darkTheme
        }

        /// TraceSim's built-in texts with the app's name substituted, and the default themes.
        public static func defaultConfiguration(appName: String) -> Configuration {
            let lead = "Next, the system asks. Choose:"
            return Configuration(
                unchecked: PageConfiguration(
                    title: "Share your location", body: "\(appName) uses your location to notice when a trip begins.",
                    primaryButtonTitle: "Continue", hintLead: lead, permissionHint: "Allow While Using App"),
                locationAlways: PageConfiguration(
                    title: "Let trips record in the background",
                    body: "With Always access, \(appName) can record trips while the phone is in your pocket.",
                    primaryButtonTitle: "Continue", hintLead: lead, permissionHint: "Change to Always Allow"),
                motion: PageConfiguration(
                    title: "Motion & Fitness", body: "\(appName) uses motion activity to tell driving from walking.",
                    primaryButtonTitle: "Continue", hintLead: lead, permissionHint: "Allow"),
                status: .defaultStatus(appName: appName))
        }

        private init(
            unchecked locationWhenInUse: PageConfiguration, locationAlways: PageConfiguration,
            motion: PageConfiguration, status: StatusConfiguration
        ) {
            self.locationWhenInUse = locationWhenInUse
            self.locationAlways = locationAlways
            self.motion = motion
            self.status = status
            lightTheme = .light
            darkTheme = .dark
        }
    }

    /// The missing-permissions alert's texts, blocking choice and themes.
    public struct MissingPermissionsAlertConfiguration: Sendable, Equatable {
        /// The row and button texts (its `title` and `body` are the alert's).
        public var texts: StatusConfiguration
        /// A blocking alert offers only Fix in Settings.
        public var isBlocking: Bool
        public var lightTheme: Theme
        public var darkTheme: Theme

        /// Creates an alert configuration.
        /// - Throws: `ThemeError` when a theme has a colour out of range.
        public init(texts: StatusConfiguration, isBlocking: Bool, lightTheme: Theme = .light, darkTheme: Theme = .dark)
            throws(ThemeError)
        {
            for (name, theme) in [("light", lightTheme), ("dark", darkTheme)] {
                let invalid = theme.invalidColors()
                if !invalid.isEmpty { throw ThemeError(theme: name, colors: invalid) }
            }
            self.texts = texts
            self.isBlocking = isBlocking
            self.lightTheme = lightTheme
            self.darkTheme = darkTheme
        }

        /// Built-in texts, non-blocking.
        public static func defaultConfiguration(appName: String) -> MissingPermissionsAlertConfiguration {
            var texts = StatusConfiguration.defaultStatus(appName: appName)
            texts.title = "Permissions missing"
            texts.body = "\(appName) needs these turned on to keep recording trips."
            return (try? MissingPermissionsAlertConfiguration(texts: texts, isBlocking: false))
                ?? MissingPermissionsAlertConfiguration(uncheckedTexts: texts)
        }

        private init(uncheckedTexts texts: StatusConfiguration) {
            self.texts = texts
            isBlocking = false
            lightTheme = .light
            darkTheme = .dark
        }
    }
}

extension PermissionsWizard.StatusConfiguration {
    /// TraceSim's built-in status texts.
    public static func defaultStatus(appName: String) -> Self {
        Self(
            title: "Almost ready", body: "A few settings still stand between \(appName) and complete trips.",
            locationTitle: "Location", motionTitle: "Motion & Fitness", locationEnabledText: "On: Always, Precise",
            locationAlwaysRequiredText: "Choose Always", locationPreciseRequiredText: "Turn on Precise Location",
            locationActionNeededText: "Needs your action", motionEnabledText: "On",
            motionActionNeededText: "Needs your action",
            fixInSettingsButtonTitle: "Open Settings", skipButtonTitle: "Not now")
    }
}
