import Foundation
import Reports
import Scenarios
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
            geofences it names with theirs), --seed, --fences (with its hash), --date,
            --input-format, --tracks, --assume-rate and --strict. Parts whose identities differ are refused, naming the first difference; a
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
        do throws(Matrix.MergeRefusal) {
            console.print(String(decoding: MatrixReport.json(try Matrix.merge(parts)), as: UTF8.self))
            return .success
        } catch {
            throw CommandFailure(.dataError, "error: \(error.message)")
        }
    }
}
