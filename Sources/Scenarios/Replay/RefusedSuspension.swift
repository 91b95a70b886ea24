import Device
import SimulationCore

/// A scripted `suspend` (a timeline's or a person's lifecycle move) that the phone did not
/// carry out, and why. iOS suspends only a background app that nothing keeps running (a4 #2):
/// an app on screen, or one kept running by location updates allowed in the background, a
/// background activity session or a wake window, stays running, and the simulated phone
/// follows iOS rather than the script. Without a word, a scenario that asked for a
/// suspension reads as if it had one, so each refusal becomes a note on the run.
public struct RefusedSuspension: Sendable, Equatable {
    /// When the script asked for the suspension.
    public var time: SimInstant
    /// The app's phase then: `foreground` or `background`.
    public var phase: AppPhase

    /// A refusal at `time` of an app in `phase`.
    public init(time: SimInstant, phase: AppPhase) {
        self.time = time
        self.phase = phase
    }

    /// The run's note for it.
    var note: RunNote {
        let reason =
            phase == .foreground
            ? "the app was in the foreground, and iOS suspends only background apps"
            : "something kept the app running: location updates allowed in the background, a background "
                + "activity session or a wake window; iOS suspends only an app nothing keeps running"
        return RunNote(message: "the timeline's suspend was not carried out: \(reason), fact sheet a4 #2", time: time)
    }
}
