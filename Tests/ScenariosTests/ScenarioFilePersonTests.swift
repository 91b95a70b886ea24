import ConfigJSON
import Device
import Scenarios
import Testing

/// The person of a scenario file (`authorization.user`, for a flow or a fixed phone) and the
/// status it promises (`expectedAuthorization`).
@Suite("Scenario files: the person and the promised status")
struct ScenarioFilePersonTests {
    private func parse(_ text: String) throws(ConfigError) -> Scenario {
        try ScenarioFile.parse(Array(text.utf8), file: "p.json").scenario
    }

    private func message(_ text: String) -> String {
        do {
            _ = try parse(text)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test("a fixed phone with a user: the ideal phone, this person, their lifecycle moves in the timeline")
    func fixedWithUser() throws {
        let scenario = try parse(
            #"""
            {"name": "fixed_person", "expectedAuthorization": "authorizedWhenInUse",
             "authorization": {"user": {"answers": [{"prompt": "upgrade", "answer": "keepOnlyWhileUsing"}],
                                        "lifecycle": [{"at": 30, "event": "lock"}]}}}
            """#)
        guard case .fixed = scenario.authorization else {
            Issue.record("expected a fixed phone")
            return
        }
        #expect(scenario.device.authorization.storedStatus == .authorizedAlways)
        var user = scenario.user
        #expect(user.name == nil)
        #expect(user.respond(to: .alwaysUpgrade) == .answer(.keepWhileUsing, afterSeconds: 2))
        #expect(scenario.timeline == [.init(.seconds(30), .user(.lockedScreen))])
        #expect(scenario.expectedAuthorization == .authorizedWhenInUse)
    }

    @Test("a flow's user is the scenario's one person")
    func flowUserIsTheScenarioPerson() throws {
        let scenario = try parse(
            #"{"name": "f", "authorization": {"flow": "bggeo", "user": {"answers": [{"prompt": "location", "answer": "allowOnce"}]}}}"#
        )
        var user = scenario.user
        #expect(user.respond(to: .location) == .answer(.allowOnce(precise: nil), afterSeconds: 2))
        #expect(scenario.expectedAuthorization == nil)
        #expect(scenario.device.authorization.storedStatus == .notDetermined)
    }

    @Test("a user named by a preset's person is that person; an unknown name says which exist")
    func namedPerson() throws {
        let scenario = try parse(#"{"name": "w", "authorization": {"flow": "bggeo", "user": "keepsWhileUsing"}}"#)
        #expect(scenario.user == .keepsWhileUsing)
        let message = message(#"{"name": "w", "authorization": {"user": "keepsAlways"}}"#)
        #expect(message.contains("$.authorization.user"), "\(message)")
        #expect(message.contains("keepsWhileUsing"), "\(message)")
    }

    @Test("without a user, the agreeable person; \"fixed\" as a string still reads")
    func defaults() throws {
        #expect(try parse(#"{"name": "a"}"#).user == .agreeable)
        #expect(try parse(#"{"name": "a", "authorization": "fixed"}"#).user == .agreeable)
    }

    @Test(
        "a bad user or promised status names the file, line and JSON path",
        arguments: [
            (#"{"name": "a",\n "authorization": {"user": 5}}"#, "p.json:2:", "$.authorization.user"),
            (#"{"name": "a",\n "authorization": {"user": null}}"#, "p.json:2:", "$.authorization.user"),
            (#"{"name": "a",\n "authorization": {}}"#, "p.json:2:", "give a 'flow'"),
            (#"{"name": "a",\n "authorization": {"user": {"bogus": 1}}}"#, "p.json:2:", "bogus"),
            (
                #"{"name": "a",\n "authorization": {"user": {"answers": [{"prompt": "upgrade", "answer": "allow"}]}}}"#,
                "p.json:2:", "$.authorization.user.answers[0].answer"
            ),
            (
                #"{"name": "a",\n "authorization": {"user": {"answers": [{"prompt": "location", "answer": "allowOnce", "afterSeconds": -1}]}}}"#,
                "p.json:2:", "afterSeconds"
            ),
            (#"{"name": "a",\n "authorization": {"flow": "fixed"}}"#, "p.json:2:", "$.authorization.flow"),
            (#"{"name": "a",\n "expectedAuthorization": "always"}"#, "p.json:2:", "$.expectedAuthorization"),
            (#"{"name": "a",\n "expectedAuthorization": 3}"#, "p.json:2:", "$.expectedAuthorization"),
            (#"{"name": "a",\n "expectedAuthorization": "<script>"}"#, "p.json:2:", "$.expectedAuthorization"),
        ])
    func badValues(text: String, location: String, detail: String) {
        let error = message(text.replacingOccurrences(of: "\\n", with: "\n"))
        #expect(error.hasPrefix(location), "\(error)")
        #expect(error.contains(detail), "\(error)")
    }
}
