import Reports
import SimulationCore
import Traces

/// `tracesim inspect TRACE... [--format text|json]`: what each file holds and what the
/// importer skipped, merged or sorted on the way.
enum InspectCommand {
    static let name = "inspect"

    static let help = """
        OVERVIEW: Report what each trace file holds: format, fixes, time span, sampling,
        fields, accuracy kind, and what the importer skipped, merged or re-sorted.

        USAGE: tracesim inspect <trace> ... [--format text|json|table] [--date <YYYY-MM-DD>]
                                [--input-format <name>] [--tracks time|file|each] [--assume-rate <HZ>] [--strict]

        ARGUMENTS:
          <trace>                 Trace files. The format is detected from the content: GPX 1.0/1.1,
                                  NMEA 0183 (also gpsd logs and GnssLogger-wrapped), Android GnssLogger
                                  CSV, iOS CLLocation JSON, Garmin TCX, KML gx:Track, Google Takeout
                                  location history, Columbus CSV, 70mai logs, TraceSim CSV and JSON Lines.
                                  `-` reads standard input (once per command line). gzip input,
                                  from a file or standard input, is inflated as it is read.

        OPTIONS:
          --format <text|json|table>
                                  text (default): a block per file for people; table: one row per
                                  file; json: one object per file per line, with the keys documented
                                  in the README.
        \(ImportArguments.helpLines)
          -h, --help              Show this help.

        EXIT STATUS:
          0 every file was read; 64 usage error; 65 a file's content is invalid; 66 a file is
          missing or unreadable. Other files are still reported when one fails.
        """

    static func run(_ arguments: [String], console: Console) throws(UsageError) -> ExitCode {
        let spec = ArgumentSpec(valued: ImportArguments.optionNames.union(["format"]), flags: ImportArguments.flagNames)
        let parsed = try spec.parse(arguments, command: name)
        if parsed.flag("help") {
            console.print(help)
            return .success
        }
        let format = parsed.value("format") ?? "text"
        guard ["text", "json", "table"].contains(format) else {
            throw UsageError("--format must be text, json or table, not '\(format)'", command: name)
        }
        guard !parsed.positionals.isEmpty else {
            throw UsageError("inspect needs at least one trace file", command: name)
        }
        try StandardInputArguments.checkReadOnce(parsed.positionals, command: name)
        let options = try ImportArguments.options(from: parsed, command: name)

        var exitCode = ExitCode.success
        var rows: [(file: String, summary: TraceSummary)] = []
        for (index, path) in parsed.positionals.enumerated() {
            switch TraceLoading.load(path, options: options, console: console, notesUntimedRuns: false) {
            case .failed(let code):
                if exitCode == .success { exitCode = code }
            case .loaded(let trace):
                // Under --tracks each, a block per track, named FILE#N.
                for (piece, (name, part)) in TrackArguments.pieces(
                    of: trace, path: path, options: options, console: console
                ).enumerated() {
                    let summary = TraceSummary(part)
                    switch format {
                    case "json":
                        console.print(InspectReport.json(file: name, summary: summary).rendered)
                    case "table":
                        rows.append((name, summary))
                    default:
                        if index > 0 || piece > 0 { console.print("") }
                        console.print(InspectReport.text(file: name, summary: summary, options: options))
                    }
                }
            }
        }
        if format == "table" && !rows.isEmpty { console.print(InspectReport.table(rows)) }
        return exitCode
    }
}
