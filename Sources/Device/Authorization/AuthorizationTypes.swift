/// Models `CLAuthorizationStatus`, with Core Location's raw values.
public enum AuthorizationStatus: Int, Sendable, CaseIterable {
    /// Models `CLAuthorizationStatus.notDetermined`.
    case notDetermined = 0
    /// Models `CLAuthorizationStatus.restricted`.
    case restricted = 1
    /// Models `CLAuthorizationStatus.denied`.
    case denied = 2
    /// Models `CLAuthorizationStatus.authorizedAlways`.
    case authorizedAlways = 3
    /// Models `CLAuthorizationStatus.authorizedWhenInUse`.
    case authorizedWhenInUse = 4

    /// Whether location may be delivered at all under this status.
    public var isAuthorized: Bool { self == .authorizedAlways || self == .authorizedWhenInUse }

    /// The Core Location spelling.
    public var name: String {
        switch self {
        case .notDetermined: "notDetermined"
        case .restricted: "restricted"
        case .denied: "denied"
        case .authorizedAlways: "authorizedAlways"
        case .authorizedWhenInUse: "authorizedWhenInUse"
        }
    }
}

/// Models `CLAccuracyAuthorization`.
public enum AccuracyAuthorization: Sendable {
    /// Models `CLAccuracyAuthorization.fullAccuracy`.
    case fullAccuracy
    /// Models `CLAccuracyAuthorization.reducedAccuracy`.
    case reducedAccuracy

    /// The Core Location spelling.
    public var name: String { self == .fullAccuracy ? "fullAccuracy" : "reducedAccuracy" }
}

/// Models `CMAuthorizationStatus`.
public enum MotionAuthorizationStatus: Int, Sendable, CaseIterable {
    /// Models `CMAuthorizationStatus.notDetermined`.
    case notDetermined = 0
    /// Models `CMAuthorizationStatus.restricted`.
    case restricted = 1
    /// Models `CMAuthorizationStatus.denied`.
    case denied = 2
    /// Models `CMAuthorizationStatus.authorized`.
    case authorized = 3
}

/// Models `CBManagerAuthorization`.
public enum BluetoothAuthorizationStatus: Int, Sendable, CaseIterable {
    /// Models `CBManagerAuthorization.notDetermined`.
    case notDetermined = 0
    /// Models `CBManagerAuthorization.restricted`.
    case restricted = 1
    /// Models `CBManagerAuthorization.denied`.
    case denied = 2
    /// Models `CBManagerAuthorization.allowedAlways`.
    case allowedAlways = 3
}

/// What the app declares in its Info.plist that Core Location, Core Motion and Core
/// Bluetooth consult.
public struct InfoPlist: Sendable, Equatable {
    /// `NSLocationWhenInUseUsageDescription` is present.
    public var hasWhenInUseUsageDescription = true
    /// `NSLocationAlwaysAndWhenInUseUsageDescription` is present.
    public var hasAlwaysAndWhenInUseUsageDescription = true
    /// `NSMotionUsageDescription` is present.
    public var hasMotionUsageDescription = true
    /// `NSBluetoothAlwaysUsageDescription` is present.
    public var hasBluetoothUsageDescription = true
    /// The purpose keys of `NSLocationTemporaryUsageDescriptionDictionary`.
    public var temporaryFullAccuracyPurposes: Set<String> = []
    /// `UIBackgroundModes` contains `location`.
    public var hasLocationBackgroundMode = true
    /// `NSLocationDefaultAccuracyReduced` is true.
    public var defaultAccuracyReduced = false

    /// A complete declaration: every usage key, the location background mode, full accuracy.
    public init() {}
}

/// The system prompts the simulated device can show.
public enum PromptKind: Sendable, Equatable {
    /// The location prompt (Allow While Using, Allow Once, Don't Allow), from a When-In-Use request.
    case location
    /// The same location prompt, raised by a first-time Always request.
    case locationForAlways
    /// The immediate upgrade prompt from When-In-Use (Keep Only While Using, Change to Always Allow).
    case alwaysUpgrade
    /// The one-shot deferred upgrade prompt raised by an Always-requiring event.
    case deferredAlwaysUpgrade
    /// The temporary full-accuracy prompt for a purpose key.
    case temporaryFullAccuracy(purpose: String)
    /// The Motion & Fitness prompt.
    case motion
    /// The Bluetooth prompt.
    case bluetooth

    /// A short stable token for logs and reports.
    public var name: String {
        switch self {
        case .location: "location"
        case .locationForAlways: "locationForAlways"
        case .alwaysUpgrade: "alwaysUpgrade"
        case .deferredAlwaysUpgrade: "deferredAlwaysUpgrade"
        case .temporaryFullAccuracy: "temporaryFullAccuracy"
        case .motion: "motion"
        case .bluetooth: "bluetooth"
        }
    }
}

/// What a user can answer to a prompt.
public enum PromptAnswer: Sendable, Equatable {
    /// Allow While Using App, with the Precise switch on or off; `nil` leaves the switch as
    /// the prompt showed it (off when NSLocationDefaultAccuracyReduced is set).
    case allowWhileUsing(precise: Bool?)
    /// Allow Once, with the Precise switch on, off, or as shown (`nil`).
    case allowOnce(precise: Bool?)
    /// Don't Allow.
    case dontAllow
    /// Keep Only While Using (an upgrade prompt).
    case keepWhileUsing
    /// Change to Always Allow (an upgrade prompt).
    case changeToAlways
    /// Allow (motion, Bluetooth, temporary full accuracy).
    case allow
    /// Don't Allow (motion, Bluetooth, temporary full accuracy).
    case deny

    /// A short stable token for logs and reports.
    public var name: String {
        switch self {
        case .allowWhileUsing(let precise): "allowWhileUsing" + Self.preciseSuffix(precise)
        case .allowOnce(let precise): "allowOnce" + Self.preciseSuffix(precise)
        case .dontAllow: "dontAllow"
        case .keepWhileUsing: "keepWhileUsing"
        case .changeToAlways: "changeToAlways"
        case .allow: "allow"
        case .deny: "deny"
        }
    }

    private static func preciseSuffix(_ precise: Bool?) -> String {
        switch precise {
        case nil: ""
        case true?: "(precise)"
        case false?: "(approximate)"
        }
    }
}

/// A change the user makes in the Settings app.
public enum SettingsChange: Sendable, Equatable {
    /// Location: Always.
    case setAlways
    /// Location: While Using the App.
    case setWhileUsing
    /// Location: Never.
    case setNever
    /// Location: Ask Next Time (back to `notDetermined`).
    case setAskNextTime
    /// The Precise Location switch.
    case setPrecise(Bool)
    /// Privacy > Location Services, device-wide.
    case setLocationServices(Bool)
    /// Motion & Fitness for the app.
    case setMotion(Bool)
    /// Bluetooth for the app.
    case setBluetooth(Bool)
}
