import ConfigJSON
import Traces

extension JSONValue {
    /// Parses one line of the engine protocol (without its newline) into the shared JSON tree.
    ///
    /// Numbers keep their text, so a fix's `Float` speed and `Double` latitude are each read from
    /// the digits the other side wrote. Nodes carry their byte offset in the line.
    /// - Throws: `ProtocolJSONError` saying what is wrong and where.
    package static func parse(protocolLine bytes: some Collection<UInt8>) throws(ProtocolJSONError) -> JSONValue {
        var parser = Parser(bytes: Array(bytes))
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.position == parser.bytes.count else {
            throw ProtocolJSONError(offset: parser.position, "text after the JSON value")
        }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var position = 0

        mutating func skipSpace() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }

        mutating func node(depth: Int) throws(ProtocolJSONError) -> JSONNode {
            let offset = position
            return JSONNode(value: try value(depth: depth), offset: offset)
        }

        mutating func value(depth: Int) throws(ProtocolJSONError) -> JSONValue {
            guard depth < 64 else { throw ProtocolJSONError(offset: position, "nested deeper than 64 levels") }
            guard position < bytes.count else { throw ProtocolJSONError(offset: position, "the line ends early") }
            switch bytes[position] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw ProtocolJSONError(offset: position, "unexpected character")
            }
        }

        mutating func literal(_ word: String, _ value: JSONValue) throws(ProtocolJSONError) -> JSONValue {
            let utf8 = Array(word.utf8)
            guard position + utf8.count <= bytes.count, Array(bytes[position..<position + utf8.count]) == utf8 else {
                throw ProtocolJSONError(offset: position, "unexpected character")
            }
            position += utf8.count
            return value
        }

        mutating func object(depth: Int) throws(ProtocolJSONError) -> JSONValue {
            position += 1
            var members: [(key: String, value: JSONNode)] = []
            skipSpace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                    throw ProtocolJSONError(offset: position, "expected a member name in quotes")
                }
                let key = try string()
                if members.contains(where: { $0.key == key }) {
                    throw ProtocolJSONError(offset: position, "duplicate member \"\(key)\"")
                }
                skipSpace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                    throw ProtocolJSONError(offset: position, "expected ':'")
                }
                position += 1
                skipSpace()
                members.append((key, try node(depth: depth + 1)))
                skipSpace()
                guard position < bytes.count else { throw ProtocolJSONError(offset: position, "the line ends early") }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                } else if bytes[position] == UInt8(ascii: "}") {
                    position += 1
                    return .object(members)
                } else {
                    throw ProtocolJSONError(offset: position, "expected ',' or '}'")
                }
            }
        }

        mutating func array(depth: Int) throws(ProtocolJSONError) -> JSONValue {
            position += 1
            var elements: [JSONNode] = []
            skipSpace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            }
            while true {
                skipSpace()
                elements.append(try node(depth: depth + 1))
                skipSpace()
                guard position < bytes.count else { throw ProtocolJSONError(offset: position, "the line ends early") }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                } else if bytes[position] == UInt8(ascii: "]") {
                    position += 1
                    return .array(elements)
                } else {
                    throw ProtocolJSONError(offset: position, "expected ',' or ']'")
                }
            }
        }

        mutating func number() throws(ProtocolJSONError) -> JSONValue {
            let start = position
            if bytes[position] == UInt8(ascii: "-") { position += 1 }
            let integerStart = position
            skipDigits()
            let integerDigits = position - integerStart
            guard integerDigits > 0, integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else {
                throw ProtocolJSONError(offset: start, "not a JSON number")
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                position += 1
                let fractionStart = position
                skipDigits()
                guard position > fractionStart else { throw ProtocolJSONError(offset: start, "not a JSON number") }
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
                {
                    position += 1
                }
                let exponentStart = position
                skipDigits()
                guard position > exponentStart else { throw ProtocolJSONError(offset: start, "not a JSON number") }
            }
            return .number(JSONNumber(text: String(decoding: bytes[start..<position], as: UTF8.self)))
        }

        mutating func skipDigits() {
            while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
                position += 1
            }
        }

        mutating func string() throws(ProtocolJSONError) -> String {
            let start = position
            position += 1
            var scalars: [UInt8] = []
            while position < bytes.count {
                let byte = bytes[position]
                switch byte {
                case UInt8(ascii: "\""):
                    position += 1
                    guard let text = String(validating: scalars, as: UTF8.self) else {
                        throw ProtocolJSONError(offset: start, "a string that is not UTF-8")
                    }
                    return text
                case UInt8(ascii: "\\"):
                    position += 1
                    guard position < bytes.count else { break }
                    switch bytes[position] {
                    case UInt8(ascii: "\""): scalars.append(0x22)
                    case UInt8(ascii: "\\"): scalars.append(0x5C)
                    case UInt8(ascii: "/"): scalars.append(0x2F)
                    case UInt8(ascii: "b"): scalars.append(0x08)
                    case UInt8(ascii: "f"): scalars.append(0x0C)
                    case UInt8(ascii: "n"): scalars.append(0x0A)
                    case UInt8(ascii: "r"): scalars.append(0x0D)
                    case UInt8(ascii: "t"): scalars.append(0x09)
                    case UInt8(ascii: "u"):
                        var code = try hex4()
                        if (0xD800...0xDBFF).contains(code) {
                            guard position + 2 < bytes.count, bytes[position + 1] == UInt8(ascii: "\\"),
                                bytes[position + 2] == UInt8(ascii: "u")
                            else { throw ProtocolJSONError(offset: position, "a lone surrogate escape") }
                            position += 2
                            let low = try hex4()
                            guard (0xDC00...0xDFFF).contains(low) else {
                                throw ProtocolJSONError(offset: position, "a lone surrogate escape")
                            }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        } else if (0xDC00...0xDFFF).contains(code) {
                            throw ProtocolJSONError(offset: position, "a lone surrogate escape")
                        }
                        guard let scalar = Unicode.Scalar(code) else {
                            throw ProtocolJSONError(offset: position, "an invalid \\u escape")
                        }
                        scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
                    default:
                        throw ProtocolJSONError(offset: position, "an invalid escape")
                    }
                    position += 1
                case 0x00..<0x20:
                    throw ProtocolJSONError(offset: position, "a control character inside a string")
                default:
                    scalars.append(byte)
                    position += 1
                }
            }
            throw ProtocolJSONError(offset: start, "a string that does not end")
        }

        /// Reads the four hex digits after `\u`; leaves `position` on the last of them.
        mutating func hex4() throws(ProtocolJSONError) -> UInt32 {
            guard position + 4 < bytes.count else { throw ProtocolJSONError(offset: position, "an invalid \\u escape") }
            var code: UInt32 = 0
            for offset in 1...4 {
                guard let digit = hexValue(bytes[position + offset]) else {
                    throw ProtocolJSONError(offset: position, "an invalid \\u escape")
                }
                code = code << 4 | digit
            }
            position += 4
            return code
        }

        func hexValue(_ byte: UInt8) -> UInt32? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
            default: nil
            }
        }
    }
}

/// Why a line is not JSON: the byte offset and what was found there.
package struct ProtocolJSONError: Error, Sendable, Equatable {
    package var offset: Int
    package var message: String

    init(offset: Int, _ message: String) {
        self.offset = offset
        self.message = message
    }
}

/// Builds one protocol line: an object whose members are appended in a fixed order, so the same
/// message is always the same bytes.
package struct ProtocolLine: Sendable {
    package private(set) var text: String
    private var isEmpty = true

    /// An empty object, for a value nested in a message.
    package init() {
        text = "{"
        text.reserveCapacity(160)
    }

    /// A message: an object that opens with `"type": type`.
    package init(type: String) {
        self.init()
        string("type", type)
    }

    private mutating func key(_ key: String) {
        if !isEmpty { text += "," }
        isEmpty = false
        text += "\""
        text += key
        text += "\":"
    }

    package mutating func string(_ key: String, _ value: String) {
        self.key(key)
        JSONStringLiteral.append(value, to: &text)
    }

    package mutating func bool(_ key: String, _ value: Bool) {
        self.key(key)
        text += value ? "true" : "false"
    }

    package mutating func integer(_ key: String, _ value: some BinaryInteger) {
        self.key(key)
        text += String(value)
    }

    /// A double as Swift prints it: the shortest text that reads back as the same double.
    package mutating func number(_ key: String, _ value: Double) {
        self.key(key)
        text += Self.text(value)
    }

    /// A float as Swift prints it: the shortest text that reads back as the same float.
    package mutating func number(_ key: String, _ value: Float) {
        self.key(key)
        precondition(value.isFinite, "protocol numbers are finite; the importers reject others")
        text += value.description
    }

    /// Raw JSON (an object or array built elsewhere).
    package mutating func raw(_ key: String, _ json: String) {
        self.key(key)
        text += json
    }

    /// The finished line, without its newline.
    package var line: String { text + "}" }

    /// JSON's spelling of a finite number: Swift's shortest round-trip digits ("5.0",
    /// "1e-05" and "1e+16" are all valid JSON).
    package static func text(_ value: Double) -> String {
        precondition(value.isFinite, "protocol numbers are finite; the importers reject others")
        return value.description
    }

    /// Seconds as a person writes them: "10", "0.5".
    package static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : value.description
    }
}
