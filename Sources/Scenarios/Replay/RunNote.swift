import SimulationCore

/// What TraceSim itself says about a run, beside what the engine under test reported: a reason
/// the run's figures read as they do that nothing else in its output gives (see
/// `UnsettledAuthorization`). Notes are kept apart from the engine's diagnostics, so they are
/// never blamed on the engine and never count against its cap.
public struct RunNote: Sendable, Equatable {
    /// What TraceSim noticed, one line.
    public var message: String
    /// From when it applies.
    public var time: SimInstant

    /// A note saying `message` from `time`.
    public init(message: String, time: SimInstant) {
        self.message = message
        self.time = time
    }
}
