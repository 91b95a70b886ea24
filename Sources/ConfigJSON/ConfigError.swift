import Traces

/// A configuration file (scenario, user script, device setup, population, expectations,
/// geofences, a matrix part) whose content is wrong. The CLI prints it and exits 65.
///
/// Kept apart from `TraceFormatError`: a bad scenario is not a bad trace, and a Swift user
/// embedding TraceSim catches the two separately.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file as the user named it.
    public var file: String
    /// The 1-based line, when the problem has one.
    public var line: Int?
    /// The 1-based column (in bytes), when known.
    public var column: Int?
    /// The JSON path of the value at fault (`$.timeline[3].at`), when the problem is a value
    /// rather than the file's syntax.
    public var path: String?
    /// What is wrong, in words.
    public var message: String

    /// Creates an error.
    public init(file: String, line: Int? = nil, column: Int? = nil, path: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.path = path
        self.message = message
    }

    /// `FILE:LINE:COL: PATH: what is wrong`, the one-line form every command prints; the parts
    /// not known are left out.
    public var description: String {
        var location = file
        if let line {
            location += ":\(line)"
            if let column { location += ":\(column)" }
        }
        if let path { location += ": \(path)" }
        return "\(location): \(message)"
    }
}

extension ConfigError {
    /// The shared JSON scanner's refusal of a configuration file's syntax, worded as the
    /// importers word it.
    package init(syntax error: TraceFormatError) {
        self.init(file: error.file, line: error.line, column: error.column, message: error.problem.message)
    }
}
