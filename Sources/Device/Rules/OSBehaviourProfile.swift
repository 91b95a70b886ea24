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
    /// iOS 26: as iOS 18; field reports say a force-quit app is no longer relaunched by region
    /// or significant-change events (d 6).
    case ios26

    /// The newest profile. An alias, not a profile of its own: it moves when iOS does, so
    /// presets never use it.
    public static let current = OSBehaviourProfile.ios26

    /// The spelling in DEVICE.json, scenario files and `tracesim rules`: each profile's raw
    /// value, and `current` for the newest.
    public static var names: [(String, OSBehaviourProfile)] {
        allCases.map { ($0.rawValue, $0) } + [("current", .current)]
    }

    /// What changed in this generation, for `tracesim rules`.
    public var summary: String {
        switch self {
        case .ios13: "first Always request grants provisional Always until the deferred upgrade prompt"
        case .ios14To17: "first Always request settles on When-In-Use; Approximate location; activity sessions"
        case .ios18: "service sessions (CLServiceSession) hold authorization goals"
        case .ios26: "as ios18; force-quit apps are not relaunched by region or significant-change events"
        }
    }
}
