import ConfigJSON
import Fleet
import Foundation
import Reports
import Scenarios
import Traces

/// `tracesim merge PART...`: joins `matrix --shard K/N` parts (all JSON or all JSON Lines) into
/// exactly what the unsharded `matrix` prints in that format.
enum MergeCommand: Command {
    static let declaration = CommandDeclaration(
        name: "merge",
        overview: """
            Join the parts of a sharded matrix ('tracesim matrix ... --shard K/N --format jsonl',
            or json) into exactly what one unsharded run prints in that format.
            """,
        positionals: [
            .init(
                label: "<part>",
                help: """
                    One file per shard, in any order; together they must be shards 1...N
                    (N at most \(Shard.maximumCount)) of the same matrix, each given once,
                    all JSON Lines or all JSON (told apart by their first bytes).
                    """, isRepeated: true)
        ],
        options: [
            SummarizeCommand.allowPartial(
                """
                Merge parts that are not whole: the runs they hold, and the closing
                record only when every part has one.
                """)
        ],
        discussion: """
            A shard is a slice of the input files: file i, from 0 in the order given, is in shard
            i mod N + 1, and only that part opens it. Every part opens with its run's identity: the
            TraceSim version, every input file in order with the size and FNV-1a 64 hash of those
            the part read, the scenarios in order (a scenario file and the geofences it names with
            theirs), --seed, --fences (with its hash), --date, --input-format, --tracks, --assume-rate
            and --strict. Parts whose identities differ are refused, naming the first difference; an
            input one of two parts did not read is compared by path only. Each run must be the
            trace and scenario its place stands for, from one of its part's own inputs.

            The contract: the output is byte for byte what the unsharded matrix prints. JSON Lines
            parts are read side by side, a line at a time, so memory does not grow with the runs;
            the header is the unsharded one (no "shard", each input hashed by the part that read
            it) and each run's line is copied as the part wrote it. JSON parts are read whole.
            Every JSON Lines part ends with a closing record accounting for each input it holds
            (read, skipped for holding no record, or failed), and every JSON part with an "end"
            that does the same; the output ends with the whole run's. A part without one (its
            matrix was stopped, or its engine failed), one whose last line has no line break, and
            one with an input that failed are refused, naming the part and the first input missing;
            the output then stops where the error was, without a closing record, so it is never
            taken as whole either. Parts written before closing records (schema version 2) are
            refused: run them again. More parts than the open-file limit allows are read by
            opening each again for every 64 KiB. 'tracesim summarize' prints the tables from the
            parts or from the merged file.
            """,
        exitStatus: """
            0 merged; 64 usage error; 65 a part is invalid (named FILE:LINE), cut short, without its
            closing record or with an input that failed, a shard is missing or given twice, parts come
            from different runs or are of both formats; 66 a part is missing or unreadable; 74 an
            output error.
            """)

    static func run(_ parsed: ParsedArguments, console: Console) throws -> ExitCode {
        guard !parsed.positionals.isEmpty else { throw UsageError("merge needs the part files", command: name) }
        let linesParts = parsed.positionals.filter(SummarizeCommand.isJSONLines)
        if !linesParts.isEmpty && linesParts.count < parsed.positionals.count {
            let json = parsed.positionals.first { !linesParts.contains($0) } ?? ""
            throw CommandFailure(
                .dataError,
                "error: \(linesParts[0]) is JSON Lines (--format jsonl) and \(json) is JSON (--format json): "
                    + "merge the parts of one run, written in one format")
        }
        let allowsPartial = parsed.flag("allow-partial")
        if !linesParts.isEmpty {
            return try mergeLines(parsed.positionals, allowsPartial: allowsPartial, console: console)
        }
        var parts: [MatrixPart] = []
        for path in parsed.positionals {
            parts.append(try ConfigFiles.load(path, console, MatrixPart.init))
        }
        do throws(Matrix.MergeRefusal) {
            let merged = try Matrix.merge(parts, allowsPartial: allowsPartial)
            SummarizeCommand.warn(merged.shortfalls, console: console)
            console.print(MatrixReport.json(merged))
            return .success
        } catch {
            throw CommandFailure(.dataError, "error: \(error.message)")
        }
    }

    /// Writes the unsharded JSON Lines from its parts as they are read: the header, each run's
    /// line as the part holds it, and the whole run's closing record once every part proved whole.
    private static func mergeLines(_ paths: [String], allowsPartial: Bool, console: Console) throws -> ExitCode {
        var merge = try SummarizeCommand.openRuns(paths, allowsPartial: allowsPartial)
        var pending = MatrixReport.jsonLinesHeader(identity: merge.identity, seed: merge.identity.seed, shard: nil)
        pending += "\n"
        do throws(ConfigError) {
            while let run = try merge.next() {
                pending += String(decoding: run.bytes, as: UTF8.self)
                pending += "\n"
                // Written in batches: a write per line costs more than the merge itself.
                if pending.utf8.count >= 1 << 20 {
                    console.output(pending)
                    pending = ""
                }
            }
        } catch {
            console.output(pending)
            throw CommandFailure(.dataError, "error: \(error)")
        }
        if let closing = merge.closing { pending += MatrixReport.jsonLinesClosing(closing) + "\n" }
        console.output(pending)
        SummarizeCommand.warn(merge.shortfalls, console: console)
        return .success
    }
}
