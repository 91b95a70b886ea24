import ConfigJSON
import Traces

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The runs `matrix --format jsonl` wrote, read as a stream: the header line parsed and checked
/// when opened, then one run per call to `next()`, each checked to be valid JSON and the run its
/// place stands for, and handed over as its bytes.
///
/// Memory holds the header and the line being read, never the runs before it: a fleet's runs
/// are merged and summarised in the memory of its longest line.
///
/// A class, not a struct: it owns the file descriptor it reads, closed once when it goes.
public final class RunLines {
    /// One run: its line's bytes and where it stands.
    public struct Run {
        /// The run's JSON object, without the line break.
        public var bytes: ArraySlice<UInt8>
        /// The file it was read from, as errors name it.
        public var file: String
        /// The 1-based line of the file it was read from.
        public var line: Int
        /// The input (index in the identity's traces) the run comes from.
        public var input: Int
        /// The scenario's index in the identity's scenarios.
        public var scenarioIndex: Int
    }

    /// The file as the user named it (`<stdin>` for standard input), as errors name it.
    public let file: String
    /// The header's `schemaVersion`.
    public let schemaVersion: Int
    /// The header's identity of the whole run.
    public let identity: RunIdentity
    /// The part's shard, or `nil` for a whole run.
    public let shard: Shard?

    /// The longest line read (256 MiB): a run's line is a few kilobytes per hour of trace, and
    /// the header a hundred bytes per input.
    public static let maximumLineBytes = 256 << 20

    private var reader: LineReader
    private var order: PartRunOrder
    private var runsRead = 0

    /// The bytes held to find lines in: about the longest line so far, and a chunk, whatever
    /// the number of lines read (what the memory tests watch).
    public var bufferBytes: Int { reader.bufferBytes }

    // MARK: Opening

    /// Opens `path` (`-` for standard input) and reads its header.
    /// - Throws: `TraceFileError` when the file cannot be opened (exit 66), `ConfigError` when
    ///   its header is not a header (exit 65).
    public convenience init(path: String) throws {
        if path == TraceFile.standardInputPath {
            try self.init(source: .descriptor(STDIN_FILENO, closes: false), file: TraceFile.standardInputName)
            return
        }
        guard !path.utf8.contains(0) else {
            throw TraceFileError(file: path, reason: "the path contains a NUL byte")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw TraceFileError(file: path, reason: String(cString: strerror(errno)))
        }
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw TraceFileError(file: path, reason: "is a directory")
        }
        try self.init(source: .descriptor(descriptor, closes: true), file: path)
    }

    /// Reads `bytes` as the file `file`, in chunks as a file is read.
    /// - Throws: `ConfigError` when the header is not a header.
    public convenience init(bytes: [UInt8], file: String, maximumLineBytes: Int = RunLines.maximumLineBytes)
        throws(ConfigError)
    {
        do {
            try self.init(source: .bytes(bytes, position: 0), file: file, maximumLineBytes: maximumLineBytes)
        } catch let error as ConfigError {
            throw error
        } catch {
            throw ConfigError(file: file, message: "\(error)")
        }
    }

    private init(source: LineReader.Source, file: String, maximumLineBytes: Int = RunLines.maximumLineBytes)
        throws
    {
        var reader = LineReader(source: source, file: file, maximumLineBytes: maximumLineBytes)
        do {
            guard var line = try reader.nextLine() else {
                throw ConfigError(
                    file: file, kind: .syntax,
                    message: "empty: expected a header line and runs, as 'tracesim matrix --format jsonl' writes")
            }
            // A byte-order mark is not JSON, but editors add one.
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
            (schemaVersion, identity, shard) = try Self.header(Array(line), file: file)
        } catch {
            reader.close()
            throw error
        }
        self.file = file
        self.reader = reader
        order = PartRunOrder(identity: identity, shard: shard)
    }

    deinit { reader.close() }

    /// The header line: `{"kind":"tracesim-runs","schemaVersion","identity","seed"[,"shard"]}`.
    private static func header(_ line: [UInt8], file: String) throws(ConfigError) -> (Int, RunIdentity, Shard?) {
        let root: ConfigJSONNode
        do {
            root = try ConfigJSON.parse(line, file: file)
        } catch {
            var error = error
            error.message +=
                " (JSON Lines hold one JSON object per line: the header, then one run per line, as "
                + "'tracesim matrix --format jsonl' writes)"
            throw error
        }
        let reader = ConfigReader(file: file)
        guard case .object(let pairs) = root.value else { throw reader.fail(root, "$", "expected an object") }
        guard pairs.contains(where: { $0.key == "kind" }) else {
            let isMatrixJSON = pairs.contains { $0.key == "runs" }
            throw reader.fail(
                root, "$",
                isMatrixJSON
                    ? "no 'kind': this is a matrix JSON (--format json), not JSON Lines (--format jsonl)"
                    : "no 'kind': not JSON Lines written by 'tracesim matrix --format jsonl'")
        }
        let members = try reader.object(
            root, "$", allowed: ["kind", "schemaVersion", "identity", "seed", "shard"])
        let kindNode = try reader.required(members, "kind", in: root, "$")
        guard try reader.string(kindNode, "$.kind") == jsonLinesKind else {
            throw reader.fail(kindNode, "$.kind", "expected '\(jsonLinesKind)'")
        }
        func whole(_ node: ConfigJSONNode, _ path: String, _ range: ClosedRange<Double>) throws(ConfigError) -> Int {
            let value = try reader.number(node, path, in: range)
            guard value == value.rounded() else { throw reader.fail(node, path, "expected a whole number") }
            return Int(value)
        }
        let schemaVersion = try whole(
            try reader.required(members, "schemaVersion", in: root, "$"), "$.schemaVersion", 1...1_000)
        let identity = try RunIdentity(
            try reader.required(members, "identity", in: root, "$"), "$.identity", reader)
        // The seed is compared as written: a seed beyond 2^53 is not the same number as a Double.
        let seedNode = try reader.required(members, "seed", in: root, "$")
        guard numberText(line, at: seedNode.offset) == Matrix.seedText(identity.seed) else {
            throw reader.fail(seedNode, "$.seed", "does not match $.identity.seed")
        }
        var shard: Shard?
        if let shardNode = members["shard"] {
            let fields = try reader.object(shardNode, "$.shard", allowed: ["index", "count"])
            let count = try whole(
                try reader.required(fields, "count", in: shardNode, "$.shard"), "$.shard.count",
                1...Double(Shard.maximumCount))
            let index = try whole(
                try reader.required(fields, "index", in: shardNode, "$.shard"), "$.shard.index", 1...Double(count))
            shard = Shard(index: index, count: count)
        }
        return (schemaVersion, identity, shard)
    }

    /// The header's `kind`: what says these lines are TraceSim runs.
    public static let jsonLinesKind = "tracesim-runs"

    /// The literal at `offset` (a number or `null`), as written.
    package static func numberText(_ bytes: some Collection<UInt8>, at offset: Int) -> String {
        // Up to the byte that ends a value: a comma, a bracket, white space.
        let literal = bytes.dropFirst(offset).prefix { byte in
            byte != UInt8(ascii: ",") && byte != UInt8(ascii: "}") && byte != UInt8(ascii: "]") && byte > 0x20
        }
        return String(decoding: literal, as: UTF8.self)
    }

    // MARK: Runs

    /// The next run, checked: a JSON object on one line, whose `trace` and `scenario` are where
    /// the identity and shard say the next run is. `nil` after the last run, once the last trace
    /// is checked to have every scenario.
    /// - Throws: `ConfigError` naming the file and line: a line that is not one JSON object, a run
    ///   out of place, a last line cut short (no line break: a matrix that was stopped), the runs
    ///   ending mid-trace, a line over `maximumLineBytes`.
    /// - Complexity: O(the line's length).
    public func next() throws(ConfigError) -> Run? {
        guard let line = try reader.nextLine() else {
            if let unfinished = order.unfinished {
                throw ConfigError(file: file, line: reader.lineNumber, message: unfinished.message)
            }
            return nil
        }
        let lineNumber = reader.lineNumber
        guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else {
            throw ConfigError(
                file: file, line: lineNumber, kind: .syntax,
                message: "an empty line: JSON Lines hold one run per line, and nothing between them")
        }
        let (trace, scenario) = try Self.names(Array(line), file: file, line: lineNumber)
        switch order.accept(trace: trace, scenario: scenario) {
        case .success(let input):
            defer { runsRead += 1 }
            return Run(
                bytes: line, file: file, line: lineNumber, input: input,
                scenarioIndex: runsRead % identity.scenarios.count)
        case .failure(let outOfPlace):
            throw ConfigError(file: file, line: lineNumber, path: "$", message: outOfPlace.message)
        }
    }

    /// The run's `trace` and `scenario`, the line validated as JSON on the way (runs are copied
    /// as bytes, so a bad escape must be found here).
    private static func names(_ line: [UInt8], file: String, line number: Int) throws(ConfigError) -> (
        String, String
    ) {
        let layout: JSONLayout
        do {
            layout = try JSONLayout.read(line, file: file, splitting: "", strings: [])
        } catch {
            var failure = ConfigError(syntax: error)
            failure.line = number
            throw failure
        }
        func string(_ key: String) throws(ConfigError) -> String {
            guard let member = layout.members.first(where: { $0.key == key }) else {
                throw ConfigError(file: file, line: number, path: "$", message: "a run needs '\(key)'")
            }
            // The value alone, as a one-element array: decoded with its escapes.
            let value = [UInt8(ascii: "[")] + line[member.value] + [UInt8(ascii: "]")]
            if let node = try? ConfigJSON.parse(value, file: file), case .array(let elements) = node.value,
                case .string(let text)? = elements.first?.value
            {
                return text
            }
            throw ConfigError(
                file: file, line: number, column: member.value.lowerBound + 1, path: "$.\(key)",
                message: "expected a string")
        }
        return (try string("trace"), try string("scenario"))
    }
}

/// Lines of a file read in chunks into one buffer that is reused: it grows only to hold the
/// longest line.
private struct LineReader {
    let file: String
    let maximumLineBytes: Int
    private(set) var source: Source
    /// Bytes read and not yet handed over are `buffer[head..<tail]`; `scanned` is where the
    /// search for the next line break resumes.
    private var buffer: [UInt8] = []
    private var head = 0
    private var tail = 0
    private var scanned = 0
    private var isAtEnd = false
    /// The lines handed over so far: the number of the last one.
    private(set) var lineNumber = 0

    init(source: Source, file: String, maximumLineBytes: Int) {
        self.source = source
        self.file = file
        self.maximumLineBytes = maximumLineBytes
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
        case descriptor(Int32, closes: Bool)
        case bytes([UInt8], position: Int)
    }

    /// How much is asked of the source at a time.
    static let chunkBytes = 1 << 16

    /// The bytes held to find lines in.
    var bufferBytes: Int { buffer.count }

    /// The next line without its line break (and a carriage return before it), or `nil` at the
    /// end of the file.
    mutating func nextLine() throws(ConfigError) -> ArraySlice<UInt8>? {
        while true {
            if let newline = Self.firstLineBreak(in: buffer, scanned..<tail) {
                lineNumber += 1
                var end = newline
                if end > head, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = buffer[head..<end]
                head = newline + 1
                scanned = head
                return line
            }
            scanned = tail
            if tail - head > maximumLineBytes {
                throw ConfigError(
                    file: file, line: lineNumber + 1, kind: .syntax,
                    message: "line longer than \(maximumLineBytes) bytes: not runs 'tracesim matrix' writes")
            }
            if isAtEnd {
                guard head == tail else {
                    throw ConfigError(
                        file: file, line: lineNumber + 1, kind: .syntax,
                        message: "the last line ends without a line break: the file was cut short (a matrix "
                            + "stopped before it finished?); run it again")
                }
                return nil
            }
            try fill()
        }
    }

    /// Where the first `\n` in `range` of `bytes` is: `memchr`, since the search passes over
    /// every byte of the file.
    private static func firstLineBreak(in bytes: [UInt8], _ range: Range<Int>) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, !range.isEmpty,
                let found = memchr(base + range.lowerBound, 0x0A, range.count)
            else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// Moves what is left to the front and reads a chunk after it, growing the buffer only when
    /// one line fills it.
    private mutating func fill() throws(ConfigError) {
        if head > 0 {
            let count = tail - head
            buffer.withUnsafeMutableBufferPointer { bytes in
                guard let base = bytes.baseAddress else { return }
                memmove(base, base + head, count)
            }
            scanned -= head
            tail = count
            head = 0
        }
        if buffer.count - tail < Self.chunkBytes {
            buffer += [UInt8](repeating: 0, count: max(Self.chunkBytes, buffer.count))
        }
        let got: Int
        switch source {
        case .bytes(let bytes, let position):
            got = min(Self.chunkBytes, bytes.count - position)
            buffer.replaceSubrange(tail..<(tail + got), with: bytes[position..<(position + got)])
            source = .bytes(bytes, position: position + got)
        case .descriptor(let descriptor, _):
            var count = -1
            let (start, space) = (tail, min(buffer.count - tail, Self.chunkBytes))
            while count < 0 {
                count = buffer.withUnsafeMutableBufferPointer { bytes in
                    bytes.baseAddress.map { read(descriptor, $0 + start, space) } ?? 0
                }
                if count < 0 && errno != EINTR {
                    throw ConfigError(file: file, message: "cannot read: \(String(cString: strerror(errno)))")
                }
            }
            got = count
        }
        if got == 0 { isAtEnd = true }
        tail += got
    }
}

private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
