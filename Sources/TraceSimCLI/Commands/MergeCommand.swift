import Foundation
import Traces

/// `tracesim merge PART.json...`: joins `matrix --shard K/N --format json` parts into exactly
/// what the unsharded `matrix --format json` prints.
enum MergeCommand {
    static let name = "merge"

    static let help = """
        OVERVIEW: Join the JSON parts of a sharded matrix ('tracesim matrix ... --shard K/N --format
        json') into exactly the JSON one unsharded run prints.

        USAGE: tracesim merge <part> ...

        ARGUMENTS:
          <part>                  One file per shard, in any order; together they must be shards 1...N of
                                  the same matrix (same schema version, seed, shard count and run count).

        OPTIONS:
          -h, --help              Show this help.

        EXIT STATUS:
          0 merged; 64 usage error; 65 a part is invalid, missing a shard, or from another matrix;
          66 a part is missing or unreadable.
        """

    private struct Part {
        var file: String
        var header: ConfigJSONNode
        var schemaVersion: Double
        var seed: ConfigJSONNode
        var index: Int
        var count: Int
        var total: Int
        var positions: [Int]
        var runs: [ConfigJSONNode]
    }

    static func run(_ arguments: [String], console: Console) throws(UsageError) -> ExitCode {
        let parsed = try ArgumentSpec(valued: []).parse(arguments, command: name)
        if parsed.flag("help") {
            console.print(help)
            return .success
        }
        guard !parsed.positionals.isEmpty else { throw UsageError("merge needs the part files", command: name) }
        var parts: [Part] = []
        for path in parsed.positionals {
            switch ConfigFiles.load(path, console, part) {
            case .failed(let code): return code
            case .loaded(let loaded): parts.append(loaded)
            }
        }
        guard let first = parts.first else { return .failure }
        for part in parts.dropFirst()
        where part.schemaVersion != first.schemaVersion || part.seed.value != first.seed.value
            || part.count != first.count
            || part.total != first.total
        {
            console.warn("error: \(part.file): not a shard of the same matrix as \(first.file)")
            return .dataError
        }
        let indices = parts.map(\.index).sorted()
        guard indices == Array(1...first.count) else {
            let missing = Set(1...first.count).subtracting(indices).sorted().map(String.init).joined(separator: ", ")
            console.warn(
                "error: shards of \(first.count) needed once each; "
                    + (missing.isEmpty ? "one is given twice" : "missing: \(missing)"))
            return .dataError
        }
        var byPosition: [Int: ConfigJSONNode] = [:]
        for part in parts {
            for (position, run) in zip(part.positions, part.runs) { byPosition[position] = run }
        }
        guard byPosition.count == first.total, byPosition.keys.sorted() == Array(0..<first.total) else {
            console.warn(
                "error: the parts hold \(byPosition.count) distinct runs, not the \(first.total) their headers promise")
            return .dataError
        }
        let runs = (0..<first.total).compactMap { byPosition[$0].map(text) }
        console.print(
            JSONText.object([
                ("schemaVersion", .integer(Int(first.schemaVersion))), ("seed", text(first.seed)),
                ("runs", .array(runs)),
            ]).rendered)
        return .success
    }

    private static func part(_ bytes: [UInt8], file: String) throws(TraceFormatError) -> Part {
        let reader = ConfigReader(file: file)
        let root = try ConfigJSON.parse(bytes, file: file)
        let members = try reader.object(root, "$", allowed: ["schemaVersion", "seed", "shard", "runs"])
        let schemaVersion = try reader.number(
            try reader.required(members, "schemaVersion", in: root, "$"), "$.schemaVersion", in: 1...1_000)
        let seed = try reader.required(members, "seed", in: root, "$")
        let shardNode = try reader.required(members, "shard", in: root, "$")
        let shard = try reader.object(shardNode, "$.shard", allowed: ["index", "count", "runs", "positions"])
        func integer(_ key: String, _ range: ClosedRange<Double>) throws(TraceFormatError) -> Int {
            let value = try reader.number(
                try reader.required(shard, key, in: shardNode, "$.shard"), "$.shard.\(key)", in: range)
            guard value == value.rounded() else {
                throw reader.fail(shardNode, "$.shard.\(key)", "expected a whole number")
            }
            return Int(value)
        }
        let count = try integer("count", 1...1_000_000)
        let index = try integer("index", 1...Double(count))
        let total = try integer("runs", 0...1e9)
        var positions: [Int] = []
        let positionsNode = try reader.required(shard, "positions", in: shardNode, "$.shard")
        for (offset, node) in try reader.array(positionsNode, "$.shard.positions").enumerated() {
            let value = try reader.number(node, "$.shard.positions[\(offset)]", in: 0...Double(max(total - 1, 0)))
            positions.append(Int(value))
        }
        let runs = try reader.array(try reader.required(members, "runs", in: root, "$"), "$.runs")
        guard runs.count == positions.count else {
            throw reader.fail(root, "$.runs", "\(runs.count) runs but \(positions.count) positions")
        }
        return Part(
            file: file, header: root, schemaVersion: schemaVersion, seed: seed, index: index, count: count,
            total: total, positions: positions, runs: runs)
    }

    /// The same JSON, rendered the way the CLI renders it (key order kept).
    private static func text(_ node: ConfigJSONNode) -> JSONText { text(node.value) }

    private static func text(_ value: ConfigJSONValue) -> JSONText {
        switch value {
        case .object(let members): .object(members.map { ($0.key, text($0.value)) })
        case .array(let elements): .array(elements.map(text))
        case .string(let string): .string(string)
        case .number(let number): .number(number)
        case .bool(let flag): .bool(flag)
        case .null: .null
        }
    }
}
