import Traces

/// Parses configuration JSON.
public enum ConfigJSON {
    /// Parses a whole file, which must hold one JSON object or array (RFC 8259, strictly:
    /// no leading zeros, no `1.`, no comments, no trailing commas).
    /// - Throws: `ConfigError` naming the file, line and column of the first problem, and
    ///   the JSON path of a number that cannot be read.
    /// - Complexity: O(n) in the file's size.
    public static func parse(_ bytes: [UInt8], file: String) throws(ConfigError) -> JSONNode {
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

    private static func document(_ bytes: [UInt8], file: String) throws(Failure) -> JSONNode {
        try bytes.withUnsafeBufferPointer { buffer throws(Failure) in
            let source = TextSource(file: file, bytes: buffer)
            do throws(TraceFormatError) { try source.checkIsText() } catch { throw .syntax(error, path: "$") }
            var parser = Parser(
                scanner: JSONScanner(source: source),
                text: JSONSourceText(bytes: bytes, skipped: buffer.count - source.bytes.count))
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
        let text: JSONSourceText
        var path: [Step] = []

        init(scanner: JSONScanner, text: JSONSourceText) {
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

        mutating func value(depth: Int) throws(Failure) -> JSONNode {
            guard depth < JSONScanner.maximumDepth else {
                throw syntax(
                    scanner.source.error(atOffset: scanner.position, .nestingTooDeep(limit: JSONScanner.maximumDepth)))
            }
            let next = scanner.peek()
            let offset = scanner.position
            func node(_ value: JSONValue) -> JSONNode {
                JSONNode(value: value, offset: offset, text: text)
            }
            switch next {
            case UInt8(ascii: "{")?:
                var members: [(key: String, value: JSONNode)] = []
                var object = try scan { (scanner) throws(TraceFormatError) in try scanner.beginObject() }
                while let token = try scan({ (scanner) throws(TraceFormatError) in try scanner.nextKey(&object) }) {
                    let key = try scan { (scanner) throws(TraceFormatError) in try scanner.text(token) }
                    path.append(.key(key))
                    members.append((key, try value(depth: depth + 1)))
                    path.removeLast()
                }
                return node(.object(members))
            case UInt8(ascii: "[")?:
                var elements: [JSONNode] = []
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
        private mutating func number() throws(Failure) -> JSONNumber {
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
            case .value(let number): return JSONNumber(checked: number, text: text, start: range.start, end: range.end)
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
