import SimulationCore

/// The app's phase or the screen lock changed at `time`: one row of a run's lifecycle
/// timeline, which reports draw as bands and count seconds per phase from.
public struct LifecycleChange: Sendable, Equatable {
    public var time: SimInstant
    public var phase: AppPhase
    public var isScreenLocked: Bool

    public init(time: SimInstant, phase: AppPhase, isScreenLocked: Bool) {
        self.time = time
        self.phase = phase
        self.isScreenLocked = isScreenLocked
    }
}

extension [LifecycleChange] {
    /// Appends a row for `phase` and `isScreenLocked` at `time` unless the last row already
    /// says the same: a timeline holds changes only.
    package mutating func record(_ phase: AppPhase, isScreenLocked: Bool, at time: SimInstant) {
        if let last, last.phase == phase, last.isScreenLocked == isScreenLocked { return }
        append(LifecycleChange(time: time, phase: phase, isScreenLocked: isScreenLocked))
    }
}

/// What the device did at `time`, as a run that keeps its log records it.
public struct TimedDeviceAction: Sendable, Equatable {
    public var time: SimInstant
    public var action: DeviceAction
    /// The app's phase right after the step that did it.
    public var appPhase: AppPhase

    public init(time: SimInstant, action: DeviceAction, appPhase: AppPhase) {
        self.time = time
        self.action = action
        self.appPhase = appPhase
    }
}
