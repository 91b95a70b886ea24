import Device
import Fleet
import Reports

/// `matrix --bands` and `--sensitivity`: the matrix rerun at both ends of every disputed band
/// (`DisputedBand.catalogue`), printed as the degradation table with a range on every figure.
/// A whole-matrix option: the ranges pool every trace's runs, so neither a shard's part nor JSON
/// Lines (what `merge` and `summarize` read) can carry them.
struct MatrixBandArguments {
    /// Whether `--sensitivity` was given: the band that moves each row most.
    var sensitivity: Bool

    /// The options as `matrix --help` lists them.
    static let declared: [CommandDeclaration.Option] = [
        .flag(
            "bands",
            help: """
                Rerun every scenario at both ends of each disputed band ('tracesim rules'
                lists them), one band at a time, and at the all-pessimistic and
                all-optimistic corners; every figure prints with its range, as
                87.3 % (81.0–90.2). The JSON carries each figure's value, corners and
                range. Up to \(2 * DisputedBand.catalogue.count + 3) runs per scenario and trace (an end
                equal to the scenario's own value is not rerun). Not with --shard,
                jsonl or --per-trace.
                """),
        .flag(
            "sensitivity",
            help: """
                With --bands: for each row, the band that moves its collected figure most
                and by how many points (text, markdown, json).
                """),
    ]

    /// The band options given, or `nil` without `--bands`.
    /// - Throws: `UsageError` for `--sensitivity` without `--bands`, or `--bands` with an option
    ///   whose output holds runs rather than a pooled table.
    static func parse(
        _ parsed: ParsedArguments, format: ReportFormat, sharded: Bool, perTrace: Bool, command: String
    ) throws(UsageError) -> MatrixBandArguments? {
        let sensitivity = parsed.flag("sensitivity")
        guard parsed.flag("bands") else {
            if sensitivity { throw UsageError("--sensitivity reads the bands' runs; add --bands", command: command) }
            return nil
        }
        if sharded {
            throw UsageError(
                "--bands pools every trace into ranges, so a shard's part cannot carry them: run it unsharded",
                command: command)
        }
        if format == .jsonl {
            throw UsageError(
                "--bands prints a pooled table, not runs: use --format json for its figures", command: command)
        }
        if perTrace { throw UsageError("--bands and --per-trace cannot be combined", command: command) }
        if sensitivity && (format == .csv || format == .html) {
            throw UsageError("--sensitivity is for text, markdown and json, not \(format)", command: command)
        }
        return MatrixBandArguments(sensitivity: sensitivity)
    }

    /// `matrix` expanded across the bands.
    /// - Throws: `CommandFailure` (65) when a band end cannot be set on a scenario's parameters.
    func expand(_ matrix: Matrix, command: String) throws(CommandFailure) -> BandedMatrix {
        do throws(BandError) {
            return try BandedMatrix(matrix)
        } catch {
            throw CommandFailure(.dataError, "error: \(command): \(error.message)")
        }
    }

    /// The banded report of the expanded matrix's runs, in `format`.
    func report(_ table: MatrixTable, plan: BandedMatrix, format: ReportFormat, seed: UInt64?) -> String {
        let banded = BandedTable(table, plan: plan)
        return switch format {
        case .json: BandedMatrixReport.json(banded, seed: seed, sensitivity: sensitivity)
        case .csv: BandedMatrixReport.csv(banded)
        case .markdown: BandedMatrixReport.markdown(banded, sensitivity: sensitivity)
        case .html: BandedMatrixReport.html(banded)
        default: BandedMatrixReport.text(banded, sensitivity: sensitivity)
        }
    }
}
