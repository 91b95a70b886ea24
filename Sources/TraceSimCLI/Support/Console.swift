import Foundation

/// Where a command writes: standard output for results, standard error for diagnostics.
/// Tests pass a capturing console and run commands in-process.
public struct Console: Sendable {
    /// Writes result text (no newline added).
    public var output: @Sendable (String) -> Void
    /// Writes diagnostic text (no newline added).
    public var error: @Sendable (String) -> Void

    /// Whether diagnostics go to a terminal, where a progress bar may redraw itself.
    public var errorIsTerminal: Bool

    /// Creates a console from two sinks.
    public init(
        output: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void,
        errorIsTerminal: Bool = false
    ) {
        self.output = output
        self.error = error
        self.errorIsTerminal = errorIsTerminal
    }

    /// The process's standard output and standard error.
    public static let standard = Console(
        output: { FileHandle.standardOutput.write(Data($0.utf8)) },
        error: { FileHandle.standardError.write(Data($0.utf8)) },
        errorIsTerminal: isatty(FileHandle.standardError.fileDescriptor) != 0
    )

    /// Prints one line of results.
    func print(_ line: String) { output(line + "\n") }

    /// Prints one diagnostic line.
    func warn(_ line: String) { error(line + "\n") }
}
