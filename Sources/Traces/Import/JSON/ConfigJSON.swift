/// A small JSON document model for configuration files (scenarios, user scripts, device
/// setups), built on the same hardened scanner as the trace importers, so every value knows
/// its line and column and every error can name both and the JSON path.
public indirect enum ConfigJSONValue: Sendable, Equatable {
    case object([(key: String, value: ConfigJSONNode)])
    case array([ConfigJSONNode])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    /// Compares field by field.
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
public struct ConfigJSONNode: Sendable, Equatable {
    /// The value.
    public var value: ConfigJSONValue
    /// 1-based line.
    public var line: Int
    /// 1-based column.
    public var column: Int
}

/// Parses configuration JSON.
public enum ConfigJSON {
    /// Parses a whole file.
    /// - Throws: `TraceFormatError` naming the file, line and column of the first problem.
    public static func parse(_ bytes: [UInt8], file: String) throws(TraceFormatError) -> ConfigJSONNode {
        try bytes.withUnsafeBufferPointer { buffer throws(TraceFormatError) in
            let source = TextSource(file: file, bytes: buffer)
            try source.checkIsText()
            var scanner = JSONScanner(source: source)
            let node = try value(&scanner, depth: 0)
            try scanner.expectEnd()
            return node
        }
    }

    private static func value(_ scanner: inout JSONScanner, depth: Int) throws(TraceFormatError) -> ConfigJSONNode {
        guard depth < JSONScanner.maximumDepth else {
            throw scanner.source.error(atOffset: scanner.position, .nestingTooDeep(limit: JSONScanner.maximumDepth))
        }
        _ = scanner.peek()
        let (line, column) = scanner.source.location(ofOffset: scanner.position)
        func node(_ value: ConfigJSONValue) -> ConfigJSONNode {
            ConfigJSONNode(value: value, line: line, column: column)
        }
        switch scanner.peek() {
        case UInt8(ascii: "{")?:
            var members: [(key: String, value: ConfigJSONNode)] = []
            var object = try scanner.beginObject()
            while let key = try scanner.nextKey(&object) {
                members.append((try scanner.text(key), try value(&scanner, depth: depth + 1)))
            }
            return node(.object(members))
        case UInt8(ascii: "[")?:
            var elements: [ConfigJSONNode] = []
            var array = try scanner.beginArray()
            while try scanner.nextElement(&array) { elements.append(try value(&scanner, depth: depth + 1)) }
            return node(.array(elements))
        case UInt8(ascii: "\"")?:
            return node(.string(try scanner.text(scanner.readString())))
        case UInt8(ascii: "t")?, UInt8(ascii: "f")?:
            return node(.bool(try scanner.readBool()))
        case UInt8(ascii: "n")?:
            guard scanner.consumeNull() else { throw scanner.error("expected a value") }
            return node(.null)
        default:
            guard let number = try scanner.readDouble(field: "number") else { return node(.null) }
            return node(.number(number))
        }
    }
}
