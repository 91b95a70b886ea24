import ConfigJSON
import SimulationCore
import Traces

/// One part of a sharded matrix (the JSON `matrix --shard K/N --format json` writes), read for
/// `Matrix.merge`: its header and `end` parsed and checked, its runs located but left as bytes
/// to be copied.
public struct MatrixPart: Sendable {
    /// The file the part was read from, as errors and refusals name it.
    public var file: String
    /// The whole file; `runs` are ranges of it.
    var bytes: [UInt8]
    /// The part's `schemaVersion`: parts of different versions are never joined.
    public var schemaVersion: Int
    /// What identifies the whole run the part belongs to.
    public var identity: RunIdentity
    /// 1-based shard number.
    public var index: Int
    /// The number of shards.
    public var count: Int
    /// The input (index in the identity's traces) each run comes from, never decreasing.
    public var inputs: [Int]
    /// The part's `end`: every input it holds accounted for, checked against its runs.
    public var closing: Matrix.ClosingRecord
    /// Each run's bytes, in order.
    var runs: [Range<Int>]

    /// The bytes the runs take, for sizing the merged output.
    var runBytes: Int { runs.reduce(runs.count) { $0 + $1.count } }

    /// Reads and checks a part, `bytes` read from `file`.
    /// - Throws: `ConfigError` with the file, line, column and JSON path of the first problem.
    /// - Complexity: O(n) in the file's size: runs are validated and located, never parsed into values.
    public init(_ bytes: [UInt8], _ file: String) throws(ConfigError) {
        // Named as messages quote any path: a globbed name may hold control characters.
        let file = VisibleText.quoted(file)
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw ConfigError(file: file, path: "$", kind: .syntax, message: "invalid JSON: not UTF-8 text")
        }
        let layout: JSONLayout
        do {
            layout = try JSONLayout.read(bytes, file: file, splitting: "runs", strings: ["trace", "scenario"])
        } catch {
            throw ConfigError(syntax: error)
        }
        // The header is parsed from a copy with the runs blanked out, byte for byte (line breaks
        // kept), so every line and column stays where it was and no run becomes a value.
        var header = bytes
        if let runs = layout.members.first(where: { $0.key == "runs" })?.value, !runs.isEmpty {
            header.withUnsafeMutableBufferPointer { buffer in
                for offset in runs where buffer[offset] != UInt8(ascii: "\n") && buffer[offset] != UInt8(ascii: "\r") {
                    buffer[offset] = UInt8(ascii: " ")
                }
                buffer[runs.lowerBound] = UInt8(ascii: "0")
            }
        }
        let reader = ConfigReader(file: file)
        let root = try ConfigJSON.parse(header, file: file)
        let members = try reader.object(
            root, "$", allowed: ["schemaVersion", "identity", "seed", "shard", "runs", "end"])
        guard let identityNode = members["identity"] else {
            throw reader.fail(
                root, "$",
                "no 'identity': not a part written by 'tracesim matrix --shard' of this version; write the parts again")
        }
        func whole(_ node: JSONNode, _ path: String, _ range: ClosedRange<Double>) throws(ConfigError) -> Int {
            let value = try reader.number(node, path, in: range)
            guard value == value.rounded() else { throw reader.fail(node, path, "expected a whole number") }
            return Int(value)
        }
        let versionNode = try reader.required(members, "schemaVersion", in: root, "$")
        schemaVersion = try whole(versionNode, "$.schemaVersion", 1...1_000)
        if let refusal = Matrix.versionRefusal(schemaVersion) {
            throw reader.fail(versionNode, "$.schemaVersion", refusal)
        }
        identity = try RunIdentity(identityNode, "$.identity", reader)
        let seedNode = try reader.required(members, "seed", in: root, "$")
        let seedText = layout.members.first { $0.key == "seed" }.map {
            String(decoding: bytes[$0.value], as: UTF8.self)
        }
        guard seedText == Matrix.seedText(identity.seed) else {
            throw reader.fail(seedNode, "$.seed", "does not match $.identity.seed")
        }
        let shardNode = try reader.required(members, "shard", in: root, "$")
        let shard = try reader.object(shardNode, "$.shard", allowed: ["index", "count"])
        func integer(_ key: String, _ range: ClosedRange<Double>) throws(ConfigError) -> Int {
            try whole(try reader.required(shard, key, in: shardNode, "$.shard"), "$.shard.\(key)", range)
        }
        count = try integer("count", 1...Double(Shard.maximumCount))
        index = try integer("index", 1...Double(count))
        // Each run must come from one of this shard's inputs, in the order given, with every
        // scenario in order.
        var order = PartRunOrder(identity: identity, shard: Shard(index: index, count: count))
        var accounting = InputAccounting(paths: identity.traces.map(\.path), shard: Shard(index: index, count: count))
        inputs = []
        inputs.reserveCapacity(layout.elements.count)
        for (offset, element) in layout.elements.enumerated() {
            let checked =
                element.strings[0].flatMap { trace in
                    element.strings[1].map { order.accept(trace: trace, scenario: $0) }
                }
                ?? .failure(PartRunOrder.OutOfPlace("a run needs 'trace' and 'scenario' strings"))
            switch checked {
            case .success(let input):
                inputs.append(input)
                accounting.record(input: input, trace: element.strings[0] ?? "")
            case .failure(let outOfPlace):
                let (line, column) = Self.location(of: element.range.lowerBound, in: bytes)
                throw ConfigError(
                    file: file, line: line, column: column, path: "$.runs[\(offset)]", message: outOfPlace.message)
            }
        }
        if let unfinished = order.unfinished {
            throw reader.fail(root, "$.runs", unfinished.message)
        }
        let endNode = try reader.required(members, "end", in: root, "$")
        closing = try Matrix.ClosingRecord(endNode, "$.end", reader, isLine: false)
        if let mismatch = accounting.mismatch(with: closing) {
            throw reader.fail(endNode, "$.end", "the part's end \(mismatch)")
        }
        runs = layout.elements.map(\.range)
        self.file = file
        self.bytes = bytes
    }

    /// 1-based line and column of `offset`, counted only when an error needs them.
    private static func location(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for index in 0..<min(offset, bytes.count) where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        return (line, offset - lineStart + 1)
    }
}
