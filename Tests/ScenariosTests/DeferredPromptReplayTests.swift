import Device
import Foundation
@testable import Scenarios
import SimulationCore
import Testing
import Traces

/// The deferred Always upgrade prompt in a whole replay: the `provisional-always` preset locks
/// the phone at 60 s and never unlocks it, so nobody sees the prompt; an unlock shows it.
@Suite("Deferred upgrade prompt in a replay")
struct DeferredPromptReplayTests {
    static let trace: Trace = {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Traces/gps-measurement-tools/MTV.Local1.ublox-F9K.20200206-181434.nmea").path
        do { return try TraceImporter.load(path: path) } catch { fatalError("bundled trace: \(error)") }
    }()

    static func deferred(_ run: ScenarioRun) -> [(Double, PromptLogEntry.Outcome)] {
        run.promptLog.filter { $0.kind == .deferredAlwaysUpgrade }
            .map { ($0.time.seconds(since: trace.fixes[0].timestamp), $0.outcome) }
    }

    @Test("deferredUpgradePromptWaitsForUnlock: provisional-always never shows it; an unlock at 600 s shows it then")
    func unlockShowsThePrompt() throws {
        var scenario = try #require(Scenario.preset(named: "provisional-always"))
        let locked = try ScenarioRunner.run(Self.trace, scenario)
        #expect(Self.deferred(locked).isEmpty)
        scenario.timeline.append(Scenario.TimelineEvent(.seconds(600), .user(.unlockedScreen)))
        let unlocked = try ScenarioRunner.run(Self.trace, scenario)
        let prompts = Self.deferred(unlocked)
        #expect(prompts.map(\.0) == [600, 602], "\(prompts)")
        #expect(prompts.first?.1 == .shown)
        #expect(unlocked.recorder.acceptedFixCount > locked.recorder.acceptedFixCount)
    }
}
