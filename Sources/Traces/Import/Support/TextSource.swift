#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A trace file's bytes together with its name, for importers to read and to blame.
///
/// Line and column numbers are computed from a byte offset only when an error needs them,
/// so the happy path never pays for position tracking it does not use.
package struct TextSource {
    /// The file name as the user gave it.
    package let file: String
    /// The whole file, a leading UTF-8 byte-order mark removed.
    package let bytes: UnsafeBufferPointer<UInt8>
    /// The mapping `bytes` lies in, when the file was mapped: importers that read front to
    /// back hand its pages back as they go.
    let mapping: MappedFile?
    /// Whether a well-framed record with an impossible field is skipped and counted rather
    /// than failing the whole file (`ImportOptions.strict` off). Errors at a byte offset are
    /// then located lazily (see `TextSource+LenientRecords`): counting lines from the top for
    /// each of a million skipped records would read the file a million times.
    var isLenient = false

    package init(file: String, bytes: UnsafeBufferPointer<UInt8>, mapping: MappedFile? = nil) {
        self.file = file
        self.mapping = mapping
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            self.bytes = UnsafeBufferPointer(rebasing: bytes[3...])
        } else {
            self.bytes = bytes
        }
    }

    /// The 1-based line and column of a byte offset.
    package func location(ofOffset offset: Int) -> (line: Int, column: Int) {
        Self.location(ofOffset: offset, in: bytes)
    }

    private static func location(ofOffset offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int)
    {
        var line = 1
        var lineStart = 0
        let end = min(offset, bytes.count)
        var index = 0
        while index < end {
            if bytes[index] == UInt8(ascii: "\n") {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        return (line, end - lineStart + 1)
    }

    /// An error at a byte offset. In a lenient import it holds the offset until it is located
    /// (`located(_:on:)`, `located(_:)`).
    package func error(atOffset offset: Int, _ problem: TraceFormatError.Problem) -> TraceFormatError {
        let (line, column) = Self.errorLocation(ofOffset: offset, in: bytes, isLenient: isLenient)
        return TraceFormatError(file: file, line: line, column: column, problem: problem)
    }

    /// The line and column for `error(atOffset:)`; in a lenient import, no line yet and the
    /// offset in place of the column. Out of line, and given only what it reads: errors are
    /// rare, and inlined into every field reader's error path it would crowd the readers out
    /// of their callers' loops.
    @inline(never)
    private static func errorLocation(
        ofOffset offset: Int, in bytes: UnsafeBufferPointer<UInt8>, isLenient: Bool
    ) -> (line: Int?, column: Int) {
        isLenient ? (nil, offset + 1) : location(ofOffset: offset, in: bytes)
    }

    /// An error at a line, and a column when known.
    func error(line: Int, column: Int? = nil, _ problem: TraceFormatError.Problem) -> TraceFormatError {
        TraceFormatError(file: file, line: line, column: column, problem: problem)
    }

    /// Refuses empty files and NUL bytes, which none of the text formats may contain.
    package func checkIsText() throws(TraceFormatError) {
        guard bytes.count > 0 else { throw TraceFormatError(file: file, problem: .emptyFile) }
        guard let base = bytes.baseAddress else { return }
        // In slices, so a mapped file's pages go back as soon as they are checked.
        let slice = 1 << 20
        var start = 0
        while start < bytes.count {
            let count = min(slice, bytes.count - start)
            if let hit = memchr(base + start, 0, count) {
                throw error(atOffset: UnsafeRawPointer(hit) - UnsafeRawPointer(base), .nulByte)
            }
            start += count
            mapping?.release(before: base + start)
        }
        if bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == 9 || $0 == 10 || $0 == 13 }) {
            throw TraceFormatError(file: file, problem: .emptyFile)
        }
    }

    /// The file's lines, handing a mapped file's pages back behind the reader.
    var lines: TextLines { TextLines(bytes, mapping: mapping) }

    /// A sub-range of the file as its own buffer.
    @inline(__always)
    package func slice(_ start: Int, _ end: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// A sub-range decoded as text, for messages and rare string fields.
    func string(_ start: Int, _ end: Int) -> String {
        String(decoding: slice(start, end), as: UTF8.self)
    }
}

/// One line of a text file: its 1-based number and byte range, line terminator excluded.
struct TextLine {
    let number: Int
    let start: Int
    let end: Int

    var isEmpty: Bool { start == end }
}

/// Iterates a buffer's lines, accepting `\n`, `\r\n` and `\r\r\n` endings, mixed in one
/// file, and a last line without one.
struct TextLines: Sequence, IteratorProtocol {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let mapping: MappedFile?
    private var position = 0
    private var number = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>, mapping: MappedFile? = nil) {
        self.bytes = bytes
        self.mapping = mapping
    }

    mutating func next() -> TextLine? {
        guard position < bytes.count, let base = bytes.baseAddress else { return nil }
        number += 1
        let start = position
        // Lines before the previous one are never read again by the line importers.
        mapping?.release(before: base + start)
        var end: Int
        if let hit = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start) {
            end = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
            position = end + 1
        } else {
            end = bytes.count
            position = end
        }
        // CR LF, and CR CR LF from a CRLF file passed once more through a text-mode copy.
        while end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return TextLine(number: number, start: start, end: end)
    }
}

/// Splits a line at a one-byte separator into reusable field ranges (no quoting: none of
/// the CSV dialects TraceSim reads quote their fields).
///
/// Field bounds live in one array written through a single unsafe buffer per line, so a
/// split costs no per-field uniqueness checks or appends.
struct FieldSplitter {
    /// `bounds[2 * i]` and `bounds[2 * i + 1]` are field `i`'s start and end.
    private var bounds = [Int](repeating: 0, count: 64)
    private(set) var count = 0

    /// Field `index`'s first byte.
    @inline(__always) func start(_ index: Int) -> Int { bounds[2 &* index] }
    /// The byte after field `index`'s last.
    @inline(__always) func end(_ index: Int) -> Int { bounds[2 &* index &+ 1] }

    mutating func split(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, separator: UInt8) {
        while true {
            let found = bounds.withUnsafeMutableBufferPointer { bounds -> Int? in
                var fields = 0
                var fieldStart = start
                while true {
                    guard 2 &* fields &+ 1 < bounds.count else { return nil }
                    let fieldEnd = bytes.firstIndex(of: separator, from: fieldStart, to: end)
                    bounds[2 &* fields] = fieldStart
                    bounds[2 &* fields &+ 1] = fieldEnd
                    fields &+= 1
                    if fieldEnd == end { return fields }
                    fieldStart = fieldEnd &+ 1
                }
            }
            if let found {
                count = found
                return
            }
            // More fields than room: grow and split again (rare: only very wide lines).
            bounds.append(contentsOf: repeatElement(0, count: bounds.count))
        }
    }

    /// The field's range with surrounding spaces trimmed.
    func trimmed(_ index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (start: Int, end: Int) {
        var start = start(index)
        var end = end(index)
        while start < end, bytes[start] == UInt8(ascii: " ") || bytes[start] == 9 { start += 1 }
        while end > start, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == 9 { end -= 1 }
        return (start, end)
    }
}
