import Device
import SimulationCore

/// The app's phase or the screen lock changed at `time`: one row of a replay's lifecycle
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
    mutating func record(_ phase: AppPhase, isScreenLocked: Bool, at time: SimInstant) {
        if let last, last.phase == phase, last.isScreenLocked == isScreenLocked { return }
        append(LifecycleChange(time: time, phase: phase, isScreenLocked: isScreenLocked))
    }
}

/// What the device did at `time`, as a replay that keeps its device log records it.
public struct TimedDeviceAction: Sendable, Equatable {
    public var time: SimInstant
    public var action: DeviceAction

    public init(time: SimInstant, action: DeviceAction) {
        self.time = time
        self.action = action
    }
}

/// Seconds an app spent in one phase over a run (`ScenarioRun.secondsByPhase`).
public struct PhaseDuration: Sendable, Equatable {
    public var phase: AppPhase
    public var seconds: Double

    public init(phase: AppPhase, seconds: Double) {
        self.phase = phase
        self.seconds = seconds
    }
}
