import Fleet
import Scenarios

extension TuneReport {
    /// A self-contained page: a Pareto plot of the first two objectives (the front joined and
    /// highlighted, dominated rows grey, rows failing a constraint hollow, the chosen row
    /// labelled, each axis with its unit and better direction), then the table and footer.
    /// With one objective the plot's other axis is the row number.
    public static func html(_ outcome: Tuning.Outcome) -> String {
        let table = HTMLReport.escape(text(outcome))
        let body =
            "<h1>tracesim tune</h1><p class=\"sub\">\(outcome.rows.count) row\(outcome.rows.count == 1 ? "" : "s") over \(outcome.traceCount) "
            + "trace\(outcome.traceCount == 1 ? "" : "s")</p>" + "<h2>Pareto plot</h2>" + plot(outcome)
            + "<p class=\"legend\">Filled blue, joined: the front. Grey: dominated. Hollow: fails a constraint. "
            + "Arrows give the better direction of each objective.</p>"
            + "<h2>Rows</h2><pre style=\"font-size:12px;overflow-x:auto\">\(table)</pre>"
            + inertLines(outcome).map { "<p class=\"legend\"><strong>\(HTMLReport.escape($0))</strong></p>" }.joined()
        return HTMLReport.page(title: "tracesim tune", body: body)
    }

    /// The SVG scatter of the rows.
    static func plot(_ outcome: Tuning.Outcome) -> String {
        let (width, height) = (760.0, 440.0)
        let (left, right, top, bottom) = (80.0, 20.0, 20.0, 60.0)
        let xMetric = outcome.objectives[0]
        let yMetric = outcome.objectives.count > 1 ? outcome.objectives[1] : nil
        let points: [(row: Int, x: Double, y: Double)] = outcome.rows.indices.compactMap { row in
            guard let x = outcome.value(xMetric.metric, row: row) else { return nil }
            guard let yMetric else { return (row, x, Double(row + 1)) }
            return outcome.value(yMetric.metric, row: row).map { (row, x, $0) }
        }
        var svg = SVGWriter(class: "pareto", width: width, height: height)
        svg.add(
            "rect",
            [
                ("x", SVGWriter.number(left)), ("y", SVGWriter.number(top)),
                ("width", SVGWriter.number(width - left - right)),
                ("height", SVGWriter.number(height - top - bottom)), ("fill", "#fff"), ("stroke", "#333"),
            ])
        let xRange = span(points.map(\.x))
        let yRange = span(points.map(\.y))
        func px(_ x: Double) -> Double { left + (x - xRange.lowerBound) / extent(xRange) * (width - left - right) }
        func py(_ y: Double) -> Double {
            height - bottom - (y - yRange.lowerBound) / extent(yRange) * (height - top - bottom)
        }
        for tick in 0...4 {
            let share = Double(tick) / 4
            let x = xRange.lowerBound + share * extent(xRange)
            let y = yRange.lowerBound + share * extent(yRange)
            svg.add(
                "text",
                [
                    ("x", SVGWriter.number(px(x))), ("y", SVGWriter.number(height - bottom + 16)), ("class", "tick"),
                    ("text-anchor", "middle"),
                ], content: HTMLReport.escape(label(x, xRange)))
            svg.add(
                "text",
                [
                    ("x", SVGWriter.number(left - 6)), ("y", SVGWriter.number(py(y) + 4)), ("class", "tick"),
                    ("text-anchor", "end"),
                ], content: HTMLReport.escape(label(y, yRange)))
        }
        svg.add(
            "text",
            [
                ("x", SVGWriter.number((left + width - right) / 2)), ("y", SVGWriter.number(height - 16)),
                ("text-anchor", "middle"), ("font-size", "13"),
            ], content: HTMLReport.escape(axisLabel(xMetric)))
        svg.add(
            "text",
            [
                ("x", "16"), ("y", SVGWriter.number((top + height - bottom) / 2)), ("text-anchor", "middle"),
                ("font-size", "13"),
                ("transform", "rotate(-90 16 \(SVGWriter.number((top + height - bottom) / 2)))"),
            ], content: HTMLReport.escape(yMetric.map(axisLabel) ?? "row"))
        let front = points.filter { outcome.standings[$0.row].isOnFront }.sorted { ($0.x, $0.y) < ($1.x, $1.y) }
        if front.count > 1 {
            svg.add(
                "polyline",
                [
                    (
                        "points",
                        front.map { SVGWriter.number(px($0.x)) + "," + SVGWriter.number(py($0.y)) }.joined(
                            separator: " ")
                    ),
                    ("fill", "none"), ("stroke", "#1e88e5"), ("stroke-width", "2"),
                ])
        }
        for point in points {
            let standing = outcome.standings[point.row]
            let colour = standing.isOnFront ? "#1e88e5" : "#9e9e9e"
            let fill = standing.failed.isEmpty ? colour : "none"
            let tip =
                "row \(point.row + 1): "
                + ([outcome.rows[point.row].scenarioName]
                + zip(outcome.sweeps, outcome.rows[point.row].values).map { "\($0.parameter.name)=\($1)" })
                .joined(separator: ", ")
                + (standing.failed.isEmpty
                    ? "" : "; fails " + standing.failed.map(\.description).joined(separator: ", "))
            svg.add(
                "circle",
                [
                    ("cx", SVGWriter.number(px(point.x))), ("cy", SVGWriter.number(py(point.y))),
                    ("r", standing.isOnFront ? "5" : "4"), ("fill", fill), ("stroke", colour), ("stroke-width", "1.5"),
                ], content: SVGWriter.title(tip))
        }
        if let chosen = outcome.chosen, let point = points.first(where: { $0.row == chosen }) {
            svg.add(
                "circle",
                [
                    ("cx", SVGWriter.number(px(point.x))), ("cy", SVGWriter.number(py(point.y))), ("r", "9"),
                    ("fill", "none"), ("stroke", "#d64545"), ("stroke-width", "2"),
                ])
            let anchor = px(point.x) > width / 2 ? "end" : "start"
            svg.add(
                "text",
                [
                    ("x", SVGWriter.number(px(point.x) + (anchor == "end" ? -12 : 12))),
                    ("y", SVGWriter.number(py(point.y) - 10)), ("text-anchor", anchor), ("font-size", "12"),
                    ("fill", "#d64545"),
                ], content: HTMLReport.escape("chosen: row \(chosen + 1)"))
        }
        return svg.finished
    }

    /// A tick label with as many decimals as the axis's extent needs.
    static func label(_ value: Double, _ range: ClosedRange<Double>) -> String {
        let extent = range.upperBound - range.lowerBound
        return Formatting.fixed(value, extent >= 50 ? 0 : extent >= 5 ? 1 : extent >= 0.5 ? 2 : 3)
    }

    /// `gpsOnSeconds (s, lower is better ←)`.
    static func axisLabel(_ objective: Tuning.Objective) -> String {
        let unit = objective.metric.unit
        return "\(objective.metric.rawValue) (\(unit), "
            + (objective.direction == .min ? "lower is better)" : "higher is better)")
    }

    /// The values' range, widened by a twentieth on each side so no point sits on the frame;
    /// one value gets a unit-wide range around it.
    static func span(_ values: [Double]) -> ClosedRange<Double> {
        guard let low = values.min(), let high = values.max() else { return 0...1 }
        guard high > low else { return (low - 1)...(high + 1) }
        let margin = (high - low) / 20
        return (low - margin)...(high + margin)
    }

    private static func extent(_ range: ClosedRange<Double>) -> Double { range.upperBound - range.lowerBound }
}
