import Reports
import SimulationCore
import Traces

/// `tracesim inspect TRACE... [--format text|json]`: what each file holds and what the
/// importer skipped, merged or sorted on the way.
enum InspectCommand: ReportingCommand {
    /// The formats `--format` takes.
    static let formats = ReportFormat.Option(
        [.text, .json, .table],
        help: """
            text (default): a block per file for people; table: one row per
            file; json: one object per file per line, with the keys documented
            in the README.
            """)

    static let declaration = CommandDeclaration(
        name: "inspect",
        overview: """
            Report what each trace file holds: format, fixes, time span, sampling,
            fields, accuracy kind, and what the importer skipped, merged or re-sorted.
            """,
        positionals: [
            .init(
                label: "<trace>",
                help: """
                    Trace files. The format is detected from the content: GPX 1.0/1.1,
                    NMEA 0183 (also gpsd logs and GnssLogger-wrapped), Android GnssLogger
                    CSV, iOS CLLocation JSON, Garmin TCX, KML gx:Track, Google Takeout
                    location history, Columbus CSV, 70mai logs, TraceSim CSV and JSON Lines.
                    \(StandardInputArguments.helpLines)
                    """, isRepeated: true)
        ],
        options: [
            formats.declared
        ] + ImportArguments.declared,
        exitStatus: """
            0 every file was read; 64 usage error; 65 a file's content is invalid; 66 a file is
            missing or unreadable. Other files are still reported when one fails.
            """)

    static func run(_ parsed: ParsedArguments, console: Console) throws -> ExitCode {
        let format = try formats.parse(parsed)
        guard !parsed.positionals.isEmpty else {
            throw UsageError("inspect needs at least one trace file", command: name)
        }
        try StandardInputArguments.checkReadOnce(parsed.positionals, command: name)
        let options = try ImportArguments.options(from: parsed, command: name)

        var exitCode = ExitCode.success
        var rows: [InspectReport.Row] = []
        for (index, path) in parsed.positionals.enumerated() {
            // Every file is reported: a failure is printed, and the first one's code kept.
            switch Result(catching: { () throws(CommandFailure) in
                try TraceLoading.load(path, options: options, console: console, notesUntimedRuns: false)
            }) {
            case .failure(let failure):
                console.report(failure)
                if exitCode == .success { exitCode = failure.exitCode }
            case .success(let trace):
                // Under --tracks each, a block per track, named FILE#N.
                for (piece, (name, part)) in TrackArguments.pieces(
                    of: trace, path: path, options: options, console: console
                ).enumerated() {
                    let summary = TraceSummary(part)
                    switch format {
                    case .json:
                        console.print(InspectReport.json(file: name, summary: summary))
                    case .table:
                        rows.append(InspectReport.Row(file: name, summary: summary))
                    default:
                        if index > 0 || piece > 0 { console.print("") }
                        console.print(InspectReport.text(file: name, summary: summary, options: options))
                    }
                }
            }
        }
        if format == .table && !rows.isEmpty { console.print(InspectReport.table(rows)) }
        return exitCode
    }
}
