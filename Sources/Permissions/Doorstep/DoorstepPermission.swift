import Device

/// The bucket requester's permission buckets, in declaration order (which is also the order
/// prompts are raised in). The raw values are the wire names.
public enum DoorstepPermission: String, CaseIterable, Sendable, Comparable {
    /// Foreground location: `requestWhenInUseAuthorization()`.
    case locationWhenInUse
    /// Background location: `requestAlwaysAuthorization()`.
    case locationAlways
    /// Motion & Fitness: activity, sensor recorder, altitude.
    case motionFitness
    /// Bluetooth: instantiating a central manager.
    case bluetooth

    /// Every bucket, the default whitelist.
    public static let all = allCases

    /// Parses a wire name, ignoring case; `nil` for an unknown token.
    public static func from(wireName: String) -> DoorstepPermission? {
        allCases.first { $0.rawValue.lowercased() == wireName.lowercased() }
    }

    /// The Info.plist usage-description key this bucket needs.
    public var infoPlistKey: String {
        switch self {
        case .locationWhenInUse: "NSLocationWhenInUseUsageDescription"
        case .locationAlways: "NSLocationAlwaysAndWhenInUseUsageDescription"
        case .motionFitness: "NSMotionUsageDescription"
        case .bluetooth: "NSBluetoothAlwaysUsageDescription"
        }
    }

    /// Declaration order.
    public static func < (lhs: DoorstepPermission, rhs: DoorstepPermission) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}

/// The eight verdicts, shared with the Android SDK's vocabulary.
public enum DoorstepPermissionState: String, CaseIterable, Sendable {
    /// Held now.
    case granted
    /// Never asked; a prompt will show.
    case notDetermined
    /// Foreground location held, background not. Only for `locationAlways`.
    case whenInUseOnly
    /// Refused, another prompt possible. Never reported on iOS.
    case denied
    /// Refused, no further prompt possible. Every iOS refusal.
    case permanentlyDenied
    /// Blocked by device policy.
    case restricted
    /// Hardware or OS support absent.
    case unavailable
    /// The Info.plist usage-description key is missing.
    case notDeclared
}

/// One bucket's status.
public struct DoorstepPermissionStatus: Sendable, Equatable {
    /// The bucket.
    public var permission: DoorstepPermission
    /// The verdict to branch on.
    public var state: DoorstepPermissionState
    /// Raw evidence in iOS's words, for diagnostics only.
    public var osStatus: String
    /// Whether a request with default parameters would show a prompt.
    public var canRequest: Bool

    /// Creates a status.
    public init(permission: DoorstepPermission, state: DoorstepPermissionState, osStatus: String, canRequest: Bool) {
        self.permission = permission
        self.state = state
        self.osStatus = osStatus
        self.canRequest = canRequest
    }
}

/// Why the requester did not ask for a bucket: a stable code and human text. Codes that
/// mean the same as a `CLServiceSession` diagnostic use its name.
public struct DoorstepDeferralReason: Sendable, Equatable {
    /// Stable, for code to branch on.
    public var code: String
    /// For people.
    public var message: String

    /// Creates a reason.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}

/// What a `requestPermissions` call did.
public struct DoorstepPermissionRequestResult: Sendable, Equatable {
    /// Buckets actually prompted for, in prompt order.
    public var requested: [DoorstepPermission] = []
    /// Whitelisted buckets already answered, left alone.
    public var alreadyDetermined: [DoorstepPermission] = []
    /// Whitelisted buckets that cannot be requested (unavailable or notDeclared).
    public var unavailable: [DoorstepPermission] = []
    /// Every bucket deliberately skipped, with the reason.
    public var deferred: [DoorstepPermission: DoorstepDeferralReason] = [:]
    /// Every whitelisted bucket's status once the sequence settled.
    public var statuses: [DoorstepPermission: DoorstepPermissionStatus] = [:]

    /// True when at least one prompt was raised.
    public var didRequest: Bool { !requested.isEmpty }

    /// An empty result.
    public init() {}
}
