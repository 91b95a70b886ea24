import Device
import Engine
@testable import EngineProtocol
import Foundation
import Scenarios
import TestSupport
import Testing

/// `--engine-command` on the command line: the built-in engine behind `serve-engine` prints
/// the same bytes as in-process, the Python example's counts are pinned, and mistakes in the
/// options are usage errors.
@Suite("Engine command line")
struct EngineCommandLineTests {
    /// Every bundled trace in every format goes through serve-engine in the slow tier
    /// (Scripts/check-engine-protocol.sh, on the release build); here the fast tier's two.
    static let traces = TestTier.shortTraces

    @Test("matrix prints the same bytes with the built-in engine and with serve-engine", arguments: ["json", "csv"])
    func matrixDifferential(format: String) async throws {
        let arguments = ["matrix"] + Self.traces + ["--date", "2020-02-07", "--format", format]
        let direct = try await offPool { runCommand(arguments) }
        let served = try await offPool { runCommand(arguments + ["--engine-command", Paths.serveEngine]) }
        #expect(direct.exitCode == 0)
        #expect(served.exitCode == 0, "\(served.error)")
        #expect(served.output == direct.output)
    }

    @Test(
        "replay --format json prints the same bytes through serve-engine, in protocol version 2 and 1",
        arguments: ["", " --protocol 1"])
    func replayDifferential(protocolOption: String) async throws {
        let arguments = ["replay", Paths.mtv, "--scenario", "wheninuse-locked", "--date", "2020-02-07", "--format", "json"]
        let direct = try await offPool { runCommand(arguments) }
        let served = try await offPool {
            runCommand(arguments + ["--engine-command", Paths.serveEngine + protocolOption])
        }
        #expect(served.exitCode == 0, "\(served.error)")
        #expect(served.output == direct.output)
    }

    @Test(
        "every message of a real run, both ways, validates against the JSON Schema",
        .enabled(if: Paths.hasJSONSchema, "needs python3-jsonschema"))
    func messagesValidateAgainstSchema() async throws {
        // Two presets, one with a force-quit and relaunch, keep the check within seconds; every
        // preset in protocol versions 2 and 1 is Scripts/check-engine-protocol.sh's, in the slow tier.
        let proxy = "python3 \(Paths.engines)/validating_proxy.py \(Paths.schema) \(Paths.serveEngine)"
        let arguments = [
            "matrix", Paths.pixel6, "--date", "2020-02-07", "--scenarios", "always-precise,always-force-quit", "--format",
            "csv",
        ]
        let direct = try await offPool { runCommand(arguments) }
        let checked = try await offPool { runCommand(arguments + ["--engine-command", proxy]) }
        #expect(checked.exitCode == 0, "\(checked.error)")
        #expect(checked.output == direct.output)
    }

    @Test(
        "a line of every message type, both ways, validates against the JSON Schema",
        .enabled(if: Paths.hasJSONSchema, "needs python3-jsonschema"))
    func everyMessageTypeValidates() async throws {
        let lines =
            EngineMessageTests.everyEvent.map { "to " + $0.line(now: EngineMessageTests.now) }
            + EngineMessageTests.everyAnswer.map { "from " + $0.line } + [runLine()]
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("protocol-lines-\(getpid()).txt")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await offPool {
            try runShell(
                "python3 \(Paths.engines)/validate_lines.py \(Paths.schema) \(file.path)", input: "")
        }
        #expect(result.exitCode == 0, "\(result.error)")
        #expect(result.output == "\(lines.count) valid\n")
        #expect(Set(EngineMessageTests.everyEvent.map(\.type)) == Set(EngineEvent.types))
    }

    /// A `didUpdateLocationRun` line of every kind of location `everyEvent` delivers.
    private func runLine() -> String {
        var deliveries: [LocationDelivery] = []
        for event in EngineMessageTests.everyEvent {
            if case .didUpdateLocations(let more) = event { deliveries += more }
        }
        var message = LocationRunMessage()
        message.write(deliveries[...])
        return "to " + String(decoding: message.bytes.dropLast(), as: UTF8.self)
    }

    @Test("the Python example records exact counts on the MTV drive under two presets, the same bytes every time")
    func pythonExample() async throws {
        let arguments = [
            "matrix", Paths.mtv, "--date", "2020-02-07", "--scenarios", "always-precise,wheninuse-force-quit",
            "--format", "csv", "--engine-command", "python3 \(Paths.pythonExample)",
        ]
        let first = try await offPool { runCommand(arguments) }
        let second = try await offPool { runCommand(arguments + ["--jobs", "1"]) }
        #expect(first.exitCode == 0, "\(first.error)")
        #expect(first.output == second.output)
        // scenario, recordedFixes, deliveredFixes, acceptedFixes
        let rows: [String] = first.output.split(separator: "\n").dropFirst().map { row in
            let fields = row.split(separator: ",").map(String.init)
            return [fields[1], fields[3], fields[4], fields[5]].joined(separator: " ")
        }
        // Since issue 30 the SPAN log's epochs without HDOP arrive with the assumed 10 m, which
        // the example's 100 m gate keeps (they were rejected without an accuracy before).
        #expect(rows == ["always-precise 578 1748 1633", "wheninuse-force-quit 82 437 433"])
    }

    @Test("a wrong engine prints which run and line on the way out, exit 70")
    func engineFailureOnTheCommandLine() async throws {
        let command = "python3 \(Paths.engines)/misbehaving.py not-json"
        let result = try await offPool {
            runCommand([
                "replay", Paths.pixel6, "--scenario", "always-precise", "--engine-command", command,
            ])
        }
        #expect(result.exitCode == 70)
        // The ideal run and the scenario's run go to two workers: either may fail first.
        let tail = #"output line 5: not JSON (unexpected character at byte 1): "Traceback (most recent call last):""#
        let expected = ["ideal", "always-precise"].map { "error: engine '\(command)': run \(Paths.pixel6)/\($0): \(tail)\n" }
        #expect(expected.contains(result.error), "\(result.error)")
    }

    @Test(
        "engine options that cannot run are usage errors",
        arguments: [
            (["--engine-timeout", "5"], "error: --engine-timeout needs --engine-command"),
            (
                ["--engine-command", "x", "--engine-timeout", "0"],
                "error: --engine-timeout must be a number of seconds above 0 and at most 86400, not '0'"
            ),
            (["--engine-command", "  "], "error: --engine-command is empty"),
        ])
    func usageErrors(extra: [String], message: String) async throws {
        let result = try await offPool { runCommand(["matrix", Paths.pixel6] + extra) }
        #expect(result.exitCode == 64)
        #expect(result.error.hasPrefix(message + "\n"), "\(result.error)")
    }

    @Test("a program with its own engine refuses --engine-command")
    func embeddedEngineRefusesCommand() async throws {
        let own = EngineUnderTest.custom(named: "mine") { _ throws(EngineFailure) in
            throw EngineFailure("never made")
        }
        let result = try await offPool { runCommand(["matrix", Paths.pixel6, "--engine-command", "python3 x.py"], engine: own) }
        #expect(result.exitCode == 64)
        #expect(
            result.error.hasPrefix(
                "error: --engine-command cannot replace this program's own engine 'mine': run 'tracesim' for a subprocess engine\n"
            ))
    }

    @Test("serve-engine names the input line it cannot read, exit 65")
    func serveEngineRejectsBadInput() async throws {
        let result = try await offPool {
            try runShell(
                "\(Paths.serveEngine)", input: #"{"type":"hello","protocolVersion":1}"# + "\n" + #"{"type":"start","now":0}"# + "\n")
        }
        #expect(result.exitCode == 65)
        #expect(
            result.output
                == #"{"type":"hello","protocolVersion":2,"name":"tracesim built-in","capabilities":["replaceTimers","runs"]}"#
                + "\n")
        #expect(result.error == "error: serve-engine: input line 2: 'start' before reset\n")
    }

    /// TraceSim's hello and a reset whose `expectedFixCount` is `count`, as serve-engine reads them.
    static func helloAndReset(expectedFixCount count: String) throws -> String {
        let scenario = try #require(Scenario.preset(named: "always-precise"))
        let reset = RunMessages.resetLine(
            EngineContext(scenario: scenario, fences: [], traceName: "t.csv", expectedFixCount: 123))
        #expect(reset.contains(#""expectedFixCount":123,"#))
        return RunMessages.helloLine + "\n"
            + reset.replacingOccurrences(of: #""expectedFixCount":123,"#, with: #""expectedFixCount":\#(count),"#) + "\n"
    }

    @Test(
        "serve-engine refuses an expectedFixCount the record cannot hold, exit 65 (it aborted, exit 134)",
        arguments: ["9223372036854775807", "1000000000000", "4294967296", "-1"])
    func serveEngineRefusesHugeFixCount(count: String) async throws {
        let input = try Self.helloAndReset(expectedFixCount: count)
        let result = try await offPool { try runShell(Paths.serveEngine, input: input) }
        #expect(result.exitCode == 65)
        #expect(
            result.error
                == #"error: serve-engine: input line 2: reset: "expectedFixCount" must be from 0 to 4294967295, not \#(count)"#
                + "\n")
    }

    @Test("serve-engine refuses an engine setting out of the range a scenario file accepts (one overflowed its engine)")
    func serveEngineRefusesSettingOutOfRange() async throws {
        let input = try Self.helloAndReset(expectedFixCount: "1").replacingOccurrences(
            of: #""maximumRegisteredFences":20"#, with: #""maximumRegisteredFences":-9223372036854775808"#)
        #expect(input.contains("-9223372036854775808"))
        let result = try await offPool { try runShell(Paths.serveEngine, input: input) }
        #expect(result.exitCode == 65)
        #expect(
            result.error
                == "error: serve-engine: input line 2: reset: engine: geofencing.maximumRegistered must be between 1 "
                + "and 20, not -9.223372036854776e+18 (as a scenario file names the setting)\n")
    }

    @Test("serve-engine takes the largest expectedFixCount and reserves memory for a bounded part of it")
    func serveEngineBoundsTheReservation() async throws {
        let input = try Self.helloAndReset(expectedFixCount: "4294967295")
        // Reserving for every fix would take 120 GB; the shell's limit makes that fail at once.
        let result = try await offPool { try runShell("ulimit -v 2000000; \(Paths.serveEngine)", input: input) }
        #expect(result.exitCode == 0, "\(result.error)")
        #expect(result.output.hasSuffix("\n" + #"{"type":"done"}"# + "\n"))
    }

    @Test("serve-engine reads an 8 MB line and answers it, and answers version 1 when held to it")
    func serveEngineLongLineAndVersion1() async throws {
        let padding = String(repeating: "x", count: 8_000_000)
        let hello = #"{"type":"hello","protocolVersion":1,"tracesim":"\#(padding)"}"# + "\n"
        let long = try await offPool { try runShell(Paths.serveEngine, input: hello) }
        #expect(long.exitCode == 0, "\(long.error)")
        #expect(long.output.hasPrefix(#"{"type":"hello","protocolVersion":2,"#))
        let version1 = try await offPool { try runShell(Paths.serveEngine + " --protocol 1", input: hello) }
        #expect(version1.output == #"{"type":"hello","protocolVersion":1,"name":"tracesim built-in"}"# + "\n")
    }
}
