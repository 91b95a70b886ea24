import Scenarios

extension HTMLReport {
    /// The run's headline figures as cards: shares against the ideal run, the longest gap, GPS
    /// time and the fixes the engine kept.
    static func summary(_ metrics: Metrics) -> String {
        func percent(_ value: Double?) -> String { value.map(Formatting.percent) ?? "–" }
        let items = [
            ("collected", percent(metrics.collectionRatio)), ("of the trace covered", percent(metrics.timeCoverage)),
            ("distance", percent(metrics.distanceRatio)), ("longest gap", Formatting.duration(metrics.maxGapSeconds)),
            ("GPS on", Formatting.duration(metrics.gpsOnSeconds)),
            ("accepted / delivered", "\(metrics.acceptedFixes) / \(metrics.deliveredFixes)"),
        ]
        return "<div class=\"cards\">"
            + items.map {
                "<div class=\"card\"><div class=\"v\">\(escape($0.1))</div><div class=\"k\">\($0.0)</div></div>"
            }
            .joined() + "</div>"
    }
}
