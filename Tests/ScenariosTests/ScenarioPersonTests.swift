import Device
import Engine
import Scenarios
import SimulationCore
import TestSupport
import Testing
import Traces

/// One person per scenario, for the whole run (issue 30 §3): the person answers the flow and
/// every prompt the app raises while tracking, each preset's person matches its name, and a run
/// that ends with another status than its scenario promises is marked.
@Suite("One person per scenario")
struct ScenarioPersonTests {
    /// The fast tier's short walk: 48 fixes over 9 min.
    static let trace: Trace = {
        do { return try TraceImporter.load(path: TestTier.shortTraces[0]) } catch { fatalError("bundled trace: \(error)") }
    }()

    private static let asker = EngineUnderTest.custom(named: "asks-for-always") { _ in AuthorizationAskingClient() }

    private func run(_ scenario: Scenario, engine: EngineUnderTest = asker) throws -> ScenarioRun {
        try ScenarioRunner.run(Self.trace, scenario, engine: engine)
    }

    private func seconds(_ instant: SimInstant, _ run: ScenarioRun) -> Double { instant.seconds(since: run.traceStart) }

    private func finalStatus(_ run: ScenarioRun) -> AuthorizationStatus? {
        run.authorization.reversed().lazy.compactMap {
            if case .location(let status, _, _) = $0.kind { status } else { nil }
        }.first
    }

    @Test("A When-In-Use preset stays When-In-Use for an app that asks for Always")
    func wheninuseLockedStaysWhenInUse() throws {
        let result = try run(try #require(Scenario.preset(named: "wheninuse-locked")))
        let answers = result.promptLog.compactMap { entry -> PromptAnswer? in
            if case .answered(let answer) = entry.outcome { answer } else { nil }
        }
        #expect(answers == [.keepWhileUsing])
        #expect(finalStatus(result) == .authorizedWhenInUse)
        #expect(result.authorizationDrift == nil)
        #expect(result.notes.isEmpty)
    }

    @Test("an accepting person under a When-In-Use promise: the row is marked with the drift and when it happened")
    func acceptingPersonIsMarked() throws {
        var scenario = try #require(Scenario.preset(named: "wheninuse-locked"))
        scenario.name = "accepts-always"
        scenario.user = .agreeable
        let result = try run(scenario)
        let drift = try #require(result.authorizationDrift)
        #expect(drift.expected == .authorizedWhenInUse && drift.final == .authorizedAlways)
        // Asked at the first delivery (the first fix), answered 2 s later.
        #expect(seconds(drift.time, result) == 2)
        #expect(
            result.notes.map(\.message) == [
                "accepts-always → authorizedAlways, not the authorizedWhenInUse the scenario promises"
            ])
    }

    @Test("the flow's person goes on answering while tracking: temporary full accuracy asked later is refused")
    func flowPersonAnswersWhileTracking() throws {
        // Every layer uses the app's one Always request in the flow, so the prompt the app raises
        // while tracking is temporary full accuracy; before, a second person (agreeable) allowed it.
        let keepsApproximate = try SimulatedUser(responses: [
            .location: [.answer(.allowWhileUsing(precise: false), afterSeconds: 1)],
            .temporaryFullAccuracy: [.answer(.deny, afterSeconds: 1)],
        ])
        var device = Device.Configuration()
        device.authorization.motionStatus = .authorized
        device.infoPlist.temporaryFullAccuracyPurposes = ["Trips"]
        let scenario = Scenario(
            name: "flow-keeps", summary: "", device: device, authorization: .flow(.bggeo), user: keepsApproximate,
            expectedAuthorization: .authorizedWhenInUse)
        let engine = EngineUnderTest.custom(named: "full-accuracy") { _ in
            AuthorizationAskingClient(asksForAlways: false, fullAccuracyPurpose: "Trips")
        }
        let result = try run(scenario, engine: engine)
        let answered = result.promptLog.filter { entry in
            guard case .temporaryFullAccuracy = entry.kind else { return false }
            return entry.outcome != .shown
        }
        #expect(answered.map { $0.outcome } == [PromptLogEntry.Outcome.answered(.deny)])
        #expect(try #require(answered.first).time > result.traceStart.advanced(bySeconds: result.flowSeconds))
        let accuracy = result.authorization.reversed().lazy.compactMap {
            if case .location(_, let accuracy, _) = $0.kind { accuracy } else { nil }
        }.first
        #expect(accuracy == .reducedAccuracy)
        #expect(finalStatus(result) == .authorizedWhenInUse && result.authorizationDrift == nil)
    }

    @Test("allow-once answers Allow Once every time it is asked, the second prompt too")
    func allowOnceEachTime() throws {
        var device = Scenario.idealDevice
        device.authorization = AuthorizationStateMachine.State()
        device.authorization.motionStatus = .authorized
        let scenario = Scenario(
            name: "allow-once-twice", summary: "", device: device,
            timeline: [
                .init(.seconds(60), .user(.lockedScreen)), .init(.seconds(300), .user(.unlockedScreen)),
                .init(.seconds(300), .user(.movedAppToForeground)),
            ],
            user: .allowsOnce, expectedAuthorization: .authorizedWhenInUse)
        let engine = EngineUnderTest.custom(named: "reasks") { _ in
            AuthorizationAskingClient(asksForAlways: false, reasksWhenNotDetermined: true)
        }
        let result = try run(scenario, engine: engine)
        let answers = result.promptLog.compactMap { entry -> PromptAnswer? in
            if case .answered(let answer) = entry.outcome { answer } else { nil }
        }
        #expect(answers == [.allowOnce(precise: true), .allowOnce(precise: true)])
        #expect(result.authorization.contains { $0.kind == .allowOnceLapsed })
        // A lapse is what Allow Once promises: no mark.
        #expect(result.authorizationDrift == nil)
    }

    @Test("a fixed scenario's person makes their Settings changes during the replay")
    func fixedPersonChangesSettings() throws {
        let user = try SimulatedUser(
            responses: [:], settingsChanges: [.init(atSeconds: 120, change: .setNever)], name: nil)
        let scenario = Scenario(
            name: "turns-it-off", summary: "", user: user, expectedAuthorization: .authorizedAlways)
        let result = try ScenarioRunner.run(Self.trace, scenario)
        let drift = try #require(result.authorizationDrift)
        #expect(drift.final == .denied && seconds(drift.time, result) == 120)
    }

    @Test("every preset names its person and the status its name promises")
    func presetsNamePersons() {
        let persons = Dictionary(uniqueKeysWithValues: Scenario.presets.map { ($0.name, $0.user.name ?? "") })
        #expect(persons["wheninuse-locked"] == "keepsWhileUsing")
        #expect(persons["wheninuse-foreground"] == "keepsWhileUsing")
        #expect(persons["wheninuse-background-session"] == "keepsWhileUsing")
        #expect(persons["wheninuse-force-quit"] == "keepsWhileUsing")
        #expect(persons["allow-once"] == "allowsOnce")
        #expect(persons["denied"] == "refusesLocation")
        #expect(persons["always-motion-denied"] == "refusesMotion")
        #expect(persons["always-approximate"] == "keepsApproximate")
        #expect(persons["ideal"] == "agreeable")
        for preset in Scenario.presets {
            #expect(preset.user.name != nil, "\(preset.name) names no person")
            #expect(preset.expectedAuthorization != nil, "\(preset.name) promises no status")
        }
    }

    @Test("the built-in engine raises no prompt while tracking: no preset's row is marked")
    func builtInPresetsUnmarked() throws {
        for preset in Scenario.presets {
            let result = try ScenarioRunner.run(Self.trace, preset)
            #expect(result.authorizationDrift == nil, "\(preset.name): \(String(describing: result.authorizationDrift))")
        }
    }

    @Test("the When-In-Use person declines both upgrade prompts; the Allow Once person answers Allow Once each time")
    func personsAnswerAsNamed() {
        var keeps = SimulatedUser.keepsWhileUsing
        #expect(keeps.respond(to: .alwaysUpgrade) == .answer(.keepWhileUsing, afterSeconds: 2))
        #expect(keeps.respond(to: .deferredAlwaysUpgrade) == .answer(.keepWhileUsing, afterSeconds: 2))
        var once = SimulatedUser.allowsOnce
        for _ in 0..<3 { #expect(once.respond(to: .location) == .answer(.allowOnce(precise: true), afterSeconds: 2)) }
        var refuses = SimulatedUser.refusesLocation
        #expect(refuses.respond(to: .location) == .answer(.dontAllow, afterSeconds: 2))
    }
}
