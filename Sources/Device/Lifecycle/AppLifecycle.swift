import SimulationCore

/// Where the app process is. Screen lock is tracked separately (`AppLifecycle.isScreenLocked`).
public enum AppPhase: String, Sendable {
    /// Never launched in this replay.
    case notRunning
    /// On screen.
    case foreground
    /// Running without being on screen (just backgrounded, or woken by an event).
    case background
    /// In memory, not running (models iOS suspension, a4 #2).
    case suspended
    /// Terminated by the system (memory pressure).
    case terminatedBySystem
    /// Swiped away by the user.
    case forceQuit

    /// Whether the process runs code and can receive deliveries.
    public var isRunning: Bool { self == .foreground || self == .background }
}

/// Why the app was launched.
public enum LaunchReason: String, Sendable {
    /// The user opened it.
    case user
    /// A monitored region was crossed.
    case regionEvent
    /// The significant-change service had an event.
    case significantChange
    /// The visit service had an event.
    case visit
}

/// The app's lifecycle and the "in use" definition When-In-Use depends on.
public struct AppLifecycle: Sendable, Equatable {
    /// The process phase.
    public internal(set) var phase = AppPhase.notRunning
    /// The screen is locked (orthogonal to the phase).
    public internal(set) var isScreenLocked = false
    /// When the app last left the foreground (or the screen locked over it).
    public internal(set) var leftForegroundAt: SimInstant?
    /// When the current background wake window closes.
    public internal(set) var wakeWindowEndsAt: SimInstant?

    /// Creates a lifecycle for an app that has not been launched.
    public init() {}

    /// Models When-In-Use "in use" (a4 #3): in the foreground, within the cutoff after leaving
    /// it, or while a background session keeps it in use (a4 #4, #8).
    public func isInUse(at now: SimInstant, cutoffSeconds: Double, hasBackgroundSession: Bool) -> Bool {
        if phase == .foreground { return true }
        guard phase.isRunning || phase == .suspended else { return false }
        if hasBackgroundSession && phase.isRunning { return true }
        guard let left = leftForegroundAt else { return false }
        return now.seconds(since: left) < cutoffSeconds
    }
}
