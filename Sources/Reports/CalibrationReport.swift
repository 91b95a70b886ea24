import Scenarios
import Traces

/// `tracesim calibrate`'s report: each field experiment's figure beside TraceSim's, with the
/// citation, and whether the asserted ones hold.
public enum CalibrationReport {
    /// One block per figure: the simulated and published values, the verdict of an asserted
    /// figure (`pass`/`FAIL`, or `printed` for one that is not asserted), the source and the note;
    /// a closing line counts the asserted figures that hold.
    /// - Parameters:
    ///   - figures: the figures, in the order printed.
    ///   - seed: the seed of the experiments' runs, printed in the heading.
    /// - Returns: the report, ending with a newline.
    public static func text(_ figures: [CalibrationFigure], seed: UInt64) -> String {
        var text = "Calibration against published field measurements (seed \(seed))\n"
        var experiment: String?
        for figure in figures {
            if figure.experiment != experiment {
                experiment = figure.experiment
                text += "\n\(figure.experiment)\n"
            }
            let published = figure.published.map { "published \(value($0, figure.unit))" } ?? "published -"
            let tolerance = figure.tolerance.map { " ± \(value($0, figure.unit))" } ?? ""
            text += "  \(figure.quantity): simulated \(value(figure.simulated, figure.unit)), \(published)\(tolerance)"
            text += "  [\(verdict(figure))]\n"
            text += "    source: \(figure.source)\n"
            text += "    note: \(figure.note)\n"
        }
        let asserted = figures.filter { $0.withinTolerance != nil }
        let failed = asserted.filter { $0.withinTolerance == false }
        text += "\n\(asserted.count - failed.count) of \(asserted.count) asserted figures within tolerance"
        text += failed.isEmpty ? "\n" : "; failed: \(failed.map(\.quantity).joined(separator: ", "))\n"
        return text
    }

    /// One object: `"schemaVersion"`, `"seed"`, `"passed"` (every asserted figure holds) and
    /// `"figures"`, each with its values, `"asserted"` and `"withinTolerance"` (`null` when not
    /// asserted).
    /// - Parameters:
    ///   - figures: the figures, in order.
    ///   - seed: the seed of the experiments' runs.
    /// - Returns: the JSON text, one line.
    public static func json(_ figures: [CalibrationFigure], seed: UInt64) -> String {
        JSONText.object([
            ("schemaVersion", .integer(1)),
            ("seed", .string(String(seed))),
            ("passed", .bool(passed(figures))),
            (
                "figures",
                .array(
                    figures.map { figure in
                        .object([
                            ("experiment", .string(figure.experiment)),
                            ("quantity", .string(figure.quantity)),
                            ("unit", .string(figure.unit)),
                            ("simulated", number(figure.simulated)),
                            ("published", figure.published.map(number) ?? .null),
                            ("tolerance", figure.tolerance.map(number) ?? .null),
                            ("asserted", .bool(figure.withinTolerance != nil)),
                            ("withinTolerance", figure.withinTolerance.map { .bool($0) } ?? .null),
                            ("source", .string(figure.source)),
                            ("note", .string(figure.note)),
                        ])
                    })
            ),
        ]).rendered
    }

    /// Whether every asserted figure is within its tolerance.
    /// - Parameter figures: the figures.
    /// - Returns: `true` when none fails.
    public static func passed(_ figures: [CalibrationFigure]) -> Bool {
        !figures.contains { $0.withinTolerance == false }
    }

    private static func verdict(_ figure: CalibrationFigure) -> String {
        switch figure.withinTolerance {
        case true?: "pass"
        case false?: "FAIL"
        case nil: "printed"
        }
    }

    /// A value with one decimal and its unit; an infinite one (never reached) as `never`.
    private static func value(_ number: Double, _ unit: String) -> String {
        guard number.isFinite else { return "never" }
        let rounded = (number * 10).rounded() / 10
        let digits = rounded == rounded.rounded() ? String(Int64(rounded)) : String(rounded)
        return unit == "%" ? "\(digits) %" : "\(digits) \(unit)"
    }

    /// A figure rounded to a tenth, so the JSON does not carry floating-point noise.
    private static func number(_ value: Double) -> JSONText {
        value.isFinite ? .number((value * 10).rounded() / 10) : .null
    }
}
