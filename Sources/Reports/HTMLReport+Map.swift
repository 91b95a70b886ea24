import Geometry
import Scenarios
import Traces

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension HTMLReport {
    /// The trace in grey, accepted fixes green, delivered-but-rejected red (for a team's own
    /// engine: delivered but not kept), never-delivered orange, geofences blue. Equirectangular around the trace's middle latitude.
    static func map(trace: Trace, run: ScenarioRun, fences: [Geofence]) -> String {
        let width = 900.0
        let height = 520.0
        let fixes = trace.fixes
        guard !fixes.isEmpty else { return "<p>No fixes.</p>" }
        let latitudes = fixes.map(\.latitude)
        let longitudes = fixes.map(\.longitude)
        let (minLat, maxLat) = (latitudes.min() ?? 0, latitudes.max() ?? 0)
        let (minLon, maxLon) = (longitudes.min() ?? 0, longitudes.max() ?? 0)
        let scaleX = cos((minLat + maxLat) / 2 * .pi / 180)
        let spanX = max((maxLon - minLon) * scaleX, 1e-6)
        let spanY = max(maxLat - minLat, 1e-6)
        let scale = min((width - 40) / spanX, (height - 40) / spanY)
        func x(_ longitude: Double) -> String { SVGWriter.number(20 + (longitude - minLon) * scaleX * scale) }
        func y(_ latitude: Double) -> String { SVGWriter.number(height - 20 - (latitude - minLat) * scale) }
        var svg = SVGWriter(class: "map", width: width, height: height)
        svg.add("rect", [("width", "100%"), ("height", "100%"), ("fill", "#f7f7f4")])
        for fence in fences {
            if case .circle(let center, let radius) = fence.shape {
                svg.add(
                    "circle",
                    [
                        ("class", "fence"), ("cx", x(center.longitude)), ("cy", y(center.latitude)),
                        ("r", SVGWriter.number(radius / 111_320 * scale)),
                    ], content: SVGWriter.title(fence.identifier))
            } else if case .polygon(let shape) = fence.shape {
                let points = shape.exterior.map { "\(x($0.longitude)),\(y($0.latitude))" }.joined(separator: " ")
                svg.add(
                    "polygon", [("class", "fence"), ("points", points)], content: SVGWriter.title(fence.identifier))
            }
        }
        let accepted = Set(run.recorder.acceptedTimes)
        let delivered = Set(run.deliveryTimes)
        func kind(_ fix: Fix) -> String {
            accepted.contains(fix.timestamp) ? "accepted" : delivered.contains(fix.timestamp) ? "rejected" : "missed"
        }
        let legend = [
            // A team's engine has no gate: what it did not keep, it did not keep for its own reasons.
            ("accepted", run.isBuiltInEngine ? "accepted" : "kept by the app"),
            ("rejected", run.isBuiltInEngine ? "delivered, rejected by the gate" : "delivered, not kept by the app"),
            ("missed", "never delivered"),
            ("fence", "geofence"),
        ]
        .map { "<span class=\"key \($0.0)\"></span>\($0.1)" }.joined(separator: " ")
        if fixes.count > thinningThreshold {
            let caption = thinnedTrack(
                fixes,
                point: {
                    (20 + ($0.longitude - minLon) * scaleX * scale, height - 20 - ($0.latitude - minLat) * scale)
                }, kind: kind, into: &svg)
            return svg.finished + "<p class=\"legend\">\(legend)</p>" + caption
        }
        let path = fixes.map { "\(x($0.longitude)),\(y($0.latitude))" }.joined(separator: " ")
        svg.add("polyline", [("class", "trace"), ("points", path)])
        // Missed first, so the fixes the app did get are drawn on top.
        for layer in ["missed", "rejected", "accepted"] {
            for fix in fixes where kind(fix) == layer {
                svg.add("circle", [("class", layer), ("cx", x(fix.longitude)), ("cy", y(fix.latitude)), ("r", "2.2")])
            }
        }
        return svg.finished + "<p class=\"legend\">\(legend)</p>"
    }
}
