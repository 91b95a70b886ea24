import Scenarios

extension HTMLReport {
    /// Scenarios down, metrics across; the cell colour runs from red (nothing) to green (ideal).
    /// Past the ideal it turns red again: 200 % of the ideal's GPS time is as far from the
    /// reference as none, and for a cost further is worse.
    static func heatmap(_ rows: [ScenarioMetrics]) -> String {
        let columns: [(String, (MetricsSummary) -> Double?)] = [
            ("collected", \.collected), ("coverage", \.coverage), ("distance", \.distance),
            ("GPS vs ideal", \.gpsVsIdeal), ("trace path", \.tracePath), ("trace time", \.traceTime),
        ]
        let cell = (width: 150.0, height: 28.0)
        let left = 230.0
        let f = SVGWriter.number
        var svg = SVGWriter(
            class: "heatmap", width: left + Double(columns.count) * cell.width + 10,
            height: 40 + Double(rows.count) * cell.height + 10)
        for (index, column) in columns.enumerated() {
            svg.add(
                "text", [("class", "head"), ("x", f(left + (Double(index) + 0.5) * cell.width)), ("y", "26")],
                content: escape(column.0))
        }
        for (rowIndex, row) in rows.enumerated() {
            let top = 40 + Double(rowIndex) * cell.height
            svg.add(
                "text", [("class", "label"), ("x", f(left - 10)), ("y", f(top + 19))], content: escape(row.scenario))
            let summary = MetricsSummary(row.metrics)
            for (index, column) in columns.enumerated() {
                let value = column.1(summary)
                let ratio = max(value ?? 0, 0)
                let share = ratio <= 1 ? ratio : max(0, 2 - ratio)
                let hue = Int((share * 120).rounded())
                let fill = value == nil ? "#ddd" : "hsl(\(hue),62%,58%)"
                let x = left + Double(index) * cell.width
                svg.add(
                    "rect",
                    [
                        ("class", "cell"), ("x", f(x + 1)), ("y", f(top + 1)), ("width", f(cell.width - 2)),
                        ("height", f(cell.height - 2)), ("fill", fill),
                    ])
                svg.add(
                    "text", [("class", "value"), ("x", f(x + cell.width / 2)), ("y", f(top + 19))],
                    content: value.map(Formatting.percent) ?? "–")
            }
        }
        return svg.finished
    }
}
