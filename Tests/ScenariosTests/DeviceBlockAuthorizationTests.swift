import ConfigJSON
import Device
import Foundation
import Permissions
@testable import Scenarios
import TestSupport
import Testing
import Traces

/// A scenario's `device` block changes only what it names: without a permission flow the phone
/// starts as the ideal one, with a flow as a fresh install. A run whose location authorization
/// never settles says so.
@Suite("Scenario device blocks and unsettled authorization")
struct DeviceBlockAuthorizationTests {
    static let bike: Trace = {
        let path = Repository.trace("gpsbabel/bike.tcx")
        do { return try TraceImporter.load(path: path) } catch { fatalError("bundled trace: \(error)") }
    }()

    static let unsettledPrefix = "location authorization never settled"

    private func scenario(_ text: String) throws -> Scenario {
        try ScenarioFile.parse(Array(text.utf8), file: "s.json").scenario
    }

    private func notes(_ run: ScenarioRun) -> [String] {
        run.notes.map(\.message).filter { $0.hasPrefix(Self.unsettledPrefix) }
    }

    @Test(
        "without a flow, a device block that names no authorization keeps the ideal phone's, motion included",
        arguments: [
            #"{"name": "a", "device": {}}"#,
            #"{"name": "a", "device": {}, "authorization": "fixed"}"#,
            #"{"name": "a", "device": {"parameters": {"lowPowerMode": false}}}"#,
            #"{"name": "a", "device": {"osProfile": "ios26", "infoPlist": {"locationBackgroundMode": true}}}"#,
            #"{"name": "a", "device": {"authorization": {}}}"#,
        ])
    func fixedKeepsTheIdealAuthorization(file: String) throws {
        let device = try scenario(file).device
        #expect(device.authorization == Scenario.idealDevice.authorization)
        #expect(device.authorization.status == .authorizedAlways)
        #expect(device.authorization.accuracy == .fullAccuracy)
        #expect(device.authorization.motionStatus == .authorized)
        #expect(device.authorization.isLocationServicesEnabled)
        #expect(device.infoPlist.hasWhenInUseUsageDescription && device.infoPlist.hasAlwaysAndWhenInUseUsageDescription)
    }

    @Test("without a flow, each authorization key the block sets replaces only that value of the ideal phone's")
    func fixedReplacesOnlyWhatItNames() throws {
        let wheninuse = try scenario(#"{"name": "a", "device": {"authorization": {"location": "authorizedWhenInUse"}}}"#)
        #expect(wheninuse.device.authorization.storedStatus == .authorizedWhenInUse)
        #expect(wheninuse.device.authorization.motionStatus == .authorized)
        #expect(wheninuse.device.authorization.isPrecise)
        let motionDenied = try scenario(#"{"name": "a", "device": {"authorization": {"motion": "denied"}}}"#)
        #expect(motionDenied.device.authorization.storedStatus == .authorizedAlways)
        #expect(motionDenied.device.authorization.motionStatus == .denied)
        let fresh = try scenario(
            #"{"name": "a", "device": {"authorization": {"location": "notDetermined", "motion": "notDetermined"}}}"#)
        #expect(fresh.device.authorization == AuthorizationStateMachine.State())
    }

    @Test(
        "with a permission flow the phone starts as a fresh install, with or without a device block",
        arguments: [
            #"{"name": "a", "authorization": {"flow": "bggeo"}}"#,
            #"{"name": "a", "device": {}, "authorization": {"flow": "doorstep"}}"#,
            #"{"name": "a", "device": {"parameters": {"lowPowerMode": false}}, "authorization": {"flow": "wizard"}}"#,
        ])
    func flowStartsFromAFreshInstall(file: String) throws {
        let parsed = try scenario(file)
        #expect(parsed.device.authorization == AuthorizationStateMachine.State())
        let run = try ScenarioRunner.run(Self.bike, parsed)
        let asked = run.promptLog.contains { $0.kind == .locationForAlways || $0.kind == .location }
        #expect(asked, "the flow could not prompt: \(run.promptLog)")
    }

    @Test("DEVICE.json on its own (permissions --device) still starts from a fresh install")
    func deviceFileKeepsItsDefault() throws {
        let setup = try DeviceSetup.parse(Array(#"{"parameters": {"lowPowerMode": false}}"#.utf8), file: "d.json")
        #expect(setup.configuration.authorization == AuthorizationStateMachine.State())
        let motion = try DeviceSetup.parse(Array(#"{"authorization": {"location": "denied"}}"#.utf8), file: "d.json")
        #expect(motion.configuration.authorization.motionStatus == .notDetermined)
    }

    @Test("a one-parameter device block collects what the ideal run collects, on a bundled trace, with no note")
    func oneParameterCollectsTheIdeal() throws {
        let tweaked = try ScenarioRunner.run(
            Self.bike, try scenario(#"{"name": "a", "device": {"parameters": {"lowPowerMode": false}}}"#))
        let ideal = try ScenarioRunner.run(Self.bike, try #require(Scenario.preset(named: "ideal")))
        #expect(ideal.recorder.acceptedFixCount > 1000)
        #expect(tweaked.recorder.acceptedFixCount == ideal.recorder.acceptedFixCount)
        #expect(tweaked.diagnostics.isEmpty && tweaked.notes.isEmpty)
    }

    @Test("a run told notDetermined throughout, with nothing asking, gets the note; a settled one does not")
    func nothingAskedIsNoted() throws {
        let unasked = try ScenarioRunner.run(
            Self.bike, try scenario(#"{"name": "a", "device": {"authorization": {"location": "notDetermined"}}}"#))
        #expect(unasked.recorder.acceptedFixCount == 0)
        let note = try #require(unasked.notes.first)
        #expect(unasked.notes.count == 1)
        #expect(note.message.hasPrefix(Self.unsettledPrefix))
        #expect(note.message.contains("nothing asked for it"))
        #expect(note.time == unasked.traceStart)
        // TraceSim's word, not the engine's: it is no diagnostic and takes none of the engine's cap.
        #expect(unasked.diagnostics.isEmpty)
        let denied = try ScenarioRunner.run(
            Self.bike, try scenario(#"{"name": "a", "device": {"authorization": {"location": "denied"}}}"#))
        #expect(notes(denied).isEmpty)
        let servicesOff = try ScenarioRunner.run(
            Self.bike,
            try scenario(
                #"{"name": "a", "device": {"authorization": {"location": "notDetermined", "locationServices": false}}}"#))
        #expect(notes(servicesOff).isEmpty)
    }

    @Test("a location prompt the person never answers gets the note, from when it was shown")
    func unansweredPromptIsNoted() throws {
        let run = try ScenarioRunner.run(
            Self.bike,
            try scenario(
                #"{"name": "a", "authorization": {"flow": "bggeo", "user": {"answers": [{"prompt": "location", "answer": "noAnswer"}]}}}"#
            ))
        let notes = notes(run)
        #expect(notes.count == 1)
        #expect(notes.first?.contains("never answered") == true)
    }

    @Test("an Allow Once grant that lapses back to notDetermined was settled for a while: no note")
    func lapsedGrantIsNotNoted() throws {
        let run = try ScenarioRunner.run(Self.bike, try #require(Scenario.preset(named: "allow-once")))
        #expect(run.authorization.contains { $0.kind == .allowOnceLapsed })
        #expect(notes(run).isEmpty)
    }

    @Test("no preset gets the note: a request iOS ignored is in the prompt log with its rule")
    func presetsAreNotNoted() throws {
        for preset in Scenario.presets {
            let run = try ScenarioRunner.run(Self.bike, preset)
            #expect(run.diagnostics.isEmpty && run.notes.isEmpty, "\(preset.name): \(run.notes)")
        }
        let missing = try ScenarioRunner.run(Self.bike, try #require(Scenario.preset(named: "missing-usage-key")))
        #expect(missing.promptLog.contains { $0.outcome == .suppressed(.missingUsageKeyIgnoresRequest) })
    }

    @Test("the rule on its own: every location status and prompt outcome")
    func ruleTable() {
        let start = Self.bike.fixes[0].timestamp
        let later = start.advanced(bySeconds: 5)
        func told(_ statuses: [AuthorizationStatus]) -> [AuthorizationChange] {
            statuses.map { AuthorizationChange(time: start, kind: .location($0, .fullAccuracy, provisional: false)) }
        }
        let shown = PromptLogEntry(time: later, kind: .location, outcome: .shown)
        let answered = PromptLogEntry(time: later, kind: .location, outcome: .answered(.dontAllow))
        let ignored = PromptLogEntry(
            time: later, kind: .locationForAlways, outcome: .suppressed(.missingUsageKeyIgnoresRequest))
        let motion = PromptLogEntry(time: later, kind: .motion, outcome: .shown)
        #expect(UnsettledAuthorization.note(authorization: told([.notDetermined]), promptLog: [], start: start)?.time == start)
        #expect(
            UnsettledAuthorization.note(authorization: told([.notDetermined]), promptLog: [motion], start: start) != nil)
        #expect(
            UnsettledAuthorization.note(authorization: told([.notDetermined]), promptLog: [shown], start: start)?.time
                == later)
        #expect(
            UnsettledAuthorization.note(authorization: told([.notDetermined]), promptLog: [shown, answered], start: start)
                == nil)
        #expect(UnsettledAuthorization.note(authorization: told([.notDetermined]), promptLog: [ignored], start: start) == nil)
        #expect(
            UnsettledAuthorization.note(
                authorization: told([.notDetermined, .authorizedWhenInUse, .notDetermined]),
                promptLog: [], start: start) == nil)
        for status in [AuthorizationStatus.denied, .restricted, .authorizedAlways, .authorizedWhenInUse] {
            #expect(UnsettledAuthorization.note(authorization: told([status]), promptLog: [], start: start) == nil)
        }
    }
}
