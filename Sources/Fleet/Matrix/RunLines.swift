import ConfigJSON
import SimulationCore
import Traces

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The runs `matrix --format jsonl` wrote, read as a stream: the header line parsed and checked
/// when opened, then one run per call to `next()`, each checked to be valid JSON and the run its
/// place stands for, and handed over as its bytes, then the closing record, checked to account
/// for every input the file holds.
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
    /// The header's `schemaVersion`: `Matrix.schemaVersion`, since no other is read.
    public let schemaVersion: Int
    /// The header's identity of the whole run.
    public let identity: RunIdentity
    /// The part's shard, or `nil` for a whole run.
    public let shard: Shard?
    /// The closing record, once `next()` has read it (and returned `nil`).
    public private(set) var closing: Matrix.ClosingRecord?
    /// The line of the closing record, once read.
    public private(set) var closingLine: Int?
    /// For a file read with `allowsPartial` that ended without its closing record, once
    /// `next()` has returned `nil`: the line it ended at, and the first input it does not
    /// account for (`nil` when every input has runs).
    public private(set) var unfinished: (lastLine: Int, firstUnaccounted: Int?)?

    /// The longest run line read (64 MiB). A run's line is bounded by what it can hold:
    /// - about 1.5 KB of metrics, reference, lifecycle seconds and keys, and the trace's name
    ///   (a path of at most 4,096 bytes, 6 bytes each when escaped): 64 KiB leaves the metrics
    ///   the next issues add twenty times the room today's take;
    /// - the engine's diagnostics, at most 64 messages of at most 1,024 bytes, 6 bytes each when
    ///   escaped, with their keys: about 400 KiB;
    /// - what grows with the trace: `deliveredTimes`, one time per delivered fix (at most 13
    ///   bytes: a year in seconds to the millisecond, and a comma; 6 bytes at 1 Hz over 11
    ///   hours), and the lifecycle and authorization timelines (measured under 0.6 bytes per
    ///   delivered fix on a 40,000-fix drive; 3 allowed).
    ///
    /// So 64 MiB holds the runs of traces of up to 4 million delivered fixes (46 days at 1 Hz,
    /// 4.6 days at 10 Hz); a run of a longer trace writes a longer line, which this cap must
    /// grow for. A 40,000-fix drive's longest run line is 230 KB.
    public static let maximumLineBytes = 64 << 20

    /// The longest header line read (256 MiB, the limit of a list of paths and of a `--format
    /// json` part). The header lists every input: its path (6 bytes a byte at worst when
    /// escaped) and at most 70 bytes of size, hash and keys, so 256 MiB holds a million inputs
    /// of 190-byte paths. Only a line that begins as the header is written
    /// (`{"kind":"tracesim-runs",`) may exceed `maximumLineBytes`.
    public static let maximumHeaderBytes = 256 << 20

    /// The longest closing record read, for a header of `headerBytes` listing `inputs` inputs:
    /// 64 KiB for its counts and keys, then at most every input listed once, each with its path
    /// as the header writes it (so all paths together fit in `headerBytes`), its number and keys
    /// (64 bytes), and a reason of at most `Matrix.ClosingRecord.maximumReasonBytes`. `matrix`
    /// writes reasons with their control characters already escaped, so JSON escapes only `"`
    /// and `\` in them: 2 bytes a byte at most. Never more than `maximumHeaderBytes`, which
    /// holds 120,000 inputs failed with the longest reasons, and keeps what a crafted header
    /// of many inputs can make a reader buffer to what a header may take. Only a line that
    /// begins as the closing record is written (`{"kind":"tracesim-runs-end",`) may exceed
    /// `maximumLineBytes`.
    public static func maximumClosingBytes(headerBytes: Int, inputs: Int) -> Int {
        let perInput = 2 * Matrix.ClosingRecord.maximumReasonBytes + 64
        // Both are bounded by the header's size, so the product cannot overflow.
        return min(64 << 10 + headerBytes + inputs * perInput, maximumHeaderBytes)
    }

    private static let headerPrefix = Array("{\"kind\":\"tracesim-runs\",".utf8)
    private static let closingPrefix = Array("{\"kind\":\"\(Matrix.ClosingRecord.kind)\",".utf8)

    private var reader: LineReader
    private var order: PartRunOrder
    private var accounting: InputAccounting
    private var runsRead = 0
    private let allowsPartial: Bool
    private let closingLimit: Int
    private var isFinished = false

    /// The bytes held to find lines in: about the longest line so far, and a chunk, whatever
    /// the number of lines read (what the memory tests watch).
    public var bufferBytes: Int { reader.bufferBytes }

    /// The bytes read from the file so far.
    var bytesRead: Int { reader.bytesRead }

    // MARK: Opening

    /// Opens `path` (`-` for standard input) and reads its header.
    /// - Parameters:
    ///   - path: the file's path, or `-` for standard input.
    ///   - allowsPartial: read a file that ends without its closing record to its end (see
    ///     `unfinished`) instead of refusing it.
    ///   - keepsOpen: hold the file open between reads; when false, a regular file is opened
    ///     again for each chunk, so that more files than the process may hold open are read
    ///     side by side.
    /// - Throws: `TraceFileError` when the file cannot be opened (exit 66), `ConfigError` when
    ///   its header is not a header (exit 65).
    public convenience init(path: String, allowsPartial: Bool = false, keepsOpen: Bool = true) throws {
        if path == TraceFile.standardInputPath {
            try self.init(
                source: .descriptor(STDIN_FILENO, closes: false), file: TraceFile.standardInputName,
                allowsPartial: allowsPartial)
            return
        }
        // Messages name the file as they quote any path: a walked or globbed name may hold
        // control characters.
        let file = VisibleText.quoted(path)
        guard !path.utf8.contains(0) else {
            throw TraceFileError(file: file, reason: "the path contains a NUL byte")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw TraceFileError(file: file, reason: String(cString: strerror(errno)))
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw TraceFileError(file: file, reason: reason)
        }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw TraceFileError(file: file, reason: "is a directory")
        }
        var source = LineReader.Source.descriptor(descriptor, closes: true)
        // Only a regular file reads the same when opened again.
        if !keepsOpen && (status.st_mode & S_IFMT) == S_IFREG {
            close(descriptor)
            source = .reopened(
                path: path, offset: 0, device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        }
        try self.init(source: source, file: file, allowsPartial: allowsPartial)
    }

    /// Reads `bytes` as the file `file`, in chunks as a file is read.
    /// - Throws: `ConfigError` when the header is not a header.
    public convenience init(
        bytes: [UInt8], file: String, maximumLineBytes: Int = RunLines.maximumLineBytes, allowsPartial: Bool = false
    ) throws(ConfigError) {
        do {
            try self.init(
                source: .bytes(bytes, position: 0), file: file, maximumLineBytes: maximumLineBytes,
                allowsPartial: allowsPartial)
        } catch let error as ConfigError {
            throw error
        } catch {
            throw ConfigError(file: file, message: "\(error)")
        }
    }

    private let maximumLineBytes: Int

    private init(
        source: LineReader.Source, file: String, maximumLineBytes: Int = RunLines.maximumLineBytes,
        allowsPartial: Bool
    ) throws {
        var reader = LineReader(source: source, file: file)
        do {
            let limit = LineReader.Limit(
                bytes: maximumLineBytes, extendedPrefix: Self.headerPrefix,
                extendedBytes: max(maximumLineBytes, Self.maximumHeaderBytes))
            guard var line = try reader.nextLine(limit) else {
                throw ConfigError(
                    file: file, kind: .syntax,
                    message: "empty: expected a header line and runs, as 'tracesim matrix --format jsonl' writes")
            }
            let headerBytes = line.count
            // A byte-order mark is not JSON, but editors add one.
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
            (schemaVersion, identity, shard) = try Self.header(Array(line), file: file)
            closingLimit = Self.maximumClosingBytes(headerBytes: headerBytes, inputs: identity.traces.count)
        } catch {
            reader.close()
            throw error
        }
        self.file = file
        self.reader = reader
        self.maximumLineBytes = maximumLineBytes
        self.allowsPartial = allowsPartial
        order = PartRunOrder(identity: identity, shard: shard)
        accounting = InputAccounting(paths: identity.traces.map(\.path), shard: shard)
    }

    deinit { reader.close() }

    /// The header line: `{"kind":"tracesim-runs","schemaVersion","identity","seed"[,"shard"]}`.
    private static func header(_ line: [UInt8], file: String) throws(ConfigError) -> (Int, RunIdentity, Shard?) {
        let root: JSONNode
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
        func whole(_ node: JSONNode, _ path: String, _ range: ClosedRange<Double>) throws(ConfigError) -> Int {
            let value = try reader.number(node, path, in: range)
            guard value == value.rounded() else { throw reader.fail(node, path, "expected a whole number") }
            return Int(value)
        }
        let versionNode = try reader.required(members, "schemaVersion", in: root, "$")
        let schemaVersion = try whole(versionNode, "$.schemaVersion", 1...1_000)
        if let refusal = Matrix.versionRefusal(schemaVersion) {
            throw reader.fail(versionNode, "$.schemaVersion", refusal)
        }
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
    /// the identity and shard say the next run is. `nil` after the last run, once the closing
    /// record is read and checked to account for every input the file holds, and nothing
    /// follows it (`closing`); or, with `allowsPartial`, at the end of a file without one
    /// (`unfinished`).
    /// - Throws: `ConfigError` naming the file and line: a line that is not one JSON object, a run
    ///   out of place, a last line cut short (no line break: a matrix that was stopped), the runs
    ///   ending mid-trace, a line over `maximumLineBytes`, a NUL byte, a closing record that
    ///   does not account for the inputs or is followed by more lines, and (unless
    ///   `allowsPartial`) no closing record.
    /// - Complexity: O(the line's length).
    public func next() throws(ConfigError) -> Run? {
        guard !isFinished else { return nil }
        let limit = LineReader.Limit(
            bytes: maximumLineBytes, extendedPrefix: Self.closingPrefix,
            extendedBytes: max(maximumLineBytes, closingLimit))
        guard let line = try reader.nextLine(limit) else {
            if let unfinished = order.unfinished {
                throw ConfigError(file: file, line: reader.lineNumber, message: unfinished.message)
            }
            isFinished = true
            guard allowsPartial else {
                throw ConfigError(file: file, message: Self.unfinishedMessage(self, line: reader.lineNumber))
            }
            unfinished = (reader.lineNumber, accounting.firstUnaccounted)
            return nil
        }
        let lineNumber = reader.lineNumber
        guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else {
            throw ConfigError(
                file: file, line: lineNumber, kind: .syntax,
                message: "an empty line: JSON Lines hold one run per line, and nothing between them")
        }
        switch try Self.names(Array(line), file: file, line: lineNumber) {
        case .run(let trace, let scenario):
            switch order.accept(trace: trace, scenario: scenario) {
            case .success(let input):
                defer { runsRead += 1 }
                accounting.record(input: input, trace: trace)
                return Run(
                    bytes: line, file: file, line: lineNumber, input: input,
                    scenarioIndex: runsRead % identity.scenarios.count)
            case .failure(let outOfPlace):
                throw ConfigError(file: file, line: lineNumber, path: "$", message: outOfPlace.message)
            }
        case .closing:
            try readClosing(Array(line), at: lineNumber)
            return nil
        }
    }

    /// Reads and checks the closing record at line `number`, then the end of the file.
    private func readClosing(_ line: [UInt8], at number: Int) throws(ConfigError) {
        if let unfinished = order.unfinished {
            throw ConfigError(
                file: file, line: number,
                message: unfinished.message.replacingOccurrences(
                    of: "the runs end", with: "the closing record comes"))
        }
        let root = try ConfigJSON.parse(line, file: file)
        let reader = ConfigReader(file: file)
        let record: Matrix.ClosingRecord
        do throws(ConfigError) {
            record = try Matrix.ClosingRecord(root, "$", reader, isLine: true)
        } catch {
            var located = error
            located.line = number
            throw located
        }
        if let mismatch = accounting.mismatch(with: record) {
            throw ConfigError(file: file, line: number, path: "$", message: "the closing record \(mismatch)")
        }
        isFinished = true
        closing = record
        closingLine = number
        if try self.reader.nextLine(LineReader.Limit(bytes: maximumLineBytes)) != nil {
            throw ConfigError(
                file: file, line: self.reader.lineNumber, path: "$",
                message: "a line after the closing record, which ends the runs (two files joined?)")
        }
    }

    /// Why a file that ended at line `line` without its closing record is refused, naming the
    /// first input it does not account for.
    static func unfinishedMessage(_ lines: RunLines, line: Int) -> String {
        let unaccounted =
            lines.accounting.firstUnaccounted.map { input in
                "input \(input + 1) '\(VisibleText.quoted(lines.identity.traces[input].path))' is the first it does not account for"
            } ?? "every input it holds has runs, but nothing says the last one's are all there"
        return "ends at line \(line) without the closing record that says its run finished (the run that wrote "
            + "it was stopped, or its engine failed): \(unaccounted). Run it again, or pass --allow-partial to read "
            + "what it holds"
    }

    /// What a line holds: a run, or a line with a `kind` (the closing record, or a header where
    /// none belongs).
    private enum LineContent {
        case run(trace: String, scenario: String)
        case closing
    }

    /// The run's `trace` and `scenario`, the line validated as JSON on the way (runs are copied
    /// as bytes, so a bad escape must be found here); or `.closing` for a line with a `kind`
    /// and no `trace`.
    private static func names(_ line: [UInt8], file: String, line number: Int) throws(ConfigError) -> LineContent {
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
        if layout.members.contains(where: { $0.key == "kind" })
            && !layout.members.contains(where: { $0.key == "trace" })
        {
            let kind = try string("kind")
            guard kind == Matrix.ClosingRecord.kind else {
                throw ConfigError(
                    file: file, line: number, path: "$.kind",
                    message: kind == jsonLinesKind
                        ? "a second header, where a run or the closing record belongs (two files joined?)"
                        : "expected a run, or the closing record ('\(Matrix.ClosingRecord.kind)'), not '\(kind)'")
            }
            return .closing
        }
        return .run(trace: try string("trace"), scenario: try string("scenario"))
    }
}
