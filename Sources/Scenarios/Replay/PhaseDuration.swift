import Device

/// Seconds an app spent in one phase over a run (`ScenarioRun.secondsByPhase`).
public struct PhaseDuration: Sendable, Equatable {
    public var phase: AppPhase
    public var seconds: Double

    public init(phase: AppPhase, seconds: Double) {
        self.phase = phase
        self.seconds = seconds
    }
}
