import Foundation
import Traces

/// `tracesim merge PART.json...`: joins `matrix --shard K/N --format json` parts into exactly
/// what the unsharded `matrix --format json` prints.
enum MergeCommand: Command {
    static let declaration = CommandDeclaration(
        name: "merge",
        overview: """
            Join the JSON parts of a sharded matrix ('tracesim matrix ... --shard K/N --format
            json') into exactly the JSON one unsharded run prints.
            """,
        positionals: [
            .init(
                label: "<part>",
                help: """
                    One file per shard, in any order; together they must be shards 1...N
                    (N at most \(Shard.maximumCount)) of the same matrix, each given once.
                    """, isRepeated: true)
        ],
        discussion: """
            Every part opens with its run's identity: the TraceSim version, the traces in order with
            each one's size and FNV-1a 64 hash, the scenarios in order (a scenario file and the
            geofences it names with theirs), --seed, --fences (with its hash), --date and
            --input-format. Parts whose identities differ are refused, naming the first difference; a
            trace a part did not read carries no size or hash there, and is compared by path only.
            Each run must be the trace and scenario its position stands for. The runs are copied byte
            for byte, so the result is exactly the unsharded output.
            """,
        exitStatus: """
            0 merged; 64 usage error; 65 a part is invalid, a shard is missing or given twice, or parts
            come from different runs; 66 a part is missing or unreadable.
            """)

    static func run(_ parsed: ParsedArguments, console: Console) throws -> ExitCode {
        guard !parsed.positionals.isEmpty else { throw UsageError("merge needs the part files", command: name) }
        var parts: [MatrixPart] = []
        for path in parsed.positionals {
            parts.append(try ConfigFiles.load(path, console, MatrixPart.init))
        }
        switch merged(parts) {
        case .success(let bytes):
            console.print(String(decoding: bytes, as: UTF8.self))
            return .success
        case .failure(let refusal):
            throw CommandFailure(.dataError, "error: \(refusal.message)")
        }
    }

    /// Why parts cannot be merged.
    struct Refusal: Error {
        var message: String
    }

    /// The unsharded matrix JSON the parts add up to (without its final newline).
    /// - Complexity: O(total bytes of the parts + runs).
    static func merged(_ parts: [MatrixPart]) -> Result<[UInt8], Refusal> {
        guard let first = parts.first else { return .failure(Refusal(message: "no parts")) }
        for part in parts.dropFirst() {
            if let difference = part.identity.difference(from: first.identity) {
                return .failure(
                    Refusal(message: "\(part.file): not a shard of the same matrix as \(first.file): \(difference)"))
            }
            if part.schemaVersion != first.schemaVersion {
                return .failure(
                    Refusal(
                        message: "\(part.file): not a shard of the same matrix as \(first.file): schema version "
                            + "\(part.schemaVersion) here and \(first.schemaVersion) there"))
            }
            if part.count != first.count {
                return .failure(
                    Refusal(
                        message: "\(part.file): shard \(part.index) of \(part.count), but \(first.file) is shard "
                            + "\(first.index) of \(first.count)"))
            }
        }
        // Which file gave each shard: a second file for the same shard is named with the first.
        var given = [Int](repeating: -1, count: first.count + 1)
        for (number, part) in parts.enumerated() {
            if given[part.index] >= 0 {
                return .failure(
                    Refusal(
                        message: "shard \(part.index) given twice: \(parts[given[part.index]].file) and \(part.file)"))
            }
            given[part.index] = number
        }
        let missing = (1...first.count).filter { given[$0] < 0 }
        guard missing.isEmpty else {
            let listed = missing.prefix(20).map(String.init).joined(separator: ", ")
            return .failure(
                Refusal(
                    message: "shards of \(first.count) are needed once each; missing: \(listed)"
                        + (missing.count > 20 ? " and \(missing.count - 20) more" : "")))
        }
        // Positions are checked in range and increasing within a part, so the runs' count bounds
        // the table below however large a part claims the matrix is.
        let held = parts.reduce(0) { $0 + $1.positions.count }
        guard held == first.total else {
            return .failure(
                Refusal(message: "the parts hold \(held) runs, not the \(first.total) their identity promises"))
        }
        var owner = [Int](repeating: -1, count: first.total)
        var slot = [Int](repeating: -1, count: first.total)
        for (number, part) in parts.enumerated() {
            for (offset, position) in part.positions.enumerated() {
                guard owner[position] < 0 else {
                    return .failure(
                        Refusal(
                            message: "run \(position + 1) is in both \(parts[owner[position]].file) and \(part.file)"
                        ))
                }
                owner[position] = number
                slot[position] = offset
            }
        }
        var output: [UInt8] = []
        output.reserveCapacity(parts.reduce(64) { $0 + $1.runBytes })
        output += Array("{\"schemaVersion\":\(first.schemaVersion),\"seed\":".utf8)
        output += Array(MatrixCommand.seedJSON(first.identity.seed).rendered.utf8)
        output += Array(",\"runs\":[".utf8)
        for position in 0..<first.total {
            let part = parts[owner[position]]
            if position > 0 { output.append(UInt8(ascii: ",")) }
            output += part.bytes[part.runs[slot[position]]]
        }
        output += Array("]}".utf8)
        return .success(output)
    }
}
