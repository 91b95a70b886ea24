/// Where the app process is: the payload-free name of a `LifecycleStateMachine.State`, for
/// reports and timelines. Screen lock is not part of it (`LifecycleStateMachine.isScreenLocked`).
public enum AppPhase: String, Sendable {
    /// Never launched in this replay.
    case notRunning
    /// On screen.
    case foreground
    /// Running without being on screen (just backgrounded, or woken by an event).
    case background
    /// In memory, not running (models iOS suspension, a4 #2).
    case suspended
    /// Terminated by the system (memory pressure, a crash, a revoked permission).
    case terminatedBySystem
    /// Swiped away by the user.
    case forceQuit

    /// Whether the process runs code and can receive deliveries.
    public var isRunning: Bool { self == .foreground || self == .background }
}

/// Why the app was launched; `DeviceAction.appLaunched` carries it.
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
