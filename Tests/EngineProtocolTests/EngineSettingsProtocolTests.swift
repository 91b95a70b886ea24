import ConfigJSON
@_spi(Fuzzing) import EngineProtocol
import Scenarios
import Testing
import Traces

/// The capability `settings` (issue 30 §7): what an engine's hello may declare for `tune`, each
/// malformed declaration failing the run with a message naming it. Fast tier: lines in memory.
@Suite("Engine protocol: declared settings")
struct EngineSettingsProtocolTests {
    static let declaration =
        #"[{"name":"threshold","kind":"number","min":1,"max":500,"default":50,"summary":"keep fixes this accurate"},"#
        + #"{"name":"every","kind":"integer","min":1,"max":10,"default":1},"#
        + #"{"name":"smooth","kind":"bool","default":false},"#
        + #"{"name":"mode","kind":"choice","choices":["walk","drive"],"default":"drive"}]"#

    /// The failure of a run whose engine opens with `hello` and then answers `done` to everything.
    private func failure(hello: String) throws -> String? {
        let output = ([hello] + Array(repeating: #"{"type":"done"}"#, count: 400)).joined(separator: "\n") + "\n"
        let engine = EngineProtocolHarness.scriptedEngine(output: Array(output.utf8), pieceBytes: 4_096)
        let scenario = try #require(Scenario.preset(named: "ideal"))
        do {
            _ = try ScenarioRunner.run(SubprocessEngineTests.pixel6, scenario, engine: engine, traceName: "t")
            return nil
        } catch {
            return error.description
        }
    }

    private func hello(_ members: String) -> String {
        #"{"type":"hello","protocolVersion":2,"name":"x","# + members + "}"
    }

    @Test("a hello declaring every kind of setting is taken, and reads back as it was written")
    func wellFormedDeclaration() throws {
        #expect(try failure(hello: hello(#""capabilities":["settings"],"settings":"# + Self.declaration)) == nil)
        #expect(try failure(hello: hello(#""capabilities":["settings"],"settings":[]"#)) == nil)
        let settings = [
            EngineSetting(name: "threshold", kind: .number(1...500), defaultValue: .number(50), summary: "s"),
            EngineSetting(name: "every", kind: .integer(1...10), defaultValue: .number(1)),
            EngineSetting(name: "smooth", kind: .bool, defaultValue: .bool(false)),
            EngineSetting(name: "mode", kind: .choice(["walk", "drive"]), defaultValue: .token("drive")),
        ]
        let answer = EngineAnswer.hello(protocolVersion: 2, name: "x", capabilities: ["settings"], settings: settings)
        let parsed = try JSONValue.parse(protocolLine: Array(answer.line.utf8))
        #expect(try EngineAnswer.parse(parsed, type: "hello") == answer)
    }

    @Test(
        "a malformed declaration fails the run, naming what is wrong",
        arguments: [
            (#""capabilities":["settings"]"#, "the capability 'settings' needs \"settings\""),
            (#""capabilities":[],"settings":[]"#, "\"settings\" need the capability 'settings'"),
            (#""capabilities":["settings"],"settings":{}"#, "hello: \"settings\" must be an array"),
            (#""capabilities":["settings"],"settings":[1]"#, "hello: settings[0]: not a JSON object"),
            (
                #""capabilities":["settings"],"settings":[{"name":"a","kind":"text","default":"x"}]"#,
                "hello: settings[0]: \"kind\" is 'text', not one of number, integer, bool, choice"
            ),
            (
                #""capabilities":["settings"],"settings":[{"name":"a","kind":"number","min":5,"max":1,"default":3}]"#,
                "hello: settings[0]: \"min\" is above \"max\""
            ),
            (
                #""capabilities":["settings"],"settings":[{"name":"a","kind":"number","min":1,"max":5,"default":9}]"#,
                "hello: setting 'a': the default 9 is wrong: a must be between 1 and 5, not 9"
            ),
            (
                #""capabilities":["settings"],"settings":[{"name":"a","kind":"integer","min":1,"max":5,"default":2.5}]"#,
                "hello: settings[0]: \"default\" must be"
            ),
            (
                #""capabilities":["settings"],"settings":[{"name":"a","kind":"bool","default":"yes"}]"#,
                "hello: settings[0]: \"default\" must be"
            ),
            (
                #""capabilities":["settings"],"settings":[{"name":"a","kind":"choice","choices":[],"default":"x"}]"#,
                "hello: setting 'a' has no choices"
            ),
            (
                #""capabilities":["settings"],"settings":[{"name":"a","kind":"choice","choices":["x","x"],"default":"x"}]"#,
                "hello: setting 'a': choice 'x' is listed twice"
            ),
            (
                #""capabilities":["settings"],"settings":[{"name":"a","kind":"bool","default":true,"step":1}]"#,
                "hello: settings[0]: unknown member \"step\""
            ),
            (
                #""capabilities":["settings"],"settings":[{"name":"a b","kind":"bool","default":true}]"#,
                "hello: setting name 'a b' is not 1 to 64 ASCII letters"
            ),
            (
                #""capabilities":["settings"],"settings":[{"name":"a","kind":"bool","default":true},{"name":"a","kind":"bool","default":false}]"#,
                "hello: setting 'a' is declared twice"
            ),
            (
                #""capabilities":["settings"],"settings":[{"name":"a","kind":"integer","min":0,"max":9007199254740992,"default":1}]"#,
                "\"min\" and \"max\" must be whole numbers from -9007199254740991 to 9007199254740991"
            ),
        ])
    func malformedDeclaration(members: String, message: String) throws {
        let failure = try #require(try failure(hello: hello(members)))
        #expect(failure.hasPrefix("run t/ideal: output line 1: "), "\(failure)")
        #expect(failure.contains(message), "\(failure)")
    }

    @Test("settings in a version 1 hello fail the run")
    func settingsNeedVersion2() throws {
        let failure = try #require(
            try failure(hello: #"{"type":"hello","protocolVersion":1,"name":"x","settings":[]}"#))
        #expect(failure.contains("\"settings\" come with protocol version 2 and the capability 'settings'"))
    }

    @Test("a scenario naming a setting the engine did not declare fails the run before it starts")
    func undeclaredScenarioSetting() throws {
        var scenario = try #require(Scenario.preset(named: "ideal"))
        scenario.engineSettings = [("speed", .number(3))]
        let output = hello(#""capabilities":["settings"],"settings":"# + Self.declaration) + "\n"
        let engine = EngineProtocolHarness.scriptedEngine(output: Array(output.utf8), pieceBytes: 64)
        #expect(throws: RunFailure.self) {
            try ScenarioRunner.run(SubprocessEngineTests.pixel6, scenario, engine: engine, traceName: "t")
        }
        do {
            _ = try ScenarioRunner.run(SubprocessEngineTests.pixel6, scenario, engine: engine, traceName: "t")
        } catch {
            #expect(
                error.description
                    == "run t/ideal: scenario ideal: engineSettings names 'speed', which the engine does not declare "
                    + "(it declares threshold, every, smooth, mode)")
        }
    }
}
