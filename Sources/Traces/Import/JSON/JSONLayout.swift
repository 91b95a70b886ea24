/// Where the members of a JSON document's top-level object lie, and the elements of one of its
/// arrays, found in one validating pass that builds no values.
///
/// `tracesim merge` copies the runs of matrix parts byte for byte: building a tree of every
/// number in a 9 MB part and rendering it again costs ten times the reading, and a number read
/// back as a `Double` need not print as it was written.
public struct JSONLayout: Sendable {
    /// A member of the top-level object.
    public struct Member: Sendable, Equatable {
        /// The decoded key.
        public var key: String
        /// The bytes of its value, as offsets into the document given.
        public var value: Range<Int>
    }

    /// An element of the array that was split.
    public struct Element: Sendable, Equatable {
        /// The bytes of the element, as offsets into the document given.
        public var range: Range<Int>
        /// The values of the string members asked for, in the order asked; `nil` where absent.
        public var strings: [String?]
    }

    /// The top-level members, in document order.
    public var members: [Member]
    /// The elements of the array under the key split, in order; empty when the key is absent.
    public var elements: [Element]

    /// Reads the layout of `bytes`, which must be one JSON object.
    ///
    /// - Parameters:
    ///   - bytes: the document (a UTF-8 byte order mark is skipped).
    ///   - file: the name errors carry.
    ///   - key: the top-level member whose array is split into elements; each must be an object.
    ///   - strings: members of each element whose string values are returned (a non-string value
    ///     there, or a key given twice, is an error).
    /// - Throws: `TraceFormatError` at the first byte that is not valid JSON (escapes included),
    ///   a top-level key given twice, or a split element that is not an object.
    /// - Complexity: O(n) in the document's size.
    public static func read(_ bytes: [UInt8], file: String, splitting key: String, strings: [String])
        throws(TraceFormatError) -> JSONLayout
    {
        try bytes.withUnsafeBufferPointer { buffer throws(TraceFormatError) in
            let source = TextSource(file: file, bytes: buffer)
            try source.checkIsText()
            let shift = buffer.count - source.bytes.count
            var scanner = JSONScanner(source: source)
            var layout = JSONLayout(members: [], elements: [])
            var object = try scanner.beginObject()
            while let token = try scanner.nextKey(&object) {
                let name = try scanner.text(token)
                guard !layout.members.contains(where: { $0.key == name }) else {
                    throw scanner.error("key '\(name)' appears twice", at: token.start)
                }
                _ = scanner.peek()
                let start = scanner.position
                if name == key {
                    layout.elements = try elements(&scanner, strings: strings, shift: shift)
                } else {
                    try skip(&scanner, depth: 1)
                }
                layout.members.append(Member(key: name, value: (start + shift)..<(scanner.position + shift)))
            }
            try scanner.expectEnd()
            return layout
        }
    }

    private static func elements(_ scanner: inout JSONScanner, strings: [String], shift: Int)
        throws(TraceFormatError) -> [Element]
    {
        var result: [Element] = []
        var array = try scanner.beginArray()
        while try scanner.nextElement(&array) {
            _ = scanner.peek()
            let start = scanner.position
            guard scanner.peek() == UInt8(ascii: "{") else { throw scanner.error("expected an object") }
            var found = [String?](repeating: nil, count: strings.count)
            var object = try scanner.beginObject()
            while let token = try scanner.nextKey(&object) {
                let name = try scanner.text(token)
                guard let slot = strings.firstIndex(of: name) else {
                    try skip(&scanner, depth: 3)
                    continue
                }
                guard found[slot] == nil else { throw scanner.error("key '\(name)' appears twice", at: token.start) }
                guard scanner.peek() == UInt8(ascii: "\"") else { throw scanner.error("'\(name)' must be a string") }
                found[slot] = try scanner.text(scanner.readString())
            }
            result.append(Element(range: (start + shift)..<(scanner.position + shift), strings: found))
        }
        return result
    }

    /// Skips a value, decoding every escaped string so a bad escape is an error here rather than
    /// in whatever reads the copied bytes.
    private static func skip(_ scanner: inout JSONScanner, depth: Int) throws(TraceFormatError) {
        guard depth < JSONScanner.maximumDepth else {
            throw scanner.source.error(atOffset: scanner.position, .nestingTooDeep(limit: JSONScanner.maximumDepth))
        }
        switch scanner.peek() {
        case UInt8(ascii: "\"")?:
            let token = try scanner.readString()
            if token.hasEscapes { _ = try scanner.text(token) }
        case UInt8(ascii: "{")?:
            var object = try scanner.beginObject()
            while let token = try scanner.nextKey(&object) {
                if token.hasEscapes { _ = try scanner.text(token) }
                try skip(&scanner, depth: depth + 1)
            }
        case UInt8(ascii: "[")?:
            var array = try scanner.beginArray()
            while try scanner.nextElement(&array) { try skip(&scanner, depth: depth + 1) }
        case .some(UInt8(ascii: "-")), .some(UInt8(ascii: "0")...UInt8(ascii: "9")):
            // Checked against RFC 8259's grammar only: the value is never needed, and computing
            // it is most of the cost of a run full of numbers.
            let (start, end) = try scanner.readNumberRange()
            guard isNumber(scanner.source.slice(start, end)) else { throw scanner.error("invalid number", at: start) }
        default:
            try scanner.skipValue(depth: depth)
        }
    }

    /// Whether `bytes` is exactly a JSON number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    static func isNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        func isDigit(_ at: Int) -> Bool {
            at < count && bytes[at] >= UInt8(ascii: "0") && bytes[at] <= UInt8(ascii: "9")
        }
        func digits() -> Bool {
            guard isDigit(index) else { return false }
            while isDigit(index) { index += 1 }
            return true
        }
        if index < count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        if index < count, bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if !digits() {
            return false
        }
        if index < count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() else { return false }
        }
        if index < count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() else { return false }
        }
        return index == count
    }
}
