import Traces

/// One JSON value as TraceSim reads it: from a configuration file, a run line, or a line of the
/// engine protocol. Every reader builds this one tree, so a value read in one place reads the
/// same everywhere; writers build text directly (see `ProtocolLine` and the reports' writer),
/// because they never need a tree to walk back.
///
/// Object members keep the order they were written in: errors name the first problem in
/// reading order, and a key given twice can be reported rather than silently dropped.
public indirect enum JSONValue: Sendable, Equatable {
    case object([(key: String, value: JSONNode)])
    case array([JSONNode])
    case string(String)
    case number(JSONNumber)
    case bool(Bool)
    case null

    /// The value of the member named `key` of an object; `nil` for a missing member or a value
    /// that is not an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value.value
    }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.object(let left), .object(let right)):
            left.count == right.count && zip(left, right).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.array(let left), .array(let right)): left == right
        case (.string(let left), .string(let right)): left == right
        case (.number(let left), .number(let right)): left == right
        case (.bool(let left), .bool(let right)): left == right
        case (.null, .null): true
        case (.object, _), (.array, _), (.string, _), (.number, _), (.bool, _), (.null, _): false
        }
    }
}

/// A JSON number as written. Each reader converts the digits straight to the width it needs (a
/// fix's speed is a `Float`, its latitude a `Double`), never through a wider or narrower type
/// first, so a value survives a round trip bit for bit.
public struct JSONNumber: Sendable, Equatable {
    private enum Storage: Sendable {
        /// The digits, as a protocol line's parser keeps them.
        case digits(String)
        /// A value the configuration parser already converted (to name a bad number's JSON path
        /// while it still knows the path), with where its digits stand in the shared text: a
        /// configuration file can hold thousands of numbers, and copying each one's digits out
        /// would cost more than the whole parse of them.
        case checked(Double, text: JSONSourceText, start: Int, end: Int)
    }

    private let storage: Storage

    /// A number with its digits, converted when it is read.
    package init(text: String) { storage = .digits(text) }

    /// A number already converted, whose digits stand at `start..<end` of `text`.
    init(checked value: Double, text: JSONSourceText, start: Int, end: Int) {
        storage = .checked(value, text: text, start: start, end: end)
    }

    /// The number's text, exactly as written.
    public var text: String {
        switch storage {
        case .digits(let digits): digits
        case .checked(_, let text, let start, let end): text.string(from: start, to: end)
        }
    }

    /// The value as a finite `Double`, or `nil` when it is beyond a double's range.
    public var double: Double? {
        switch storage {
        case .checked(let value, _, _, _): return value
        case .digits(var digits):
            return digits.withUTF8 { bytes in
                if case .value(let number) = NumberParser.double(bytes) { number } else { nil }
            }
        }
    }

    /// Numbers are equal when they are written the same.
    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool { lhs.text == rhs.text }
}

/// A value with where it stands in its text.
///
/// Only the byte offset is kept while parsing; the line and column are counted when asked
/// for, which happens when an error is reported. Counting them for every node made parsing
/// quadratic in the file's size.
public struct JSONNode: Sendable, Equatable {
    public var value: JSONValue
    /// The 0-based byte offset of the value's first byte, after any byte-order mark.
    public var offset: Int
    /// The whole text, shared by every node of one parse, to count lines from.
    let text: JSONSourceText?

    /// A node whose line is counted from `text`, or, without it, taken to be line 1.
    init(value: JSONValue, offset: Int, text: JSONSourceText?) {
        self.value = value
        self.offset = offset
        self.text = text
    }

    /// A node of a one-line text, such as a protocol line.
    package init(value: JSONValue, offset: Int) {
        self.init(value: value, offset: offset, text: nil)
    }

    /// 1-based line.
    /// - Complexity: O(offset): meant for error messages.
    public var line: Int { location.line }

    /// 1-based column, in bytes.
    /// - Complexity: O(offset): meant for error messages.
    public var column: Int { location.column }

    private var location: (line: Int, column: Int) { text?.location(ofOffset: offset) ?? (1, offset + 1) }

    /// Compares values and offsets.
    public static func == (lhs: JSONNode, rhs: JSONNode) -> Bool {
        lhs.value == rhs.value && lhs.offset == rhs.offset
    }
}

/// A text's bytes, kept so a node's line and column can be counted on demand.
final class JSONSourceText: Sendable {
    private let bytes: [UInt8]
    /// Bytes before offset 0: a UTF-8 byte-order mark.
    private let skipped: Int

    init(bytes: [UInt8], skipped: Int) {
        self.bytes = bytes
        self.skipped = skipped
    }

    /// The text between two offsets.
    func string(from start: Int, to end: Int) -> String {
        String(decoding: bytes[(skipped + start)..<(skipped + end)], as: UTF8.self)
    }

    func location(ofOffset offset: Int) -> (line: Int, column: Int) {
        bytes.withUnsafeBufferPointer { buffer in
            TextSource(file: "", bytes: UnsafeBufferPointer(rebasing: buffer[skipped...])).location(ofOffset: offset)
        }
    }
}
