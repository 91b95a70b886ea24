import Reports
import Scenarios
import Synchronization
import Traces

/// How `matrix` writes runs as they stream past: JSON and JSON Lines run by run, the tables
/// once every run is in. Loading and rendering happen on the workers; `emit` and the rest on
/// the command's thread, in input order, so the output never depends on the number of jobs.
final class MatrixOutput: Sendable {
    /// One input, ready to be written.
    struct Rendered: Sendable {
        /// What loading the input said on standard error (notes, warnings, the error that
        /// skipped it), written in input order.
        var messages: String
        /// The exit code of the error that skipped the input, if one did.
        var failure: ExitCode?
        /// The input's runs as JSON objects or lines (json, jsonl).
        var runs: String
        /// How many runs `runs` holds.
        var runCount: Int
        /// The input's rows for the tables (text, markdown, csv, html).
        var rows: [MatrixTable.Row]
    }

    private let format: String
    private let console: Console
    private let table: Mutex<MatrixTable>
    private let runsWritten = Atomic<Int>(0)
    /// What loading each input said, until its runs are rendered.
    private let loadMessages = Mutex<[Int: (messages: String, failure: ExitCode?)]>([:])

    init(format: String, scenarios: [String], console: Console) {
        self.format = format
        self.console = console
        table = Mutex(MatrixTable(scenarios: scenarios))
    }

    private var writesRuns: Bool { format == "json" || format == "jsonl" }

    /// Writes what comes before the runs: the JSON's head, or the JSON Lines' header line.
    func begin(identity: RunIdentity?, seed: UInt64?, shard: Shard?) {
        switch format {
        case "json": console.output(MatrixReport.jsonHead(identity: identity, seed: seed, shard: shard))
        case "jsonl":
            if let identity {
                console.output(MatrixReport.jsonLinesHeader(identity: identity, seed: seed, shard: shard) + "\n")
            }
        default: break
        }
    }

    /// The traces of input `index` (one, or one per track), reporting as `matrix` always has; its
    /// messages are kept for `render`, so they appear in input order.
    func load(_ index: Int, path: String, options: ImportOptions) -> [Matrix.NamedTrace] {
        let captured = Mutex("")
        var capturing = Console(output: { _ in }, error: { text in captured.withLock { $0 += text } })
        capturing.isQuiet = console.isQuiet
        var traces: [Matrix.NamedTrace] = []
        var failure: ExitCode?
        do throws(CommandFailure) {
            let trace = try TraceLoading.loadReplayable(path, options: options, console: capturing)
            for piece in TrackArguments.pieces(of: trace, path: path, options: options, console: capturing) {
                traces.append(Matrix.NamedTrace(name: piece.name, trace: piece.trace))
            }
        } catch {
            capturing.report(error)
            failure = error.exitCode
        }
        let messages = captured.withLock { $0 }
        loadMessages.withLock { $0[index] = (messages, failure) }
        return traces
    }

    /// An input's runs as the format writes them; the runs themselves are let go after this.
    func render(_ input: Matrix.InputRuns) -> Rendered {
        let loaded = loadMessages.withLock { $0.removeValue(forKey: input.input) } ?? (messages: "", failure: nil)
        var rendered = Rendered(
            messages: loaded.messages, failure: loaded.failure, runs: "", runCount: input.cells.count, rows: [])
        switch format {
        case "json":
            rendered.runs = input.cells.map { MatrixReport.jsonRun($0, trace: input.traceNames[$0.traceIndex]) }
                .joined(separator: ",")
        case "jsonl":
            rendered.runs = input.cells.map { MatrixReport.jsonRun($0, trace: input.traceNames[$0.traceIndex]) + "\n" }
                .joined()
        default:
            rendered.rows = input.cells.map { MatrixTable.Row($0, trace: input.traceNames[$0.traceIndex]) }
        }
        return rendered
    }

    /// Writes an input's messages and runs; returns the exit code of the error that skipped it.
    func emit(_ rendered: Rendered) -> ExitCode? {
        if !rendered.messages.isEmpty { console.error(rendered.messages) }
        if writesRuns, rendered.runCount > 0 {
            let separator = format == "json" && runsWritten.load(ordering: .relaxed) > 0 ? "," : ""
            console.output(separator + rendered.runs)
            runsWritten.add(rendered.runCount, ordering: .relaxed)
        } else if !rendered.rows.isEmpty {
            table.withLock { table in
                for row in rendered.rows { table.append(row) }
            }
        }
        return rendered.failure
    }

    /// Writes what comes after the runs: the JSON's tail, or the tables.
    func end(perTrace: Bool) {
        let table = table.withLock { $0 }
        switch format {
        case "json": console.print(MatrixReport.jsonTail)
        case "jsonl": break
        case "csv": console.print(MatrixReport.csv(table))
        case "markdown": console.print(MatrixReport.markdown(table, perTrace: perTrace))
        case "html": console.print(MatrixReport.html(table, perTrace: perTrace))
        default: if !table.traces.isEmpty { console.print(MatrixReport.text(table, perTrace: perTrace)) }
        }
    }
}
