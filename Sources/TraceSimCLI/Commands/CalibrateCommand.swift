import Reports
import Scenarios

/// `tracesim calibrate [--format text|json] [--seed <n>]`: the calibration suite's synthetic
/// experiments, each figure beside the published field figure it was built to reproduce.
enum CalibrateCommand: ReportingCommand {
    /// The formats `--format` takes.
    static let formats = ReportFormat.Option(
        [.text, .json],
        help: """
            text (default); json (one object with "seed", "passed" and "figures",
            each with "simulated", "published", "tolerance" and "withinTolerance").
            """)

    /// The seed when `--seed` is not given.
    static let defaultSeed: UInt64 = 1

    static let declaration = CommandDeclaration(
        name: "calibrate",
        overview: """
            Replay synthetic experiments built like published field measurements (significant
            change, the When-In-Use cutoff, region events on a locked phone) and print
            TraceSim's figure beside each published one, with its citation.
            """,
        options: [
            formats.declared,
            .init(name: "seed", value: "<n>", help: "Seeds the experiments' phones (default: \(defaultSeed))."),
        ],
        discussion: """
            A figure with a tolerance is asserted: it passes while the simulated value stays
            within the published value plus or minus the tolerance. Figures without a published
            value, or whose sources disagree, are printed and not asserted. Most field figures
            are old (iOS 4 to 9); see the Calibration article.
            """,
        exitStatus: """
            0 when every asserted figure is within its tolerance, 1 when one is not, 64 for a
            usage error.
            """)

    static func run(_ parsed: ParsedArguments, console: Console) throws -> ExitCode {
        guard parsed.positionals.isEmpty else {
            throw UsageError("calibrate takes no arguments, got '\(parsed.positionals[0])'", command: name)
        }
        let format = try formats.parse(parsed)
        let seed = try ReplayArguments.seed(parsed, command: name) ?? defaultSeed
        let figures = Calibration.figures(seed: seed)
        switch format {
        case .json: console.print(CalibrationReport.json(figures, seed: seed))
        default: console.output(CalibrationReport.text(figures, seed: seed))
        }
        return CalibrationReport.passed(figures) ? .success : .failure
    }
}
