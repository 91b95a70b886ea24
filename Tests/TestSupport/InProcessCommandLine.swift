import Scenarios
import Synchronization
import TraceSimCLI

/// What one command line printed, and its exit code.
package struct CommandResult: Sendable {
    package var exitCode: Int32
    package var output: String
    package var error: String

    package init(exitCode: Int32, output: String, error: String) {
        self.exitCode = exitCode
        self.output = output
        self.error = error
    }
}

/// Runs one `tracesim` command line in-process with `engine` under test, and captures what it
/// prints on each stream.
package func runCommand(_ arguments: [String], engine: EngineUnderTest = .builtIn) -> CommandResult {
    let output = Mutex("")
    let error = Mutex("")
    let console = Console(
        output: { text in output.withLock { $0 += text } },
        error: { text in error.withLock { $0 += text } })
    let code = TraceSimCommandLine.run(arguments, console: console, engine: engine)
    return CommandResult(exitCode: code, output: output.withLock { $0 }, error: error.withLock { $0 })
}
