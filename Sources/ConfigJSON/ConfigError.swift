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
    /// The JSON path (`$.timeline[3].at`): of the value at fault, or for a syntax error, of
    /// the value being read when the bytes stopped being JSON (`$` before the first one).
    /// `nil` where no path is known.
    public var path: String?
    /// Whether the file is not JSON as RFC 8259 writes it, or a value in it is wrong.
    public var kind: Kind
    /// What is wrong, in words.
    public var message: String

    /// What went wrong: the bytes, or a value.
    public enum Kind: Sendable, Equatable {
        /// Not JSON, or not JSON TraceSim accepts (empty, a NUL byte, too deep, cut short).
        case syntax
        /// A value that is JSON but wrong where it stands: a wrong type, out of range, unknown.
        case value
    }

    /// Creates an error.
    public init(
        file: String, line: Int? = nil, column: Int? = nil, path: String? = nil, kind: Kind = .value, message: String
    ) {
        self.file = file
        self.line = line
        self.column = column
        self.path = path
        self.kind = kind
        self.message = message
    }

    /// `FILE:LINE:COL: PATH: what is wrong`, the one-line form every command prints; the parts
    /// not known are left out, and the path is shown for a value only (a syntax error's
    /// line and column already say where).
    public var description: String {
        var location = file
        if let line {
            location += ":\(line)"
            if let column { location += ":\(column)" }
        }
        if kind == .value, let path { location += ": \(path)" }
        return "\(location): \(message)"
    }
}

extension ConfigError {
    /// The shared JSON scanner's refusal of a configuration file's syntax, worded as the
    /// importers word it.
    package init(syntax error: TraceFormatError, path: String? = nil) {
        self.init(
            file: error.file, line: error.line, column: error.column, path: path, kind: .syntax,
            message: error.problem.message)
    }
}
