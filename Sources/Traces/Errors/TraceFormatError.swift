/// A trace file that cannot be read as the format it claims to be. The CLI exits 65.
///
/// The model is kept apart from its wording: `problem` says what is wrong, and
/// `TraceFormatError+Description.swift` words it. Messages never quote coordinates,
/// which are personal data.
public struct TraceFormatError: Error, Sendable, Equatable {
    /// The file as the user named it.
    public var file: String
    /// The 1-based line, when the problem has one.
    public var line: Int?
    /// The 1-based column (in bytes), when known.
    public var column: Int?
    /// What is wrong.
    public var problem: Problem

    /// Creates an error.
    public init(file: String, line: Int? = nil, column: Int? = nil, problem: Problem) {
        self.file = file
        self.line = line
        self.column = column
        self.problem = problem
    }

    /// The kinds of problem an importer reports.
    public enum Problem: Sendable, Equatable {
        /// The file has no content at all.
        case emptyFile
        /// The content matches none of the supported formats.
        case unrecognizedFormat
        /// A NUL byte, which no supported text format contains.
        case nulByte
        /// A line longer than the format allows.
        case lineTooLong(limitBytes: Int)
        /// A field that should be a number is not one.
        case invalidNumber(field: String)
        /// A number that is NaN or infinite.
        case nonFiniteNumber(field: String)
        /// Latitude outside -90...90.
        case latitudeOutOfRange
        /// Longitude outside -180...180.
        case longitudeOutOfRange
        /// A value that must not be negative is negative.
        case negativeValue(field: String, value: Double)
        /// A value outside the range the format allows.
        case valueOutOfRange(field: String, value: Double, range: String)
        /// A timestamp that cannot be read.
        case invalidTimestamp(field: String)
        /// A required field is missing or empty.
        case missingField(String)
        /// A record with the wrong number of fields.
        case wrongFieldCount(expected: String, found: Int)
        /// A header names a column this format does not define.
        case unknownColumn(String)
        /// A header names a column twice.
        case duplicateColumn(String)
        /// A required column is absent from the header.
        case missingColumn(String)
        /// A value of a fixed vocabulary that is not in it.
        case unknownToken(field: String, token: String)
        /// The bytes are not valid JSON.
        case invalidJSON(String)
        /// JSON arrays and objects, or XML elements, nested deeper than the reader allows.
        case nestingTooDeep(limit: Int)
        /// The bytes are not well-formed XML, in libxml2's words.
        case invalidXML(String)
        /// An XML entity or DTD declaration, refused so nothing is ever expanded or fetched.
        case entityDeclaration(String)
        /// A record of a kind this format does not have, or the file's structure is wrong.
        case unexpectedContent(String)
        /// The file ends in the middle of a record.
        case truncated(String)
        /// A gzip-compressed file that cannot be inflated: truncated, corrupt, or a bomb.
        case compressedStream(String)
    }
}

/// A trace file that cannot be opened or read at all. The CLI exits 66.
public struct TraceFileError: Error, Sendable, Equatable {
    /// The path as the user named it.
    public var file: String
    /// Why, in the operating system's words.
    public var reason: String

    /// Creates an error.
    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }
}
