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

    /// Whether `--quiet` was given: notes on standard error (lines that begin `note:`) are
    /// dropped and no progress bar is drawn. Warnings stay, since each tells of something the
    /// output lost or merged, and errors always do.
    var isQuiet = false

    /// The program's name in help and errors: `tracesim`, or the executable of a program built
    /// on `TraceSimCommandLine.main` (which sets it from the path it was started by).
    public var programName = "tracesim"

    /// Whether a progress bar may be drawn on standard error.
    var showsProgress: Bool { errorIsTerminal && !isQuiet }

    /// The process streams behind `output` and `error`, which record a failed write; `nil` for
    /// a capturing console, whose writes cannot fail.
    var streams: StandardStreams?

    /// Creates a console from two sinks.
    public init(
        output: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void,
        errorIsTerminal: Bool = false
    ) {
        self.output = output
        self.error = error
        self.errorIsTerminal = errorIsTerminal
    }

    /// The process's standard output and standard error. A write that fails (full disk,
    /// closed pipe) is recorded, later output is dropped, and the command line exits 74.
    public static let standard: Console = {
        let streams = StandardStreams.process
        var console = Console(
            output: { streams.write($0, to: .output) },
            error: { streams.write($0, to: .error) },
            errorIsTerminal: isatty(StandardStreams.Stream.error.descriptor) != 0
        )
        console.streams = streams
        return console
    }()

    /// Prints one line of results.
    func print(_ line: String) { output(line + "\n") }

    /// Prints one diagnostic line; under `--quiet`, only an error.
    func warn(_ line: String) {
        if isQuiet && line.hasPrefix("note: ") { return }
        error(line + "\n")
    }
}
