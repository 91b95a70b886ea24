import EngineProtocol
import Scenarios

/// `--engine-command` and `--engine-timeout`: an engine in any language, run as a subprocess
/// over the lock-step JSON Lines protocol, in place of the built-in engine. Declared once
/// here; `replay`, `matrix`, `check` and `tune` (which sweeps the settings the engine declares
/// in its hello) list them. `track` (the built-in engine's inner states) refuses them, saying
/// what to use instead (`refused(because:)`).
enum EngineArguments {
    static let declared: [CommandDeclaration.Option] = [
        .init(
            name: "engine-command", value: "<command>",
            help: """
                Replay this engine instead of the built-in one: a shell command that speaks
                TraceSim's engine protocol on standard input and output (JSON Lines,
                Documentation/TraceSim.docc/EngineProtocol.md), e.g. "python3 engine.py". One
                process per worker, reused across runs; ideal runs use it too.
                """),
        .init(
            name: "engine-timeout", value: "<seconds>",
            help: """
                How long the engine may take to answer one event (default 10); a run
                whose engine is slower fails.
                """),
    ]

    /// Both options refused by a command that runs only the built-in engine, with why and what
    /// to use instead.
    static func refused(because reason: String) -> [CommandDeclaration.RefusedOption] {
        declared.map { CommandDeclaration.RefusedOption(name: $0.name, reason: reason) }
    }

    /// The default of `--engine-timeout`, seconds.
    static let defaultTimeoutSeconds = 10.0

    /// The engine the options name, or `embedded` (the built-in engine, or the one a program
    /// embedding TraceSim passed to `TraceSimCommandLine.main(engine:)`) without them.
    /// - Throws: `UsageError` for a bad timeout, a timeout without a command, an empty
    ///   command, or a command given to a program that embeds an engine of its own.
    static func engine(_ parsed: ParsedArguments, embedded: EngineUnderTest, command: String) throws(UsageError)
        -> EngineUnderTest
    {
        var timeout = defaultTimeoutSeconds
        if let text = parsed.value("engine-timeout") {
            timeout = try NumberArgument.decimal(
                text, option: "--engine-timeout", unit: "of seconds", range: "above 0 and at most 86400",
                command: command
            ) { $0 > 0 && $0 <= 86_400 }
        }
        guard let engineCommand = parsed.value("engine-command") else {
            if parsed.value("engine-timeout") != nil {
                throw UsageError("--engine-timeout needs --engine-command", command: command)
            }
            return embedded
        }
        guard !engineCommand.allSatisfy(\.isWhitespace) else {
            throw UsageError("--engine-command is empty", command: command)
        }
        guard embedded.isBuiltIn else {
            throw UsageError(
                "--engine-command cannot replace this program's own engine '\(embedded.name)': run 'tracesim' for a subprocess engine",
                command: command)
        }
        return .subprocess(command: engineCommand, timeoutSeconds: timeout)
    }
}
