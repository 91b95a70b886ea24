import Device
@testable import Scenarios
import SimulationCore
import Testing
import Traces

/// The deferred Always upgrade prompt in a whole replay: a phone locked at 60 s and never
/// unlocked shows nobody the prompt; the `provisional-always` preset's unlock halfway shows it.
@Suite("Deferred upgrade prompt in a replay")
struct DeferredPromptReplayTests {
    /// The bundled u-blox drive, loaded once for the target (`PresetTests`).
    static var trace: Trace { PresetTests.trace }

    static func deferred(_ run: ScenarioRun) -> [(Double, PromptLogEntry.Outcome)] {
        run.promptLog.filter { $0.kind == .deferredAlwaysUpgrade }
            .map { ($0.time.seconds(since: trace.fixes[0].timestamp), $0.outcome) }
    }

    @Test("deferredUpgradePromptWaitsForUnlock: never unlocked, never shown; the preset's unlock halfway shows it")
    func unlockShowsThePrompt() throws {
        let preset = try #require(Scenario.preset(named: "provisional-always"))
        var neverUnlocked = preset
        neverUnlocked.timeline = [Scenario.TimelineEvent(.seconds(60), .user(.lockedScreen))]
        let locked = try ScenarioRunner.run(Self.trace, neverUnlocked)
        #expect(Self.deferred(locked).isEmpty)
        let unlocked = try ScenarioRunner.run(Self.trace, preset)
        let prompts = Self.deferred(unlocked)
        let halfway = Self.trace.fixes.last!.timestamp.seconds(since: Self.trace.fixes[0].timestamp) / 2
        #expect(prompts.map(\.0) == [halfway, halfway + 2], "\(prompts)")
        #expect(prompts.first?.1 == .shown)
        #expect(unlocked.recorder.acceptedFixCount > locked.recorder.acceptedFixCount)
    }
}
