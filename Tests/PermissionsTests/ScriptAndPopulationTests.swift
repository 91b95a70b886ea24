import ConfigJSON
import Device
import Foundation
import Permissions
import Testing
import Traces

@Suite("USER.json, DEVICE.json, POP.json and layer comparison")
struct ScriptAndPopulationTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("USER.json: answers in order per prompt, Settings changes and lifecycle moves")
    func userScript() throws {
        let script = try UserScript.parse(
            Self.bytes(
                """
                {"answers": [{"prompt": "location", "answer": "allowWhileUsingApproximate", "afterSeconds": 3},
                             {"prompt": "location", "answer": "noAnswer"},
                             {"prompt": "upgrade", "answer": "keepOnlyWhileUsing"}],
                 "settings": [{"at": 600, "change": "locationServicesOff"}],
                 "lifecycle": [{"at": 30, "event": "lock"}]}
                """), file: "USER.json")
        var user = script.user
        #expect(user.respond(to: .location) == .answer(.allowWhileUsing(precise: false), afterSeconds: 3))
        #expect(user.respond(to: .location) == .neverAnswers)
        #expect(user.respond(to: .alwaysUpgrade) == .answer(.keepWhileUsing, afterSeconds: 2))
        #expect(user.settingsChanges == [.init(atSeconds: 600, change: .setLocationServices(false))])
        #expect(script.lifecycle == [.init(atSeconds: 30, event: .user(.lockedScreen))])
    }

    @Test(
        "USER.json errors name the line, column and JSON path",
        arguments: [
            (#"{"answers": [{"prompt": "camera", "answer": "allow"}]}"#, "USER.json:1:25: $.answers[0].prompt: 'camera' is not one of"),
            (#"{"answers": [{"prompt": "upgrade", "answer": "allow"}]}"#, "USER.json:1:46: $.answers[0].answer: 'allow' is not one of"),
            ("{\"answers\": [],\n \"mood\": 1}", "USER.json:2:10: $.mood: unknown key"),
            (#"{"settings": [{"at": -5, "change": "preciseOn"}]}"#, "USER.json:1:22: $.settings[0].at: must be between 0 and"),
            (#"{"lifecycle": [{"event": "lock"}]}"#, "USER.json:1:16: $.lifecycle[0]: missing required key 'at'"),
            (#"{"answers": [{"prompt": "location", "answer": "allowOnce""#, "USER.json:1:58: file ends early"),
            ("", "USER.json: the file is empty"),
        ])
    func userScriptErrors(text: String, message: String) {
        do {
            _ = try UserScript.parse(Self.bytes(text), file: "USER.json")
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description)")
        }
    }

    @Test("DEVICE.json: Info.plist and starting permissions; unknown tokens are errors")
    func deviceSetup() throws {
        let setup = try DeviceSetup.parse(
            Self.bytes(
                """
                {"osProfile": "ios13", "simulatorClassDevice": true,
                 "infoPlist": {"bluetoothUsageDescription": false, "temporaryFullAccuracyPurposes": ["Delivery"]},
                 "authorization": {"location": "authorizedWhenInUse", "precise": false, "motion": "denied"}}
                """), file: "DEVICE.json")
        #expect(setup.configuration.parameters.osProfile == .ios13)
        #expect(setup.isSimulatorClassDevice)
        #expect(!setup.configuration.infoPlist.hasBluetoothUsageDescription)
        #expect(setup.configuration.infoPlist.temporaryFullAccuracyPurposes == ["Delivery"])
        #expect(setup.configuration.authorization.storedStatus == .authorizedWhenInUse)
        #expect(setup.configuration.authorization.motionStatus == .denied)
        #expect(throws: ConfigError.self) {
            try DeviceSetup.parse(Self.bytes(#"{"authorization": {"location": "sometimes"}}"#), file: "DEVICE.json")
        }
    }

    @Test("POP.json: probabilities must add up to 1 per prompt")
    func populationValidation() {
        #expect(throws: ConfigError.self) {
            try Population.parse(Self.bytes(#"{"motion": {"allow": 0.5, "dontAllow": 0.6}}"#), file: "POP.json")
        }
    }

    @Test("the population share is exact: the product of the answers that reach Always + Precise + Motion")
    func populationShare() throws {
        let population = try Population.parse(
            Self.bytes(
                """
                {"location": {"allowWhileUsing": 0.6, "allowWhileUsingApproximate": 0.1, "allowOnce": 0.1, "dontAllow": 0.2},
                 "upgrade": {"changeToAlwaysAllow": 0.4, "keepOnlyWhileUsing": 0.6},
                 "motion": {"allow": 0.8, "dontAllow": 0.2}}
                """), file: "POP.json")
        let wizard = PermissionLayer.wizard.share(of: population, setup: DeviceSetup())
        #expect(abs(wizard.share - 0.6 * 0.4 * 0.8) < 1e-12)
        // The requester's one call settles a first Always request on While Using: nobody gets there.
        #expect(PermissionLayer.doorstep.share(of: population, setup: DeviceSetup()).share == 0)
        // Someone who already holds While Using and is asked by the facade upgrades with probability 0.4.
        var whileUsing = DeviceSetup()
        whileUsing.configuration.authorization.storedStatus = .authorizedWhenInUse
        whileUsing.configuration.authorization.motionStatus = .authorized
        #expect(abs(PermissionLayer.bggeo.share(of: population, setup: whileUsing).share - 0.4) < 1e-12)
    }

    @Test("comparison: the same person through all four layers")
    func compare() {
        let user = Sessions.user([
            .location: [Sessions.allowWhileUsing], .upgrade: [.answer(.changeToAlways, afterSeconds: 2)],
            .motion: [.answer(.allow, afterSeconds: 2)],
        ])
        let runs = PermissionLayer.allCases.map { $0.run(setup: DeviceSetup(), user: user) }
        #expect(runs.map(\.isBackgroundCollectionPossible) == [false, false, false, true])
        #expect(runs[0].session.promptsShown == [.locationForAlways, .motion, .bluetooth])
        #expect(runs[2].airship?.warning != nil)
        #expect(runs[3].wizard?.granted == true)
    }
}
