import ConfigJSON
import Engine
import Scenarios
import Traces

/// The engine protocol without processes, for the fuzzing harnesses (Tests/Fuzzing): generated
/// engine output goes through the same line reader, message parser and client state a
/// subprocess engine's does, and generated TraceSim lines through the serving side, with no
/// process per input.
@_spi(Fuzzing)
public enum EngineProtocolHarness {
    /// An engine whose standard output is `output`: its lines are its `hello` and then its
    /// answers, in order, handed to the reader `pieceBytes` at a time. What TraceSim sends it
    /// goes nowhere; when its lines run out, it has exited with status 0.
    public static func scriptedEngine(output: [UInt8], pieceBytes: Int) -> EngineUnderTest {
        .custom(named: "scripted") { context throws(EngineFailure) in
            try SubprocessClient(
                connection: ScriptedConnection(output: output, pieceBytes: max(1, pieceBytes)), context: context,
                timeoutSeconds: 10)
        }
        // As a subprocess's: the settings its hello declares are checked by the client, per run.
        .asking { [] }
    }

    /// Both sides of a run of `trace` through `scenario` with the built-in engine served
    /// in-process (`EngineServer`): TraceSim's lines and the engine's, each ending in a newline.
    public static func transcript(of trace: Trace, _ scenario: Scenario) -> (toEngine: [UInt8], fromEngine: [UInt8]) {
        let connection = LoopbackConnection()
        let engine = EngineUnderTest.custom(named: "served") { context throws(EngineFailure) in
            try SubprocessClient(connection: connection, context: context, timeoutSeconds: 10)
        }
        _ = try? ScenarioRunner.run(trace, scenario, engine: engine, traceName: "transcript")
        return (connection.toEngine, connection.fromEngine)
    }

    /// What the serving side (`serve-engine`) answers to the lines of `input`, up to the first
    /// line it refuses: its answer lines, and the refusal.
    public static func serve(_ input: [UInt8]) -> (answers: [String], refusal: String?) {
        var server = EngineServer()
        var buffer = LineBuffer()
        buffer.append(input[...])
        var answers: [String] = []
        while let line = buffer.nextLine() {
            do {
                answers += try server.answer(line).split(separator: "\n").map(String.init)
            } catch {
                return (answers, error.message)
            }
        }
        return (answers, nil)
    }

    /// Whether `line` is one protocol message: a JSON object with a string `type`.
    public static func isMessage(_ line: String) -> Bool {
        guard let value = try? JSONValue.parse(protocolLine: Array(line.utf8)), case .string? = value["type"] else {
            return false
        }
        return true
    }
}

/// An engine's output held in memory (`EngineProtocolHarness.scriptedEngine`).
final class ScriptedConnection: EngineConnection {
    private let output: [UInt8]
    private let pieceBytes: Int
    private var offset = 0
    private var buffer = LineBuffer()
    private(set) var linesRead = 0
    var session: EngineSession?

    init(output: [UInt8], pieceBytes: Int) {
        self.output = output
        self.pieceBytes = pieceBytes
    }

    func send(lineBytes bytes: [UInt8], deadline: Deadline) throws(EngineProcess.Failure) {}

    func readLine(deadline: Deadline) throws(EngineProcess.Failure) -> ArraySlice<UInt8> {
        while true {
            if let line = buffer.nextLine() {
                linesRead += 1
                return line.last == 0x0D ? line.dropLast() : line
            }
            if buffer.pendingCount > EngineProcess.maximumLineBytes { throw .lineTooLong }
            guard offset < output.count else { throw .exited("it exited with status 0") }
            let end = min(offset + pieceBytes, output.count)
            buffer.append(output[offset..<end])
            offset = end
        }
    }

    /// The lines not read yet are answers to the events still to come.
    func hasUnreadOutput() -> Bool { false }

    @discardableResult
    func terminate() -> Int32 {
        offset = output.count
        return 0
    }
}

/// The built-in engine served in-process: each line TraceSim sends is answered at once by an
/// `EngineServer`, and both directions are kept. One run uses it, on one thread.
final class LoopbackConnection: EngineConnection, @unchecked Sendable {
    private var server: EngineServer
    private var pending = LineBuffer()
    private var hasEnded = false
    private(set) var linesRead = 0
    private(set) var toEngine: [UInt8] = []
    private(set) var fromEngine: [UInt8] = []
    var session: EngineSession?

    /// A connection to `server`: the built-in engine, declaring runs unless it was made not to.
    init(server: EngineServer = EngineServer()) {
        self.server = server
    }

    func send(lineBytes bytes: [UInt8], deadline: Deadline) throws(EngineProcess.Failure) {
        guard !hasEnded else { throw .exited("it exited with status 65") }
        toEngine += bytes
        do {
            let answer = Array(try server.answer(bytes.dropLast()).utf8)
            fromEngine += answer
            pending.append(answer[...])
        } catch {
            hasEnded = true
        }
    }

    func readLine(deadline: Deadline) throws(EngineProcess.Failure) -> ArraySlice<UInt8> {
        guard let line = pending.nextLine() else { throw .exited("it exited with status 65") }
        linesRead += 1
        return line
    }

    func hasUnreadOutput() -> Bool { pending.pendingCount > 0 }

    @discardableResult
    func terminate() -> Int32 {
        hasEnded = true
        return 0
    }
}
