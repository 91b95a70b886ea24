import Fleet
import Reports
import Scenarios
import SimulationCore
import Synchronization
import Traces

/// How `matrix` writes runs as they stream past: JSON and JSON Lines run by run, the tables
/// once every run is in, and for JSON Lines (and a JSON part) the closing record last. Loading
/// and rendering happen on the workers; `emit` and the rest on the command's thread, in input
/// order, so the output never depends on the number of jobs.
final class MatrixOutput: Sendable {
    private let format: ReportFormat
    private let console: Console
    private let table: Mutex<MatrixTable>
    private let runsWritten = Atomic<Int>(0)
    /// What loading each input said and became, until its runs are rendered.
    private let loaded = Mutex<[Int: Loaded]>([:])
    /// Every input emitted so far accounted for: the closing record being made.
    private let closing = Mutex(Matrix.ClosingRecord(inputs: 0, read: 0, traces: 0))
    /// The longest JSON line a run may be written as: what `merge` and `summarize` read back.
    private let maximumRunLineBytes: Int

    /// What loading an input said on standard error, and what became of it.
    private struct Loaded {
        var messages: String
        var outcome: Outcome
    }

    /// What became of an input: read into traces, skipped for holding no record, or failed.
    private enum Outcome {
        case read(traces: Int)
        case skipped(reason: String)
        case failed(reason: String, exitCode: ExitCode)
    }

    /// - Parameter maximumRunLineBytes: the longest run line written under `--format jsonl`
    ///   (`RunLines.maximumLineBytes`; lowered by tests).
    init(
        format: ReportFormat, scenarios: [String], console: Console,
        maximumRunLineBytes: Int = RunLines.maximumLineBytes
    ) {
        self.format = format
        self.console = console
        self.maximumRunLineBytes = maximumRunLineBytes
        table = Mutex(MatrixTable(scenarios: scenarios))
    }

    private var writesRuns: Bool { format == .json || format == .jsonl }

    /// Writes what comes before the runs: the JSON's head, or the JSON Lines' header line.
    func begin(identity: RunIdentity?, seed: UInt64?, shard: Shard?) {
        switch format {
        case .json: console.output(MatrixReport.jsonHead(identity: identity, seed: seed, shard: shard))
        case .jsonl:
            if let identity {
                console.output(MatrixReport.jsonLinesHeader(identity: identity, seed: seed, shard: shard) + "\n")
            }
        default: break
        }
    }

    /// The traces of input `index` (one, or one per track), reporting as `matrix` always has; its
    /// messages and outcome are kept for `emit`, so they appear in input order. An input with no
    /// record at all is noted and skipped; one that cannot be read or gives no timed fix fails.
    func load(_ index: Int, path: String, options: ImportOptions) -> [Matrix.NamedTrace] {
        let captured = Mutex("")
        var capturing = Console(output: { _ in }, error: { text in captured.withLock { $0 += text } })
        capturing.isQuiet = console.isQuiet
        var traces: [Matrix.NamedTrace] = []
        let outcome: Outcome
        do throws(CommandFailure) {
            if let trace = try TraceLoading.loadFleetInput(path, options: options, console: capturing) {
                for piece in TrackArguments.pieces(of: trace, path: path, options: options, console: capturing) {
                    traces.append(Matrix.NamedTrace(name: piece.name, trace: piece.trace))
                }
                outcome = .read(traces: traces.count)
            } else {
                let reason = Matrix.ClosingRecord.noRecordsReason
                capturing.warn("note: \(MessageText.path(path)): \(reason) (a header alone?); skipped")
                outcome = .skipped(reason: reason)
            }
        } catch {
            capturing.report(error)
            outcome = .failed(reason: Self.reason(error.message, path: path), exitCode: error.exitCode)
        }
        let messages = captured.withLock { $0 }
        loaded.withLock { $0[index] = Loaded(messages: messages, outcome: outcome) }
        return traces
    }

    /// An input's failure as the closing record gives its reason: the message without `error: `
    /// and the input's own name, which the record gives beside it (`x.csv:12:3: bad` gives
    /// `line 12:3: bad`). The name is found as messages quote it (escaped, and shortened when
    /// long) or as it is.
    static func reason(_ message: String, path: String) -> String {
        var reason = Substring(message)
        if reason.hasPrefix("error: ") { reason = reason.dropFirst(7) }
        for name in [MessageText.path(path), TraceFile.displayName(forPath: path)] {
            if reason.hasPrefix(name + ": ") { return String(reason.dropFirst(name.count + 2)) }
            if reason.hasPrefix(name + ":"), reason.dropFirst(name.count + 1).first?.isNumber == true {
                return "line " + reason.dropFirst(name.count + 1)
            }
        }
        return String(reason)
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
        case .json: .text(MatrixReport.jsonRun(cell, trace: trace))
        case .jsonl: .text(MatrixReport.jsonRun(cell, trace: trace) + "\n")
        default: .row(MatrixTable.Row(cell, trace: trace))
        }
    }

    /// Writes input `input.input`'s messages and runs and accounts for it as `identityInput` and
    /// `path` in the closing record; returns the exit code of the error that failed it.
    func emit(_ input: Matrix.InputOutputs<RenderedRun>, identityInput: Int, path: String) -> ExitCode? {
        var loaded =
            loaded.withLock { $0.removeValue(forKey: input.input) }
            ?? Loaded(messages: "", outcome: .failed(reason: "\(path): not loaded", exitCode: .dataError))
        var outputs = input.outputs
        if let tooLong = tooLongRunLine(outputs) {
            // Written, the line would make the whole file one that merge and summarize refuse;
            // left out, the input is failed and the closing record says why.
            let reason =
                "a run of it is \(tooLong) bytes as a JSON line, over the \(maximumRunLineBytes) bytes 'tracesim "
                + "merge' and 'summarize' read (a trace of over about 4 million delivered fixes): split the trace"
            loaded.messages += "error: \(MessageText.path(path)): \(reason)\n"
            loaded.outcome = .failed(reason: reason, exitCode: .dataError)
            outputs = []
        }
        if !loaded.messages.isEmpty { console.error(loaded.messages) }
        var failure: ExitCode?
        closing.withLock { record in
            record.inputs += 1
            switch loaded.outcome {
            case .read(let traces):
                record.read += 1
                record.traces += traces
            // Reasons escaped, so a reader can bound the record (`RunLines.maximumClosingBytes`).
            case .skipped(let reason):
                record.skipped.append(
                    Matrix.ClosingRecord.Entry(
                        input: identityInput, path: path, reason: VisibleText.escapingControls(reason)))
            case .failed(let reason, let exitCode):
                record.failed.append(
                    Matrix.ClosingRecord.Entry(
                        input: identityInput, path: path, reason: VisibleText.escapingControls(reason)))
                failure = exitCode
            }
        }
        var texts: [String] = []
        var rows: [MatrixTable.Row] = []
        for run in outputs {
            switch run {
            case .text(let text): texts.append(text)
            case .row(let row): rows.append(row)
            }
        }
        if !texts.isEmpty {
            let separator = format == .json ? "," : ""
            let lead = format == .json && runsWritten.load(ordering: .relaxed) > 0 ? "," : ""
            console.output(lead + texts.joined(separator: separator))
            runsWritten.add(texts.count, ordering: .relaxed)
        }
        if !rows.isEmpty {
            table.withLock { table in
                for row in rows { table.append(row) }
            }
        }
        return failure
    }

    /// The length of the first run line in `outputs` longer than `maximumRunLineBytes` (its
    /// newline aside), or `nil`: only JSON Lines are read back a line at a time.
    private func tooLongRunLine(_ outputs: [RenderedRun]) -> Int? {
        guard format == .jsonl else { return nil }
        for case .text(let line) in outputs where line.utf8.count - 1 > maximumRunLineBytes {
            return line.utf8.count - 1
        }
        return nil
    }

    /// Whether loading `input` said anything, so a progress bar can make room first.
    func hasMessages(_ input: Int) -> Bool {
        loaded.withLock { !($0[input]?.messages.isEmpty ?? true) }
    }

    /// The table rows collected so far (`matrix --bands` reports from them).
    var collectedTable: MatrixTable { table.withLock { $0 } }

    /// How many traces the inputs emitted so far gave.
    var traceCount: Int { closing.withLock { $0.traces } }

    /// Writes what comes after the runs: the JSON's tail (with the part's `end` for a part),
    /// the JSON Lines' closing record, or the tables. Called only when every input was emitted:
    /// a run that stops early writes no closing record, so what it wrote is never taken as whole.
    func end(perTrace: Bool, isPart: Bool) {
        let table = table.withLock { $0 }
        let record = closing.withLock { $0 }
        switch format {
        case .json: console.print(isPart ? MatrixReport.jsonPartTail(record) : MatrixReport.jsonTail)
        case .jsonl: console.print(MatrixReport.jsonLinesClosing(record))
        case .csv: console.print(MatrixReport.csv(table))
        case .markdown: console.print(MatrixReport.markdown(table, perTrace: perTrace))
        case .html: console.print(MatrixReport.html(table, perTrace: perTrace))
        default: if !table.traces.isEmpty { console.print(MatrixReport.text(table, perTrace: perTrace)) }
        }
    }
}
