/// Which iOS generation's behaviour to simulate where iOS changed. Rules that differ between
/// generations name the profiles they apply to (`DeviceRuleInfo.profiles`), and presets name
/// their profile explicitly, so a preset means the same thing when `current` moves on.
public enum OSBehaviourProfile: String, Sendable, CaseIterable {
    /// iOS 13: a first Always request grants provisional `authorizedAlways` until the
    /// deferred upgrade prompt is answered (fact sheet a1 #9, d 17).
    case ios13
    /// iOS 14 to 17: a first Always request settles on `authorizedWhenInUse`; Approximate
    /// location (iOS 14) and `CLBackgroundActivitySession` (iOS 17) exist.
    case ios14To17 = "ios14-17"
    /// iOS 18: `CLServiceSession` and implicit service sessions (a4 #9).
    case ios18
    /// iOS 26: as iOS 18, except that a force-quit app is no longer relaunched by region or
    /// significant-change events (a 2026 developer-forum report, d 6; see Device.md).
    case ios26

    /// The newest profile. An alias, not a profile of its own: it moves when iOS does, so
    /// presets never use it.
    public static let current = OSBehaviourProfile.ios26

    /// The spelling in DEVICE.json, scenario files and `tracesim rules`: each profile's raw
    /// value, and `current` for the newest.
    public static var names: [(String, OSBehaviourProfile)] {
        allCases.map { ($0.rawValue, $0) } + [("current", .current)]
    }

    /// What this profile changes in the simulated device, for `tracesim rules`. Only what is
    /// modelled: the iOS 14 to 18 profiles behave alike today and are kept apart so presets and
    /// scenario files can name the generation they mean.
    public var summary: String {
        switch self {
        case .ios13: "a first Always request grants provisional Always until the deferred upgrade prompt"
        case .ios14To17: "a first Always request settles on When-In-Use; force-quit apps relaunched by location events"
        case .ios18: "as ios14-17 (service sessions are not modelled)"
        case .ios26: "as ios18, but force-quit apps are not relaunched by region or significant-change events"
        }
    }

    /// Whether, on this generation, a region event or a significant change relaunches an Always
    /// app the user force-quit. The App Programming Guide (iOS 8 on) made location apps the
    /// exception to "no relaunch after a force quit" (Apple DTS's "iOS Background Execution
    /// Limits" post says a force quit blocks background launches); a 2026 forum report finds neither
    /// relaunching on iOS 26 while the same code did on iOS 18 (Device.md, "Issue 16: OS
    /// profiles and switches"). `DeviceParameters` may override either.
    public var relaunchesForceQuitAppForLocationEvents: Bool {
        switch self {
        case .ios13, .ios14To17, .ios18: true
        case .ios26: false
        }
    }

    /// The profiles on which a force-quit app is relaunched by region and significant-change
    /// events, and those on which it is not, for the rule catalogue.
    static var relaunchingForceQuitApps: [OSBehaviourProfile] {
        allCases.filter(\.relaunchesForceQuitAppForLocationEvents)
    }
    static var notRelaunchingForceQuitApps: [OSBehaviourProfile] {
        allCases.filter { !$0.relaunchesForceQuitAppForLocationEvents }
    }
}
