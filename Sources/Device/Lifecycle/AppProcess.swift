/// What the app's process has started: the services that belong to the process, not to the OS.
///
/// They live in the payload of the running and suspended phases (`LifecycleStateMachine.State`)
/// because they share the process's fate: they survive suspension and a wake for an event, they
/// end when the process ends, and a new process starts without them (a4 #11, #12). So "updates
/// running in a terminated app" cannot be written. Region, significant-change and visit
/// monitoring are the OS's and outlive the process; they stay in `Device`.
public struct AppProcess: Sendable, Equatable {
    /// Standard location updates (`startUpdatingLocation()`).
    public package(set) var locationUpdates = LocationUpdates.stopped
    /// A `CLBackgroundActivitySession` is held (a4 #8).
    public package(set) var hasActivitySession = false
    /// Motion-activity updates were started (`startActivityUpdates`).
    public package(set) var isMotionRunning = false

    /// A new process has started nothing.
    package init() {}

    /// Whether updates were requested and not stopped; automatically paused updates count, as
    /// they do for `CLLocationManager` until the app stops them.
    @inlinable public var isUpdatingLocation: Bool {
        switch locationUpdates {
        case .stopped: false
        case .running, .paused: true
        }
    }
}

/// The state of standard location updates inside a process.
public enum LocationUpdates: Sendable, Equatable {
    /// Never started, or stopped by the app.
    case stopped
    /// Running with these options; `startedInForeground` decides whether they keep a When-In-Use
    /// app in use after it leaves the foreground (a4 #4).
    case running(LocationUpdateOptions, startedInForeground: Bool)
    /// Paused by the OS (`pausesLocationUpdatesAutomatically`); nothing is delivered until the app
    /// starts updates again.
    case paused
}
