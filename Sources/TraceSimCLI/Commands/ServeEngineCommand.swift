import EngineProtocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `tracesim serve-engine`: the built-in engine on the other side of the engine protocol,
/// reading TraceSim's messages on standard input and answering on standard output. With
/// `--engine-command "tracesim serve-engine"` a replay must print exactly what it prints
/// with the built-in engine in-process: the protocol's own differential test, and a
/// reference for anyone implementing the protocol.
enum ServeEngineCommand: Command {
    static let declaration = CommandDeclaration(
        name: "serve-engine",
        overview: """
            Run the built-in engine as a subprocess engine: read TraceSim's engine protocol
            (JSON Lines) on standard input, answer on standard output, until input ends.
            """,
        options: [
            .choice(
                "protocol", ["2", "1"], value: "<version>",
                help: """
                    The highest protocol version to answer TraceSim's hello with: 2
                    (default), with the capability replaceTimers, or 1, as an engine
                    written for version 1 answers. A TraceSim that speaks only version 1
                    refuses an answer of 2: give it --protocol 1.
                    """),
            .flag(
                "no-runs",
                help: """
                    Do not declare the capability runs: take every location in a message
                    of its own, as an engine written before runs does.
                    """),
        ],
        discussion: """
            Not for typing: another TraceSim starts it with
            --engine-command "tracesim serve-engine". The protocol is described in
            Documentation/TraceSim.docc/EngineProtocol.md.
            """,
        exitStatus: """
            0 input ended; 64 usage error; 65 a line that is not a protocol message
            (named on standard error); 74 an output error.
            """)

    static func run(_ parsed: ParsedArguments, console: Console) throws -> ExitCode {
        guard parsed.positionals.isEmpty else {
            throw UsageError("serve-engine takes no arguments, got '\(parsed.positionals[0])'", command: name)
        }
        guard parsed.engine.isBuiltIn else {
            // It serves the built-in engine; a program embedding its own would answer for the
            // wrong engine under its own name.
            throw UsageError("serve-engine serves the built-in engine, not engine \(parsed.engine.name)", command: name)
        }
        var server = EngineServer(
            highestVersion: parsed.value("protocol") == "1" ? 1 : 2, declaresRuns: !parsed.flag("no-runs"))
        var buffer = LineBuffer()
        var lineNumber = 0
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let line = buffer.nextLine() {
                lineNumber += 1
                do {
                    console.output(try server.answer(line))
                } catch {
                    throw CommandFailure(.dataError, "error: serve-engine: input line \(lineNumber): \(error.message)")
                }
                if let streams = console.streams, streams.failure != nil { return .ioError }
                continue
            }
            if buffer.pendingCount > EngineLimits.maximumServedLineBytes {
                throw CommandFailure(
                    .dataError,
                    "error: serve-engine: input line \(lineNumber + 1): longer than "
                        + "\(EngineLimits.maximumServedLineBytes) bytes")
            }
            let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            buffer.append(chunk[0..<count])
        }
        if buffer.pendingCount > 0 {
            throw CommandFailure(
                .dataError, "error: serve-engine: input line \(lineNumber + 1): the input ends without a newline")
        }
        return .success
    }
}
