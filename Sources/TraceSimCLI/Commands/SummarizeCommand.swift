import ConfigJSON
import Fleet
import Reports
import Scenarios
import SimulationCore
import Traces

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `tracesim summarize RUNS.jsonl...`: the tables `matrix` prints, from the runs it saved as
/// JSON Lines, read as a stream.
enum SummarizeCommand: ReportingCommand {
    /// The formats `--format` takes.
    static let formats = ReportFormat.Option(
        [.text, .markdown, .csv, .html], value: "<format>",
        help: """
            text (default), markdown, csv or html: the same output as 'tracesim
            matrix --format <format>' of the same run, byte for byte.
            """)

    static let declaration = CommandDeclaration(
        name: "summarize",
        overview: """
            Print a matrix's tables from the runs it saved ('tracesim matrix ... --format jsonl'),
            exactly as the matrix would have printed them.
            """,
        positionals: [
            .init(
                label: "<runs.jsonl>",
                help: """
                    One whole run (unsharded, or joined by 'tracesim merge'), or every part of
                    one sharded run ('--shard K/N --format jsonl'), in any order: the parts
                    are merged as they are read. '-' reads standard input.
                    """, isRepeated: true)
        ],
        options: [
            formats.declared,
            .flag(
                "per-trace",
                help: """
                    After the pooled table (text, markdown, html), a table per trace with
                    that trace's runs alone.
                    """),
            allowPartial(
                "Print the tables of runs that are not whole, leaving out what is missing."),
        ],
        discussion: """
            The runs are read line by line and only each run's table row is kept, so a fleet's runs
            are summarised in little memory. Each line is checked: valid JSON, the trace and scenario
            its place stands for, every key the tables need. The scenario names come from the header's
            identity. Every file must end with its closing record, accounting for every input it
            holds, and no input may have failed: runs of a matrix that was stopped, whose engine
            failed, or that could not read an input are refused, naming the file and the first
            input missing (see --allow-partial). Inputs the run skipped for holding no record are
            named in a note on standard error, after the tables.

            Example:
              tracesim matrix fleet/ --format jsonl --shard 1/2 > part1.jsonl
              tracesim matrix fleet/ --format jsonl --shard 2/2 > part2.jsonl
              tracesim summarize part1.jsonl part2.jsonl --format markdown

            The lines are plain JSON for other tools too. Line 1 is the header (its "kind" is
            "tracesim-runs"); every other line is a run, and only runs have a "scenario". With DuckDB:
              duckdb -c "select scenario, sum(metrics.acceptedFixes) as accepted,
                sum(metrics.idealAcceptedFixes) as ideal from read_json_auto('runs.jsonl')
                where scenario is not null group by scenario order by scenario"
            """,
        exitStatus: """
            0 printed; 64 usage error; 65 a line is invalid (named FILE:LINE), the file was cut short or
            has no closing record, an input failed, a shard is missing or given twice, or parts come
            from different runs; 66 a file is missing or unreadable; 74 an output error.
            """)

    static func run(_ parsed: ParsedArguments, console: Console) throws -> ExitCode {
        guard !parsed.positionals.isEmpty else {
            throw UsageError("summarize needs the runs: a JSON Lines file, or the parts of one run", command: name)
        }
        let format = try formats.parse(parsed)
        let perTrace = parsed.flag("per-trace")
        if perTrace && format == .csv {
            throw UsageError(
                "--per-trace is for text, markdown and html; csv already has one row per run", command: name)
        }
        if parsed.positionals.filter({ $0 == TraceFile.standardInputPath }).count > 1 {
            throw UsageError("standard input ('-') can be read once only", command: name)
        }
        let allowsPartial = parsed.flag("allow-partial")
        var merge = try openRuns(parsed.positionals, allowsPartial: allowsPartial)
        var table = MatrixTable(scenarios: merge.identity.scenarios.map(\.name))
        do throws(ConfigError) {
            while let run = try merge.next() {
                table.append(
                    try MatrixTable.Row(
                        runJSON: run.bytes, scenarioIndex: run.scenarioIndex, file: run.file, line: run.line))
            }
        } catch {
            throw CommandFailure(.dataError, "error: \(error)")
        }
        warn(merge.shortfalls, console: console)
        // As 'matrix' ends its output.
        switch format {
        case .csv: console.print(MatrixReport.csv(table))
        case .markdown: console.print(MatrixReport.markdown(table, perTrace: perTrace))
        case .html: console.print(MatrixReport.html(table, perTrace: perTrace))
        default: if !table.traces.isEmpty { console.print(MatrixReport.text(table, perTrace: perTrace)) }
        }
        noteSkipped(merge.closing, hasTraces: !table.traces.isEmpty, console: console)
        return .success
    }

    /// The skipped inputs `matrix` noted as it read them, said again on standard error (the
    /// tables stay exactly `matrix`'s), and, for runs that hold no trace at all, that there was
    /// nothing to tabulate. A whole run of skipped inputs is still a whole run, read as it was
    /// written: it exits 0 here, and its `matrix` said 66 when it ran.
    static func noteSkipped(_ closing: Matrix.ClosingRecord?, hasTraces: Bool, console: Console) {
        var reasons: [String] = []
        var pathsByReason: [String: [String]] = [:]
        for entry in closing?.skipped ?? [] {
            if pathsByReason[entry.reason] == nil { reasons.append(entry.reason) }
            pathsByReason[entry.reason, default: []].append(MessageText.path(entry.path))
        }
        for reason in reasons {
            let paths = pathsByReason[reason] ?? []
            let listed = paths.prefix(maximumListedPaths).joined(separator: ", ")
            let more = paths.count > maximumListedPaths ? " and \(paths.count - maximumListedPaths) more" : ""
            console.warn(
                "note: \(paths.count) input\(paths.count == 1 ? "" : "s") skipped: "
                    + "\(VisibleText.escapingControls(reason)) (\(listed)\(more))")
        }
        if !hasTraces {
            console.warn("note: the runs hold no trace, so there is nothing to tabulate")
        }
    }

    /// Skipped inputs named in a note; the rest are counted.
    static let maximumListedPaths = 10

    /// `--allow-partial`, as `merge` and `summarize` declare it.
    static func allowPartial(_ what: String) -> CommandDeclaration.Option {
        .flag(
            "allow-partial",
            help: what + """

                A file without its closing record (its run was stopped, or its engine
                failed) or with an input that failed is otherwise refused. Every use
                warns on standard error, naming each file and input missing.
                """)
    }

    /// Says what the runs read leave out, after `--allow-partial`: at most 20 lines, then a count.
    static func warn(_ shortfalls: [String], console: Console) {
        for shortfall in shortfalls.prefix(20) { console.warn("warning: --allow-partial: \(shortfall)") }
        if shortfalls.count > 20 {
            console.warn("warning: --allow-partial: and \(shortfalls.count - 20) more inputs or files missing")
        }
    }

    /// Opens JSON Lines runs (`-` is standard input) and checks they are one whole run or the
    /// parts of one: what `summarize` and `merge` read. More parts than the process may hold
    /// open are opened again for each chunk read.
    /// - Throws: `CommandFailure`: 66 for a file that cannot be opened, 65 for a bad header or
    ///   parts that do not go together.
    static func openRuns(_ paths: [String], allowsPartial: Bool) throws(CommandFailure) -> Matrix.LinesMerge {
        var parts: [RunLines] = []
        let keepsOpen = RunLines.canHoldOpen(parts: paths.count)
        for path in paths {
            do {
                parts.append(try RunLines(path: path, allowsPartial: allowsPartial, keepsOpen: keepsOpen))
            } catch let error as TraceFileError {
                throw CommandFailure(.noInput, "error: \(error)")
            } catch {
                throw CommandFailure(.dataError, "error: \(error)")
            }
        }
        do throws(Matrix.MergeRefusal) {
            return try Matrix.LinesMerge(parts, allowsPartial: allowsPartial)
        } catch {
            throw CommandFailure(.dataError, "error: \(error.message)")
        }
    }

    /// Whether the file at `path` holds JSON Lines runs (its first value opens with `"kind"`)
    /// rather than a matrix JSON: read from its first bytes, so neither is read twice.
    /// Standard input and files that cannot be read count as JSON Lines, whose reader says why.
    static func isJSONLines(_ path: String) -> Bool {
        guard path != TraceFile.standardInputPath, !path.utf8.contains(0) else { return true }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return true }
        defer { close(descriptor) }
        var head = [UInt8](repeating: 0, count: 256)
        let count = head.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return true }
        var bytes = head[0..<count]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        bytes = bytes.drop(while: isSpace)
        guard bytes.first == UInt8(ascii: "{") else { return true }
        return bytes.dropFirst().drop(while: isSpace).starts(with: Array("\"kind\"".utf8))
    }
}
