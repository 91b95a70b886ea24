import Scenarios

/// What a sweep of engine settings prints: a row per combination with the Pareto front marked.
public enum TuneReport {
    /// An array of `{"values", "kept", "delivered", "medianErrorMeters", "p95ErrorMeters",
    /// "distanceInflation", "front"}`, one per point, `values` keyed by the swept settings.
    public static func json(_ points: [Tuning.Point], sweeps: [Tuning.Sweep]) -> String {
        JSONText.array(
            points.map { point in
                func optional(_ value: Double?, _ digits: Int) -> JSONText {
                    value.map { .number(Formatting.rounded($0, digits)) } ?? .null
                }
                return .object([
                    ("values", .object(zip(sweeps, point.values).map { ($0.parameter.name, .number($1)) })),
                    ("kept", .integer(point.kept)), ("delivered", .integer(point.delivered)),
                    ("medianErrorMeters", optional(point.medianError, 3)),
                    ("p95ErrorMeters", optional(point.p95Error, 3)),
                    ("distanceInflation", optional(point.distanceInflation, 4)),
                    ("front", .bool(point.isOnFront)),
                ])
            }
        ).rendered
    }

    /// A right-aligned row per point, `*` on the front, and a closing line saying what the front
    /// minimises: p95 error against the truth when there was one (`measuredAgainstTruth`),
    /// distance inflation otherwise.
    public static func text(_ points: [Tuning.Point], sweeps: [Tuning.Sweep], measuredAgainstTruth: Bool) -> String {
        let header =
            sweeps.map { "\($0.parameter.name) (\($0.parameter.unit))" } + [
                "kept", "median error", "p95 error", "inflation", "front",
            ]
        var rows: [[String]] = [header]
        for point in points {
            rows.append(
                point.values.map { Formatting.fixed($0, $0 == $0.rounded() ? 0 : 2) } + [
                    "\(point.kept)/\(point.delivered)",
                    point.medianError.map { Formatting.fixed($0, 2) + " m" } ?? "-",
                    point.p95Error.map { Formatting.fixed($0, 2) + " m" } ?? "-",
                    point.distanceInflation.map { Formatting.fixed($0, 3) + "×" } ?? "-", point.isOnFront ? "*" : "",
                ])
        }
        var table = TextTable(rows, alignments: Array(repeating: .right, count: header.count))
        table.rulesHeader = true
        let front = points.filter(\.isOnFront).count
        return table.rendered + "\n"
            + "\(points.count) combinations, \(front) on the front (* : no other keeps as many fixes at lower "
            + (measuredAgainstTruth ? "p95 error" : "distance inflation") + ")"
    }
}
