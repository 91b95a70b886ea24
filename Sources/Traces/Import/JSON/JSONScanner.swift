/// A pull reader over JSON bytes: the importers walk the document and pick the keys they
/// know, without building dictionaries or strings for the rest.
///
/// Strings are returned as byte ranges (still escaped); numbers are parsed in place.
/// Nesting is bounded so that hostile input (`[[[[...`) fails with an error rather than
/// exhausting the stack.
package struct JSONScanner {
    package static let maximumDepth = 64

    package let source: TextSource
    package var position: Int
    package private(set) var end: Int
    private var lineCache = (offset: 0, line: 1)

    package init(source: TextSource, start: Int = 0, end: Int? = nil) {
        self.source = source
        self.position = start
        self.end = end ?? source.bytes.count
        self.lineCache = (0, 1)
    }

    /// Moves the scanner to another range of the same source, so a reader of many small
    /// documents (a JSON Lines file) keeps one scanner rather than copying the source's
    /// name and mapping into a new one for each.
    mutating func restart(at start: Int, end: Int) {
        position = start
        self.end = end
    }

    /// A string token's raw bytes between its quotes.
    package struct StringToken {
        let start: Int
        let end: Int
        let hasEscapes: Bool
    }

    // MARK: Errors and positions

    package func error(_ message: String, at offset: Int? = nil) -> TraceFormatError {
        source.error(atOffset: offset ?? position, .invalidJSON(message))
    }

    /// The 1-based line of `offset`, counted forward from the last answer (offsets asked
    /// for in increasing order cost O(n) in total).
    mutating func line(at offset: Int) -> Int {
        if offset < lineCache.offset { lineCache = (0, 1) }
        var line = lineCache.line
        var index = lineCache.offset
        let bytes = source.bytes
        while index < offset {
            if bytes[index] == UInt8(ascii: "\n") { line += 1 }
            index += 1
        }
        lineCache = (offset, line)
        return line
    }

    // MARK: Tokens

    @inline(__always)
    mutating func skipWhitespace() {
        let bytes = source.bytes
        while position < end {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): position += 1
            default: return
            }
        }
    }

    /// The next non-whitespace byte, not consumed.
    package mutating func peek() -> UInt8? {
        skipWhitespace()
        return position < end ? source.bytes[position] : nil
    }

    /// Consumes `byte`, after any whitespace, or throws naming `what` was expected.
    @inline(__always)
    mutating func expect(_ byte: UInt8, _ what: StaticString) throws(TraceFormatError) {
        // The byte is almost always next, with no whitespace before it: one comparison.
        if position < end, source.bytes[position] == byte {
            position &+= 1
            return
        }
        try expectAfterWhitespace(byte, what)
    }

    @inline(never)
    private mutating func expectAfterWhitespace(_ byte: UInt8, _ what: StaticString) throws(TraceFormatError) {
        guard peek() == byte else {
            throw position < end
                ? error("expected \(what.description)")
                : source.error(atOffset: position, .truncated("JSON ends before \(what.description)"))
        }
        position += 1
    }

    /// Reads a string token and returns its raw range.
    package mutating func readString() throws(TraceFormatError) -> StringToken {
        try expect(UInt8(ascii: "\""), "a string")
        let bytes = source.bytes
        let start = position
        var hasEscapes = false
        while position < end {
            let byte = bytes[position]
            // Most bytes are plain text: one comparison decides, the rare cases follow.
            if byte > UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                position &+= 1
                continue
            }
            if byte == UInt8(ascii: "\"") {
                position += 1
                return StringToken(start: start, end: position - 1, hasEscapes: hasEscapes)
            }
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                position += 2
                continue
            }
            if byte < 0x20 { throw error("control character in a string") }
            position += 1
        }
        throw source.error(atOffset: start, .truncated("unterminated string"))
    }

    /// The decoded text of a string token.
    package func text(_ token: StringToken) throws(TraceFormatError) -> String {
        guard token.hasEscapes else { return source.string(token.start, token.end) }
        var scalars = String.UnicodeScalarView()
        var utf8: [UInt8] = []
        let bytes = source.bytes
        var index = token.start
        func flush() {
            if !utf8.isEmpty {
                scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
                utf8.removeAll()
            }
        }
        while index < token.end {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < token.end else {
                utf8.append(byte)
                index += 1
                continue
            }
            flush()
            let escaped = bytes[index + 1]
            index += 2
            switch escaped {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                guard index + 4 <= token.end,
                    let code = UInt32(String(decoding: source.slice(index, index + 4), as: UTF8.self), radix: 16)
                else { throw error("bad \\u escape", at: index) }
                index += 4
                scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
            default:
                throw error("bad escape", at: index - 1)
            }
        }
        flush()
        return String(scalars)
    }

    /// Whether a string token equals `literal` (keys are compared without decoding).
    func matches(_ token: StringToken, _ literal: StaticString) -> Bool {
        !token.hasEscapes && source.slice(token.start, token.end).equals(literal)
    }

    /// Reads a number token's range, refusing what RFC 8259 refuses: a leading `+`, leading
    /// zeros (`01`), a point without digits after it (`1.`, `.5`) and an empty exponent. The
    /// value is parsed by the caller.
    package mutating func readNumberRange() throws(TraceFormatError) -> (start: Int, end: Int) {
        skipWhitespace()
        let bytes = source.bytes
        let start = position
        @inline(__always) func isDigit(_ index: Int) -> Bool { index < end && bytes[index] &- 48 <= 9 }
        @inline(__always) func skipDigits() { while isDigit(position) { position &+= 1 } }
        guard position < end else { throw source.error(atOffset: start, .truncated("JSON ends before a value")) }
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard isDigit(position) else {
            throw position == start ? error("expected a value") : error("a number needs a digit after '-'", at: start)
        }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if isDigit(position) { throw error("a number has a leading zero (RFC 8259 forbids them)", at: start) }
        } else {
            skipDigits()
        }
        if position < end, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard isDigit(position) else { throw error("a number needs a digit after '.' (RFC 8259)", at: start) }
            skipDigits()
        }
        if position < end, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < end, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard isDigit(position) else { throw error("a number's exponent needs a digit", at: start) }
            skipDigits()
        }
        // `1.2.3`, `1e5e5`, `5-3`: the number goes on in a way JSON has no grammar for.
        if position < end {
            switch bytes[position] {
            case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
                throw error("invalid number", at: start)
            default: break
            }
        }
        return (start, position)
    }

    /// Consumes `null` if it is next.
    package mutating func consumeNull() -> Bool {
        guard peek() == UInt8(ascii: "n"), position + 4 <= end else { return false }
        let bytes = source.bytes
        guard bytes[position + 1] == UInt8(ascii: "u"), bytes[position + 2] == UInt8(ascii: "l"),
            bytes[position + 3] == UInt8(ascii: "l")
        else { return false }
        position += 4
        return true
    }

    /// Reads `true` or `false`.
    package mutating func readBool() throws(TraceFormatError) -> Bool {
        let bytes = source.bytes
        if peek() == UInt8(ascii: "t"), position + 4 <= end, bytes[position + 1] == UInt8(ascii: "r"),
            bytes[position + 2] == UInt8(ascii: "u"), bytes[position + 3] == UInt8(ascii: "e")
        {
            position += 4
            return true
        }
        if peek() == UInt8(ascii: "f"), position + 5 <= end, bytes[position + 1] == UInt8(ascii: "a"),
            bytes[position + 2] == UInt8(ascii: "l"), bytes[position + 3] == UInt8(ascii: "s"),
            bytes[position + 4] == UInt8(ascii: "e")
        {
            position += 5
            return false
        }
        throw error("expected true or false")
    }

    /// Skips any value, nested at most `maximumDepth` deep.
    mutating func skipValue(depth: Int = 0) throws(TraceFormatError) {
        guard depth < Self.maximumDepth else {
            throw source.error(atOffset: position, .nestingTooDeep(limit: Self.maximumDepth))
        }
        switch peek() {
        case UInt8(ascii: "\"")?:
            _ = try readString()
        case UInt8(ascii: "{")?:
            var object = try beginObject()
            while try nextKey(&object) != nil { try skipValue(depth: depth + 1) }
        case UInt8(ascii: "[")?:
            var array = try beginArray()
            while try nextElement(&array) { try skipValue(depth: depth + 1) }
        case UInt8(ascii: "t")?, UInt8(ascii: "f")?:
            _ = try readBool()
        case UInt8(ascii: "n")?:
            guard consumeNull() else { throw error("expected a value") }
        case nil:
            throw source.error(atOffset: position, .truncated("JSON ends before a value"))
        default:
            let (start, stop) = try readNumberRange()
            if case .invalid = NumberParser.double(source.slice(start, stop)) {
                throw error("invalid number", at: start)
            }
        }
    }

    // MARK: Containers

    /// Iteration state for an object or array: whether the first member was read.
    package struct Container {
        fileprivate var isFirst = true
    }

    package mutating func beginObject() throws(TraceFormatError) -> Container {
        try expect(UInt8(ascii: "{"), "'{'")
        return Container()
    }

    /// The next key of an object (the ':' consumed), or `nil` at its closing brace.
    package mutating func nextKey(_ container: inout Container) throws(TraceFormatError) -> StringToken? {
        guard try nextMember(&container) else { return nil }
        return try readKey()
    }

    /// Whether another member follows (its ',' consumed, its key not yet read); `false` at
    /// the closing brace. `nextKey` is this and `readKey`; a reader that knows its keys reads
    /// them straight from the bytes in between.
    package mutating func nextMember(_ container: inout Container) throws(TraceFormatError) -> Bool {
        if peek() == UInt8(ascii: "}") {
            position += 1
            return false
        }
        if !container.isFirst { try expect(UInt8(ascii: ","), "',' or '}'") }
        container.isFirst = false
        return true
    }

    /// A member's key and the ':' after it.
    package mutating func readKey() throws(TraceFormatError) -> StringToken {
        let key = try readString()
        try expect(UInt8(ascii: ":"), "':'")
        return key
    }

    package mutating func beginArray() throws(TraceFormatError) -> Container {
        try expect(UInt8(ascii: "["), "'['")
        return Container()
    }

    /// Whether another element follows (its ',' consumed); `false` at the closing bracket.
    package mutating func nextElement(_ container: inout Container) throws(TraceFormatError) -> Bool {
        if peek() == UInt8(ascii: "]") {
            position += 1
            return false
        }
        if !container.isFirst { try expect(UInt8(ascii: ","), "',' or ']'") }
        container.isFirst = false
        return true
    }

    /// Requires that only whitespace remains.
    package mutating func expectEnd() throws(TraceFormatError) {
        if peek() != nil { throw error("unexpected content after the JSON value") }
    }
}
