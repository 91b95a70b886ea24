import Geometry
import Scenarios
import SimulationCore
import Traces

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension HTMLReport {
    /// The trace in grey, accepted fixes green, delivered-but-rejected red (for a team's own
    /// engine: delivered but not kept), never-delivered orange, kept fixes far off the trace
    /// purple where the app placed them, geofences blue. Equirectangular around the trace's middle latitude.
    static func map(trace: Trace, run: ScenarioRun, fences: [Geofence]) -> String {
        let width = 900.0
        let height = 520.0
        let fixes = trace.fixes
        guard !fixes.isEmpty else { return "<p>No fixes.</p>" }
        let offTrace = keptOffTrace(trace: trace, run: run)
        // The map's bounds hold the kept fixes off the trace too: a reduced-accuracy fix
        // kilometres away is what the page must show, not hide at the edge.
        let latitudes = fixes.map(\.latitude) + offTrace.map(\.latitude)
        let longitudes = fixes.map(\.longitude) + offTrace.map(\.longitude)
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
        var keys = [
            // A team's engine has no gate: what it did not keep, it did not keep for its own reasons.
            ("accepted", run.isBuiltInEngine ? "accepted" : "kept by the app"),
            ("rejected", run.isBuiltInEngine ? "delivered, rejected by the gate" : "delivered, not kept by the app"),
            ("missed", "never delivered"),
            ("fence", "geofence"),
        ]
        if !offTrace.isEmpty {
            keys.insert(("offtrace", "kept where the app placed it, over \(offTraceMeters) m off the trace"), at: 1)
        }
        let legend = keys.map { "<span class=\"key \($0.0)\"></span>\($0.1)" }.joined(separator: " ")
        func drawOffTrace() {
            for position in offTrace {
                svg.add(
                    "circle",
                    [("class", "offtrace"), ("cx", x(position.longitude)), ("cy", y(position.latitude)), ("r", "3.5")])
            }
        }
        if fixes.count > thinningThreshold {
            let caption = thinnedTrack(
                fixes,
                point: {
                    (20 + ($0.longitude - minLon) * scaleX * scale, height - 20 - ($0.latitude - minLat) * scale)
                }, kind: kind, into: &svg)
            drawOffTrace()
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
        drawOffTrace()
        return svg.finished + "<p class=\"legend\">\(legend)</p>"
    }

    /// How far a kept fix may lie from the trace's fix of the same instant before the map draws
    /// it where the app placed it: the trace warnings' median line (`TraceWarning`).
    static let offTraceMeters = Int(TraceWarning.errorCeilingMeters)

    /// The kept fixes over `offTraceMeters` from the trace's fix of the same instant (or with no
    /// trace fix at that instant), where the app placed them. A reduced-accuracy fix kept as
    /// collected lies kilometres away; drawn on the trace, the map would hide what the page's
    /// warning says (issue 30 §1).
    static func keptOffTrace(trace: Trace, run: ScenarioRun) -> [Coordinate] {
        var traceAt: [SimInstant: Coordinate] = [:]
        for fix in trace.fixes { traceAt[fix.timestamp] = Coordinate(latitude: fix.latitude, longitude: fix.longitude) }
        var result: [Coordinate] = []
        for (time, position) in zip(run.recorder.acceptedTimes, run.recorder.acceptedPositions) {
            guard let onTrace = traceAt[time] else {
                result.append(position)
                continue
            }
            if Geodesy.distanceMeters(onTrace, position) > Double(offTraceMeters) { result.append(position) }
        }
        return result
    }
}
