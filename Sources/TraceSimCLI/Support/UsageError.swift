/// A command line that cannot be run as written. The CLI prints it with a pointer to
/// `--help` and exits 64.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, in words.
    public var message: String
    /// The command whose help applies, or `nil` for the top level.
    public var command: String?

    /// Creates a usage error.
    public init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    /// The message alone.
    public var description: String { message }
}
