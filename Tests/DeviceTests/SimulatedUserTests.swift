import Device
import SimulationCore
import Testing

@Suite("SimulatedUser and the prompt log")
struct SimulatedUserTests {
    @Test("answers come in script order, the last repeats, and an empty family never answers")
    func scriptOrder() throws {
        var user = try SimulatedUser(responses: [
            .location: [.answer(.dontAllow, afterSeconds: 1), .answer(.allowOnce(precise: true), afterSeconds: 4)],
            .motion: [.neverAnswers],
        ])
        #expect(user.respond(to: .location) == .answer(.dontAllow, afterSeconds: 1))
        #expect(user.respond(to: .locationForAlways) == .answer(.allowOnce(precise: true), afterSeconds: 4))
        #expect(user.respond(to: .location) == .answer(.allowOnce(precise: true), afterSeconds: 4))
        #expect(user.respond(to: .motion) == .neverAnswers)
        #expect(user.respond(to: .bluetooth) == .neverAnswers)
    }

    @Test("a script answer the prompt does not offer is refused, naming where it is")
    func invalidScript() {
        #expect(throws: SimulatedUser.ScriptError(family: .upgrade, index: 1, answer: .allow)) {
            try SimulatedUser(responses: [.upgrade: [.answer(.keepWhileUsing, afterSeconds: 1), .answer(.allow, afterSeconds: 1)]])
        }
        let error = SimulatedUser.ScriptError(family: .location, index: 0, answer: .changeToAlways)
        #expect(error.description == "location[0]: 'changeToAlways' is not an answer the location prompt offers")
    }

    @Test("scripted Settings changes apply at their times")
    func settingsSchedule() throws {
        let user = try SimulatedUser(
            responses: [:],
            settingsChanges: [
                .init(atSeconds: 120, change: .setPrecise(false)),
                .init(atSeconds: 60, change: .setLocationServices(false)),
            ])
        #expect(user.settingsChanges.map(\.atSeconds) == [60, 120])
        var timeline = DeviceRun.testing(Setup.authorized(.authorizedAlways), user: user)
        timeline.at(0, .user(.launchedApp))
        timeline.advance(to: 59)
        #expect(timeline.device.authorization.state.status == .authorizedAlways)
        timeline.advance(to: 60)
        #expect(timeline.device.authorization.state.status == .denied)
        timeline.advance(to: 120)
        #expect(timeline.device.authorization.state.isPrecise == false)
    }

    @Test("the prompt log records shown, suppressed and answered prompts with their times")
    func promptLog() {
        var timeline = DeviceRun.testing(user: Setup.user([.location: [.answer(.allowWhileUsing(precise: false), afterSeconds: 3)]]))
        timeline.at(0, .user(.launchedApp))
        timeline.at(1, .app(.requestedWhenInUse))
        timeline.at(2, .app(.requestedWhenInUse))
        timeline.advance(to: 10)
        let log = timeline.device.promptLog
        #expect(
            log == [
                PromptLogEntry(time: timeline.time(1), kind: .location, outcome: .shown),
                PromptLogEntry(time: timeline.time(2), kind: .location, outcome: .suppressed(.onePromptAtATime)),
                PromptLogEntry(time: timeline.time(4), kind: .location, outcome: .answered(.allowWhileUsing(precise: false))),
            ])
        #expect(timeline.device.authorization.state.accuracy == .reducedAccuracy)
    }

    @Test("SplitMix64 gives the same sequence for the same seed on every platform")
    func seededGenerator() {
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
        var first = SplitMix64(seed: 42)
        var second = SplitMix64(seed: 42)
        #expect((0..<5).map { _ in first.uniform(0...10) } == (0..<5).map { _ in second.uniform(0...10) })
    }
}
