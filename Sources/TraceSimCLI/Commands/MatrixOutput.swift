import Reports
import Scenarios
import Synchronization
import Traces

/// How `matrix` writes runs as they stream past: JSON and JSON Lines run by run, the tables
/// once every run is in. Loading and rendering happen on the workers; `emit` and the rest on
/// the command's thread, in input order, so the output never depends on the number of jobs.
final class MatrixOutput: Sendable {
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

    /// One run as the format writes it (a JSON object, a JSON line, or a table row), made on a
    /// worker so the run can be let go at once.
    enum RenderedRun: Sendable {
        case text(String)
        case row(MatrixTable.Row)
    }

    /// One run as the format writes it.
    func render(_ cell: Matrix.Cell, trace: String) -> RenderedRun {
        switch format {
        case "json": .text(MatrixReport.jsonRun(cell, trace: trace))
        case "jsonl": .text(MatrixReport.jsonRun(cell, trace: trace) + "\n")
        default: .row(MatrixTable.Row(cell, trace: trace))
        }
    }

    /// Writes an input's messages and runs; returns the exit code of the error that skipped it.
    func emit(_ input: Matrix.InputOutputs<RenderedRun>) -> ExitCode? {
        let loaded = loadMessages.withLock { $0.removeValue(forKey: input.input) } ?? (messages: "", failure: nil)
        if !loaded.messages.isEmpty { console.error(loaded.messages) }
        var texts: [String] = []
        var rows: [MatrixTable.Row] = []
        for run in input.outputs {
            switch run {
            case .text(let text): texts.append(text)
            case .row(let row): rows.append(row)
            }
        }
        if !texts.isEmpty {
            let separator = format == "json" ? "," : ""
            let lead = format == "json" && runsWritten.load(ordering: .relaxed) > 0 ? "," : ""
            console.output(lead + texts.joined(separator: separator))
            runsWritten.add(texts.count, ordering: .relaxed)
        }
        if !rows.isEmpty {
            table.withLock { table in
                for row in rows { table.append(row) }
            }
        }
        return loaded.failure
    }

    /// Whether loading `input` said anything, so a progress bar can make room first.
    func hasMessages(_ input: Int) -> Bool {
        loadMessages.withLock { !($0[input]?.messages.isEmpty ?? true) }
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
