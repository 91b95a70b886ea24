import ConfigJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Lines of a file read in chunks into one buffer that is reused: it grows only to hold the
/// longest line, and never far past the limit a line is held to.
///
/// The first NUL byte stops the reading: no JSON line holds one, so a binary file or a device
/// such as `/dev/zero` costs one chunk, as it does in the trace importers. The lines before
/// it are handed over; the line holding it is refused, naming its line and column.
struct LineReader {
    let file: String
    private(set) var source: Source
    /// Bytes read and not yet handed over are `buffer[head..<tail]`; `scanned` is where the
    /// search for the next line break resumes.
    private var buffer: [UInt8] = []
    private var head = 0
    private var tail = 0
    private var scanned = 0
    /// Where the first NUL byte read is in `buffer`, if one was.
    private var nul: Int?
    private var isAtEnd = false
    /// The lines handed over so far: the number of the last one.
    private(set) var lineNumber = 0
    /// The bytes read from the source so far.
    private(set) var bytesRead = 0

    init(source: Source, file: String) {
        self.source = source
        self.file = file
    }

    /// Closes the descriptor, when it is one the reader opened.
    mutating func close() {
        if case .descriptor(let descriptor, closes: true) = source {
            _ = systemClose(descriptor)
            source = .bytes([], position: 0)
        }
    }

    /// Where the bytes come from.
    enum Source {
        /// An open descriptor, closed with the reader when `closes`.
        case descriptor(Int32, closes: Bool)
        /// A regular file opened again for each chunk and closed at once, so that a merge of
        /// more parts than the process may hold open reads them all; `device` and `inode` are
        /// the file's when first opened, checked at every opening.
        case reopened(path: String, offset: Int, device: UInt64, inode: UInt64)
        /// Bytes in memory, handed over a chunk at a time as a file's would be.
        case bytes([UInt8], position: Int)
    }

    /// How much is asked of the source at a time.
    static let chunkBytes = 1 << 16

    /// The bytes held to find lines in.
    var bufferBytes: Int { buffer.count }

    /// A line's limit: `bytes`, or `extendedBytes` for a line that starts with `extendedPrefix`
    /// (after a UTF-8 byte-order mark, if any), which a writer puts first.
    struct Limit {
        var bytes: Int
        var extendedPrefix: [UInt8] = []
        var extendedBytes = 0
    }

    /// The next line without its line break (and a carriage return before it), or `nil` at the
    /// end of the file.
    /// - Throws: `ConfigError` for a line over its limit, a NUL byte, a last line without a
    ///   line break, or a read that fails.
    mutating func nextLine(_ limit: Limit) throws(ConfigError) -> ArraySlice<UInt8>? {
        var allowed = limit.bytes
        while true {
            if let newline = Self.firstLineBreak(in: buffer, scanned..<tail) {
                try refuseNUL(before: newline)
                // A whole line found in the buffer is held to its limit too.
                allowed = try checkLength(newline - head, allowed: allowed, limit)
                lineNumber += 1
                var end = newline
                if end > head, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = buffer[head..<end]
                head = newline + 1
                scanned = head
                return line
            }
            scanned = tail
            try refuseNUL(before: tail)
            allowed = try checkLength(tail - head, allowed: allowed, limit)
            if isAtEnd {
                guard head == tail else {
                    throw ConfigError(
                        file: file, line: lineNumber + 1, kind: .syntax,
                        message: "the last line ends without a line break: the file was cut short (a matrix "
                            + "stopped before it finished?); run it again")
                }
                return nil
            }
            try fill(upTo: allowed)
        }
    }

    /// The limit of the line being read, `length` bytes of it read so far: `allowed`, or the
    /// extended limit once the line is past `allowed` and begins with the extended prefix.
    /// - Throws: `ConfigError` when the line is longer than its limit.
    private func checkLength(_ length: Int, allowed: Int, _ limit: Limit) throws(ConfigError) -> Int {
        guard length > allowed else { return allowed }
        if allowed < limit.extendedBytes, startsWith(limit.extendedPrefix) {
            return try checkLength(length, allowed: limit.extendedBytes, limit)
        }
        throw ConfigError(
            file: file, line: lineNumber + 1, kind: .syntax,
            message: "line longer than \(allowed) bytes: not runs 'tracesim matrix' writes")
    }

    /// Refuses the line being read when the first NUL byte read lies in it, before `end`.
    private func refuseNUL(before end: Int) throws(ConfigError) {
        guard let nul, nul >= head, nul < end else { return }
        throw ConfigError(
            file: file, line: lineNumber + 1, column: nul - head + 1, kind: .syntax,
            message: "NUL byte, which no JSON line holds (is this a binary file?)")
    }

    /// Whether the line being read starts with `prefix`, after a byte-order mark.
    private func startsWith(_ prefix: [UInt8]) -> Bool {
        guard !prefix.isEmpty else { return false }
        var line = buffer[head..<tail]
        if line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
        return line.starts(with: prefix)
    }

    /// Where the first `\n` in `range` of `bytes` is: `memchr`, since the search passes over
    /// every byte of the file.
    private static func firstLineBreak(in bytes: [UInt8], _ range: Range<Int>) -> Int? {
        find(0x0A, in: bytes, range)
    }

    private static func find(_ byte: Int32, in bytes: [UInt8], _ range: Range<Int>) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, !range.isEmpty,
                let found = memchr(base + range.lowerBound, byte, range.count)
            else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// Moves what is left to the front and reads a chunk after it, growing the buffer only when
    /// one line fills it, to at most about `allowed` and two chunks.
    private mutating func fill(upTo allowed: Int) throws(ConfigError) {
        if head > 0 {
            let count = tail - head
            buffer.withUnsafeMutableBufferPointer { bytes in
                guard let base = bytes.baseAddress else { return }
                memmove(base, base + head, count)
            }
            scanned -= head
            nul = nul.map { $0 - head }
            tail = count
            head = 0
        }
        if buffer.count - tail < Self.chunkBytes {
            let grown = min(max(2 * buffer.count, Self.chunkBytes), allowed + 2 * Self.chunkBytes)
            buffer += [UInt8](repeating: 0, count: max(grown - buffer.count, Self.chunkBytes))
        }
        let start = tail
        let got: Int
        switch source {
        case .bytes(let bytes, let position):
            got = min(Self.chunkBytes, bytes.count - position)
            buffer.replaceSubrange(tail..<(tail + got), with: bytes[position..<(position + got)])
            source = .bytes(bytes, position: position + got)
        case .descriptor(let descriptor, _):
            got = try read(descriptor, offset: nil)
        case .reopened(let path, let offset, let device, let inode):
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw ConfigError(file: file, message: "cannot open it again: \(String(cString: strerror(errno)))")
            }
            defer { _ = systemClose(descriptor) }
            var status = stat()
            guard fstat(descriptor, &status) == 0, UInt64(status.st_dev) == device, UInt64(status.st_ino) == inode
            else {
                throw ConfigError(file: file, message: "replaced by another file while it was read")
            }
            got = try read(descriptor, offset: offset)
            source = .reopened(path: path, offset: offset + got, device: device, inode: inode)
        }
        if got == 0 { isAtEnd = true }
        tail += got
        bytesRead += got
        if nul == nil { nul = Self.find(0, in: buffer, start..<tail) }
    }

    /// Reads a chunk after `tail`, at `offset` when given (`pread`), retrying when interrupted.
    private mutating func read(_ descriptor: Int32, offset: Int?) throws(ConfigError) -> Int {
        let (start, space) = (tail, min(buffer.count - tail, Self.chunkBytes))
        while true {
            let count = buffer.withUnsafeMutableBufferPointer { bytes in
                bytes.baseAddress.map { base in
                    if let offset { return pread(descriptor, base + start, space, off_t(offset)) }
                    return systemRead(descriptor, base + start, space)
                } ?? 0
            }
            if count >= 0 { return count }
            if errno != EINTR {
                throw ConfigError(file: file, message: "cannot read: \(String(cString: strerror(errno)))")
            }
        }
    }
}

private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
