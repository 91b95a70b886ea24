import Foundation
import Traces

/// `tracesim convert IN OUT`: rewrite a trace in a TraceSim format chosen by OUT's extension.
enum ConvertCommand: Command {
    static let declaration = CommandDeclaration(
        name: "convert",
        overview: """
            Convert a trace to TraceSim's canonical CSV, JSON Lines or GPX 1.1. Every field of
            every fix survives the trip: re-importing the output gives the same fixes, bit for bit.
            """,
        positionals: [
            .init(
                label: "<input>",
                help: "A trace in any format `tracesim inspect` reads.\n" + StandardInputArguments.helpLines),
            .init(
                label: "<output>",
                help: """
                    The file to write; its extension picks the format:
                    .csv (TraceSim CSV), .jsonl (JSON Lines, also motion samples),
                    .gpx (GPX 1.1). An existing file is replaced whole, never left
                    partial; it must not be the input.
                    A trace of several tracks or segments (GPX, TCX, KML) gets a last
                    `segment` column or key, TRACK.SEGMENT like 2.1, in .csv and
                    .jsonl, and one <trk> per track, <trkseg> per segment, in .gpx;
                    each reads back as the same segments. --tracks each does not
                    apply: one output file holds one trace.
                    """),
        ],
        options: ImportArguments.declared,
        quietHelp: """
            Print neither the one-line summary nor notes on standard error.
            Warnings (what the output lost or merged) and errors are still printed.
            """,
        exitStatus: """
            0 written; 64 usage error; 65 the input's content is invalid or holds no fixes; 66 the
            input is missing or unreadable; 73 the output cannot be written; 74 writing it failed
            part-way (a full disk); the output is then as it was.
            """)

    static func run(_ parsed: ParsedArguments, console: Console) throws -> ExitCode {
        guard parsed.positionals.count == 2 else {
            throw UsageError(
                "convert needs an input and an output file, got \(parsed.positionals.count) arguments",
                command: name)
        }
        let input = parsed.positionals[0]
        if parsed.positionals[1] == TraceFile.standardInputPath {
            throw UsageError("convert writes a file: '-' (standard input) can only be the input", command: name)
        }
        let output = parsed.positionals[1]
        guard let format = ExportFormat(path: output) else {
            throw UsageError("cannot tell the output format from '\(output)': use .csv, .jsonl or .gpx", command: name)
        }
        let options = try ImportArguments.options(from: parsed, command: name)
        try TrackArguments.refuseEach(options, command: name, because: "convert writes one trace")
        try OutputCollisions.check(outputs: [("the output", output)], inputs: [("the input", input)], command: name)
        let trace = try TraceLoading.load(input, options: options, console: console)
        // An empty output would be a file no importer accepts back: refuse instead.
        guard !trace.fixes.isEmpty || !trace.motionSamples.isEmpty else {
            throw CommandFailure(
                .dataError,
                "error: \(MessageText.path(input)): no fixes to convert (`tracesim inspect` shows what was skipped)"
            )
        }

        let text = TraceExporter.export(trace, as: format)
        if let failure = OutputFile.write(text, to: output, console: console) {
            throw CommandFailure(failure.exitCode, failure.message)
        }
        if !format.carriesMotion && !trace.motionSamples.isEmpty {
            console.warn(
                "warning: \(trace.motionSamples.count) motion samples not written: "
                    + "\(format.rawValue) holds fixes only; convert to .jsonl to keep them")
        }
        if !parsed.flag("quiet") {
            console.warn(
                "wrote \(trace.fixes.count) fix\(trace.fixes.count == 1 ? "" : "es") from \(trace.provenance.format.rawValue) to \(output)"
            )
        }
        return .success
    }
}
