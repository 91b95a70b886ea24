/// A command that ran and failed: an input file missing or invalid, an output that cannot be
/// written. Commands throw it; `TraceSimCommandLine` prints the message on standard error and
/// exits with the code, in one place for every command.
///
/// A command line that cannot run as written is a `UsageError` instead, which also points to
/// the command's help.
struct CommandFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The process exit code (`sysexits.h` numbering, see `ExitCode`).
    var exitCode: ExitCode
    /// The whole diagnostic, `error: FILE:LINE:COL: what` for most.
    var message: String

    init(_ exitCode: ExitCode, _ message: String) {
        self.exitCode = exitCode
        self.message = message
    }

    var description: String { message }
}

/// One `tracesim` command: its declaration, and what it does with the arguments parsed
/// against it. `--help` and `--quiet` are handled before `run` is called.
protocol Command: Sendable {
    static var declaration: CommandDeclaration { get }

    /// Runs the command.
    /// - Throws: `UsageError` for a command line that cannot run as written, `CommandFailure`
    ///   for one that ran and failed.
    static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode
}

extension Command {
    /// The command's name, as typed after `tracesim`.
    static var name: String { declaration.name }
}

extension Console {
    /// Prints a failure: the one place its wording reaches standard error, whether it ends the
    /// command (`TraceSimCommandLine`) or only skips a file (`inspect`, `matrix`).
    func report(_ failure: CommandFailure) { warn(ProgramName.rename(failure.message, to: programName)) }
}
