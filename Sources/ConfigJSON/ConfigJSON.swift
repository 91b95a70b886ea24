import Traces

/// A small JSON document model for configuration files (scenarios, user scripts, device
/// setups), built on the same hardened scanner as the trace importers, so every value knows
/// where it stands and every error can name the line, the column and the JSON path.
public indirect enum ConfigJSONValue: Sendable, Equatable {
    case object([(key: String, value: ConfigJSONNode)])
    case array([ConfigJSONNode])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    public static func == (lhs: ConfigJSONValue, rhs: ConfigJSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.object(let left), .object(let right)):
            left.count == right.count && zip(left, right).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.array(let left), .array(let right)): left == right
        case (.string(let left), .string(let right)): left == right
        case (.number(let left), .number(let right)): left == right
        case (.bool(let left), .bool(let right)): left == right
        case (.null, .null): true
        default: false
        }
    }
}

/// A value with where it stands in the file.
///
/// Only the byte offset is kept while parsing; the line and column are counted when asked
/// for, which happens when an error is reported. Counting them for every node made parsing
/// quadratic in the file's size.
public struct ConfigJSONNode: Sendable, Equatable {
    public var value: ConfigJSONValue
    /// The 0-based byte offset of the value's first byte, after any byte-order mark.
    public var offset: Int
    /// The file's text, shared by every node of one parse, to count lines from.
    let text: ConfigJSONText?

    /// 1-based line.
    /// - Complexity: O(offset): meant for error messages.
    public var line: Int { location.line }

    /// 1-based column, in bytes.
    /// - Complexity: O(offset): meant for error messages.
    public var column: Int { location.column }

    private var location: (line: Int, column: Int) { text?.location(ofOffset: offset) ?? (1, offset + 1) }

    /// Compares values and offsets.
    public static func == (lhs: ConfigJSONNode, rhs: ConfigJSONNode) -> Bool {
        lhs.value == rhs.value && lhs.offset == rhs.offset
    }
}

/// A configuration file's bytes, kept so a node's line and column can be counted on demand.
final class ConfigJSONText: Sendable {
    private let bytes: [UInt8]
    /// Bytes before offset 0: a UTF-8 byte-order mark.
    private let skipped: Int

    init(bytes: [UInt8], skipped: Int) {
        self.bytes = bytes
        self.skipped = skipped
    }

    func location(ofOffset offset: Int) -> (line: Int, column: Int) {
        bytes.withUnsafeBufferPointer { buffer in
            TextSource(file: "", bytes: UnsafeBufferPointer(rebasing: buffer[skipped...])).location(ofOffset: offset)
        }
    }
}

/// Parses configuration JSON.
public enum ConfigJSON {
    /// Parses a whole file, which must hold one JSON object or array (RFC 8259, strictly:
    /// no leading zeros, no `1.`, no comments, no trailing commas).
    /// - Throws: `ConfigError` naming the file, line and column of the first problem, and
    ///   the JSON path of a number that cannot be read.
    /// - Complexity: O(n) in the file's size.
    public static func parse(_ bytes: [UInt8], file: String) throws(ConfigError) -> ConfigJSONNode {
        do {
            return try document(bytes, file: file)
        } catch {
            switch error {
            case .syntax(let error, let path): throw ConfigError(syntax: error, path: path)
            case .value(let error): throw error
            }
        }
    }

    /// Why a parse stopped: the shared scanner refused the syntax, or a value is wrong at a path.
    private enum Failure: Error {
        case syntax(TraceFormatError, path: String)
        case value(ConfigError)
    }

    private static func document(_ bytes: [UInt8], file: String) throws(Failure) -> ConfigJSONNode {
        try bytes.withUnsafeBufferPointer { buffer throws(Failure) in
            let source = TextSource(file: file, bytes: buffer)
            do throws(TraceFormatError) { try source.checkIsText() } catch { throw .syntax(error, path: "$") }
            var parser = Parser(
                scanner: JSONScanner(source: source),
                text: ConfigJSONText(bytes: bytes, skipped: buffer.count - source.bytes.count))
            let first = parser.scanner.peek()
            guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
                throw parser.syntax(
                    source.error(
                        atOffset: parser.scanner.position,
                        .unexpectedContent("not JSON: expected an object or array, found \(parser.found())")))
            }
            let node = try parser.value(depth: 0)
            try parser.scan { (scanner) throws(TraceFormatError) in try scanner.expectEnd() }
            return node
        }
    }

    /// One parse: the scanner, the shared text, and the JSON path to the current value
    /// (rendered only for an error).
    private struct Parser {
        enum Step {
            case key(String)
            case index(Int)
        }

        var scanner: JSONScanner
        let text: ConfigJSONText
        var path: [Step] = []

        init(scanner: JSONScanner, text: ConfigJSONText) {
            self.scanner = scanner
            self.text = text
        }

        /// One step of the shared scanner, its refusal kept as a syntax error.
        @inline(__always)
        mutating func scan<T>(_ step: (inout JSONScanner) throws(TraceFormatError) -> T) throws(Failure) -> T {
            do { return try step(&scanner) } catch { throw syntax(error) }
        }

        /// The scanner's refusal, with the path of the value being read.
        func syntax(_ error: TraceFormatError) -> Failure { .syntax(error, path: renderedPath) }

        mutating func value(depth: Int) throws(Failure) -> ConfigJSONNode {
            guard depth < JSONScanner.maximumDepth else {
                throw syntax(
                    scanner.source.error(atOffset: scanner.position, .nestingTooDeep(limit: JSONScanner.maximumDepth)))
            }
            let next = scanner.peek()
            let offset = scanner.position
            func node(_ value: ConfigJSONValue) -> ConfigJSONNode {
                ConfigJSONNode(value: value, offset: offset, text: text)
            }
            switch next {
            case UInt8(ascii: "{")?:
                var members: [(key: String, value: ConfigJSONNode)] = []
                var object = try scan { (scanner) throws(TraceFormatError) in try scanner.beginObject() }
                while let token = try scan({ (scanner) throws(TraceFormatError) in try scanner.nextKey(&object) }) {
                    let key = try scan { (scanner) throws(TraceFormatError) in try scanner.text(token) }
                    path.append(.key(key))
                    members.append((key, try value(depth: depth + 1)))
                    path.removeLast()
                }
                return node(.object(members))
            case UInt8(ascii: "[")?:
                var elements: [ConfigJSONNode] = []
                var array = try scan { (scanner) throws(TraceFormatError) in try scanner.beginArray() }
                while try scan({ (scanner) throws(TraceFormatError) in try scanner.nextElement(&array) }) {
                    path.append(.index(elements.count))
                    elements.append(try value(depth: depth + 1))
                    path.removeLast()
                }
                return node(.array(elements))
            case UInt8(ascii: "\"")?:
                return node(
                    .string(try scan { (scanner) throws(TraceFormatError) in try scanner.text(scanner.readString()) }))
            case UInt8(ascii: "t")?, UInt8(ascii: "f")?:
                return node(.bool(try scan { (scanner) throws(TraceFormatError) in try scanner.readBool() }))
            case UInt8(ascii: "n")?:
                guard scanner.consumeNull() else { throw syntax(scanner.error("expected a value, found \(found())")) }
                return node(.null)
            case let byte? where byte == UInt8(ascii: "-") || (byte >= 48 && byte <= 57):
                return node(.number(try number()))
            case nil:
                throw syntax(scanner.source.error(atOffset: offset, .truncated("JSON ends before a value")))
            default:
                throw syntax(scanner.error("expected a value, found \(found())"))
            }
        }

        /// A number, its errors naming the JSON path.
        private mutating func number() throws(Failure) -> Double {
            let start = scanner.position
            let range: (start: Int, end: Int)
            do {
                range = try scanner.readNumberRange()
            } catch {
                // A malformed number is reported as a value at its path, as it always was.
                throw .value(
                    ConfigError(
                        file: error.file, line: error.line, column: error.column, path: renderedPath,
                        message: error.problem.message))
            }
            switch NumberParser.double(scanner.source.slice(range.start, range.end)) {
            case .value(let number): return number
            case .invalid: throw failure(at: start, "not a number")
            case .nonFinite: throw failure(at: start, "not a finite number (beyond the range of a double)")
            }
        }

        private func failure(at offset: Int, _ message: String) -> Failure {
            let (line, column) = scanner.source.location(ofOffset: offset)
            return .value(
                ConfigError(file: scanner.source.file, line: line, column: column, path: renderedPath, message: message)
            )
        }

        private var renderedPath: String {
            path.reduce(into: "$") { text, step in
                switch step {
                case .key(let key): text += ".\(key)"
                case .index(let index): text += "[\(index)]"
                }
            }
        }

        /// The byte at the scanner's position, quoted when it is printable ASCII.
        func found() -> String {
            guard scanner.position < scanner.end else { return "the end of the file" }
            let byte = scanner.source.bytes[scanner.position]
            guard byte > 0x20, byte < 0x7F else {
                let hex = String(byte, radix: 16, uppercase: true)
                return "byte 0x\(hex.count == 1 ? "0" : "")\(hex)"
            }
            return "'\(Character(Unicode.Scalar(byte)))'"
        }
    }
}
