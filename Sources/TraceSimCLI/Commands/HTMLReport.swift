import Device
import Engine
import Geometry
import Permissions
import Scenarios
import SimulationCore
import Traces

/// Self-contained HTML with inline SVG: a run's track map and timeline bands, and the matrix
/// heatmap. No scripts, no external resources, so the file can be attached anywhere.
enum HTMLReport {
    /// The page for one run: summary, map and timeline.
    static func run(
        trace path: String, trace: Trace, run: ScenarioRun, ideal: ScenarioRun, metrics: Metrics, fences: [Geofence]
    )
        -> String
    {
        page(
            title: "\(run.scenario) · \(path)",
            body: """
                <h1>\(escape(run.scenario))</h1>
                <p class="sub">\(escape(path)) · seed \(run.seed) · compared with the ideal run of the same trace</p>
                \(summary(metrics))
                <h2>Track</h2>
                \(map(trace: trace, run: run, fences: fences))
                <h2>Timeline</h2>
                \(timeline(run: run, ideal: ideal))
                \(run.wizardSteps.map { "<h2>Permission wizard</h2>" + storyboard($0) } ?? "")
                """)
    }

    /// The page for a matrix: the heatmap of scenarios against metrics.
    static func matrix(rows: [(scenario: String, metrics: [Metrics])], traceCount: Int) -> String {
        page(
            title: "TraceSim permission matrix",
            body: """
                <h1>What each permission level costs</h1>
                <p class="sub">\(traceCount) trace\(traceCount == 1 ? "" : "s") · each run against the ideal run of the same trace · greener is closer to ideal</p>
                \(heatmap(rows))
                """)
    }

    // MARK: Pieces

    private static func summary(_ metrics: Metrics) -> String {
        func percent(_ value: Double?) -> String { value.map { TrackReport.fixed($0 * 100, 1) + " %" } ?? "–" }
        let items = [
            ("collected", percent(metrics.collectionRatio)), ("coverage", percent(metrics.timeCoverage)),
            ("distance", percent(metrics.distanceRatio)), ("longest gap", TrackReport.duration(metrics.maxGapSeconds)),
            ("GPS on", TrackReport.duration(metrics.gpsOnSeconds)),
            ("accepted / delivered", "\(metrics.acceptedFixes) / \(metrics.deliveredFixes)"),
        ]
        return "<div class=\"cards\">"
            + items.map {
                "<div class=\"card\"><div class=\"v\">\(escape($0.1))</div><div class=\"k\">\($0.0)</div></div>"
            }
            .joined() + "</div>"
    }

    /// The trace in grey, accepted fixes green, delivered-but-rejected red, never-delivered
    /// orange, geofences blue. Equirectangular around the trace's middle latitude.
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
        func x(_ longitude: Double) -> String { TrackReport.fixed(20 + (longitude - minLon) * scaleX * scale, 1) }
        func y(_ latitude: Double) -> String { TrackReport.fixed(height - 20 - (latitude - minLat) * scale, 1) }
        var svg =
            "<svg class=\"map\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" xmlns=\"http://www.w3.org/2000/svg\">"
        svg += "<rect width=\"100%\" height=\"100%\" fill=\"#f7f7f4\"/>"
        for fence in fences {
            if case .circle(let center, let radius) = fence.shape {
                let r = radius / 111_320 * scale
                svg +=
                    "<circle class=\"fence\" cx=\"\(x(center.longitude))\" cy=\"\(y(center.latitude))\" r=\"\(TrackReport.fixed(r, 1))\"><title>\(escape(fence.identifier))</title></circle>"
            } else if case .polygon(let shape) = fence.shape {
                let points = shape.exterior.map { "\(x($0.longitude)),\(y($0.latitude))" }.joined(separator: " ")
                svg +=
                    "<polygon class=\"fence\" points=\"\(points)\"><title>\(escape(fence.identifier))</title></polygon>"
            }
        }
        let path = fixes.map { "\(x($0.longitude)),\(y($0.latitude))" }.joined(separator: " ")
        svg += "<polyline class=\"trace\" points=\"\(path)\"/>"
        let accepted = Set(run.recorder.acceptedTimes)
        let delivered = Set(run.deliveryTimes)
        // Missed first, so the fixes the app did get are drawn on top.
        func kind(_ fix: Fix) -> String {
            accepted.contains(fix.timestamp) ? "accepted" : delivered.contains(fix.timestamp) ? "rejected" : "missed"
        }
        for layer in ["missed", "rejected", "accepted"] {
            for fix in fixes where kind(fix) == layer {
                svg += "<circle class=\"\(layer)\" cx=\"\(x(fix.longitude))\" cy=\"\(y(fix.latitude))\" r=\"2.2\"/>"
            }
        }
        svg += "</svg>"
        let legend = [
            ("accepted", "accepted"), ("rejected", "delivered, rejected by the gate"), ("missed", "never delivered"),
            ("fence", "geofence"),
        ]
        .map { "<span class=\"key \($0.0)\"></span>\($0.1)" }.joined(separator: " ")
        return svg + "<p class=\"legend\">\(legend)</p>"
    }

    /// Bands over the trace's time: app state, screen lock, motion, GPS, deliveries, for this
    /// run and the ideal one; the When-In-Use cutoff (70 s after each lock) as a dashed line.
    static func timeline(run: ScenarioRun, ideal: ScenarioRun) -> String {
        let width = 900.0
        let left = 150.0
        let span = max(run.traceEnd.seconds(since: run.traceStart), 1)
        func x(_ instant: SimInstant) -> Double {
            left + (width - left - 10) * min(max(instant.seconds(since: run.traceStart) / span, 0), 1)
        }
        func f(_ value: Double) -> String { TrackReport.fixed(value, 1) }
        var rows: [String] = []
        var y = 10.0
        func band(_ label: String, _ spans: [(SimInstant, SimInstant, String)]) {
            var row = "<text class=\"label\" x=\"\(f(left - 8))\" y=\"\(f(y + 13))\">\(escape(label))</text>"
            for (start, end, kind) in spans where end > start {
                row +=
                    "<rect class=\"\(kind)\" x=\"\(f(x(start)))\" y=\"\(f(y))\" width=\"\(f(max(x(end) - x(start), 0.8)))\" height=\"18\"><title>\(kind)</title></rect>"
            }
            rows.append(row)
            y += 26
        }
        func phases(_ run: ScenarioRun) -> [(SimInstant, SimInstant, String)] {
            zip(run.lifecycle, run.lifecycle.dropFirst().map(\.time) + [run.traceEnd]).map {
                ($0.time, $1, "phase-" + $0.phase.rawValue)
            }
        }
        func locks(_ run: ScenarioRun) -> [(SimInstant, SimInstant, String)] {
            zip(run.lifecycle, run.lifecycle.dropFirst().map(\.time) + [run.traceEnd]).filter { $0.0.isScreenLocked }
                .map {
                    ($0.0.time, $0.1, "locked")
                }
        }
        func motion(_ run: ScenarioRun) -> [(SimInstant, SimInstant, String)] {
            let changes = run.recorder.motionTransitions
            return zip(changes, changes.dropFirst().map(\.time) + [run.traceEnd]).filter { $0.0.state == .moving }.map {
                ($0.0.time, $0.1, "moving")
            }
        }
        func gps(_ run: ScenarioRun) -> [(SimInstant, SimInstant, String)] {
            run.gpsOn.intervals.map { ($0.start, min($0.end ?? run.traceEnd, run.traceEnd), "gps") }
        }
        func deliveries(_ run: ScenarioRun) -> [(SimInstant, SimInstant, String)] {
            run.deliveryTimes.map { ($0, $0.advanced(byNanoseconds: 1), "delivery") }
        }
        band("app (\(run.scenario))", phases(run))
        band("screen locked", locks(run))
        band("moving", motion(run))
        band("GPS on", gps(run))
        band("deliveries", deliveries(run))
        band("ideal: GPS on", gps(ideal))
        band("ideal: deliveries", deliveries(ideal))
        let height = y + 30
        var svg =
            "<svg class=\"timeline\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" xmlns=\"http://www.w3.org/2000/svg\">"
        svg += rows.joined()
        for lock in run.lifecycle.enumerated()
        where lock.element.isScreenLocked
            && (lock.offset == 0 || !run.lifecycle[lock.offset - 1].isScreenLocked)
        {
            let cutoff = lock.element.time.advanced(byNanoseconds: 70_000_000_000)
            guard cutoff <= run.traceEnd else { continue }
            svg += "<line class=\"cutoff\" x1=\"\(f(x(cutoff)))\" x2=\"\(f(x(cutoff)))\" y1=\"4\" y2=\"\(f(y))\"/>"
            svg +=
                "<text class=\"cutoff-label\" x=\"\(f(x(cutoff) + 4))\" y=\"\(f(y + 14))\">When-In-Use cutoff (lock + 70 s)</text>"
        }
        for tick in 0...4 {
            let seconds = span * Double(tick) / 4
            let position = left + (width - left - 10) * Double(tick) / 4
            let anchor = tick == 0 ? "start" : tick == 4 ? "end" : "middle"
            svg +=
                "<text class=\"tick\" text-anchor=\"\(anchor)\" x=\"\(f(position))\" y=\"\(f(height - 4))\">\(TrackReport.clock(seconds))</text>"
        }
        return svg + "</svg>"
    }

    /// The wizard's run as frames, one per page shown or skipped, with what happened on it.
    static func storyboard(_ steps: [PermissionsWizard.Step]) -> String {
        var frames: [(title: String, kind: String, lines: [String])] = []
        for step in steps {
            let time = TrackReport.fixed(step.atSeconds, 0) + " s"
            switch step.kind {
            case .pageShown(_, let title): frames.append((title, "page", ["\(time)"]))
            case .pageSkipped(let page, let reason): frames.append((page.rawValue, "skipped", ["skipped: \(reason)"]))
            case .closed(let granted):
                frames.append(("closed", granted ? "granted" : "refused", [granted ? "granted" : "not granted"]))
            case .notPresented(let reason): frames.append(("not presented", "skipped", [reason]))
            case .tapped(let button): append("tapped \(button)")
            case .promptShown(let kind): append("prompt: \(kind.name)")
            case .promptNotShown(let kind, let rule): append("no \(kind.name) prompt (\(rule.rawValue))")
            case .statusRow(let title, let text, let satisfied): append((satisfied ? "✓ " : "✗ ") + title + ": " + text)
            case .settingsOpened: append("opened Settings")
            }
        }
        func append(_ line: String) {
            if frames.isEmpty { frames.append(("", "page", [])) }
            frames[frames.count - 1].lines.append(line)
        }
        let frame = (width: 170.0, height: 170.0, gap: 16.0)
        let perRow = 5
        let rows = (frames.count + perRow - 1) / perRow
        let width = Double(perRow) * (frame.width + frame.gap)
        let height = Double(max(rows, 1)) * (frame.height + frame.gap)
        var svg =
            "<svg class=\"storyboard\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" xmlns=\"http://www.w3.org/2000/svg\">"
        for (index, item) in frames.enumerated() {
            let x = Double(index % perRow) * (frame.width + frame.gap) + 2
            let y = Double(index / perRow) * (frame.height + frame.gap) + 2
            svg +=
                "<rect class=\"frame \(item.kind)\" x=\"\(TrackReport.fixed(x, 1))\" y=\"\(TrackReport.fixed(y, 1))\" width=\"\(Int(frame.width))\" height=\"\(Int(frame.height))\" rx=\"14\"/>"
            svg +=
                "<text class=\"frame-title\" x=\"\(TrackReport.fixed(x + 10, 1))\" y=\"\(TrackReport.fixed(y + 24, 1))\">\(escape(String(item.title.prefix(22))))</text>"
            for (line, text) in item.lines.prefix(7).enumerated() {
                svg +=
                    "<text class=\"frame-line\" x=\"\(TrackReport.fixed(x + 10, 1))\" y=\"\(TrackReport.fixed(y + 46 + Double(line) * 17, 1))\">\(escape(String(text.prefix(26))))<title>\(escape(text))</title></text>"
            }
        }
        return svg + "</svg>"
    }

    /// Scenarios down, metrics across; the cell colour runs from red (nothing) to green (ideal).
    static func heatmap(_ rows: [(scenario: String, metrics: [Metrics])]) -> String {
        let columns: [(String, (MetricsSummary) -> Double?)] = [
            ("collected", \.collected), ("coverage", \.coverage), ("distance", \.distance),
            ("GPS vs ideal", \.gpsVsIdeal),
        ]
        let cell = (width: 150.0, height: 28.0)
        let left = 230.0
        let width = left + Double(columns.count) * cell.width + 10
        let height = 40 + Double(rows.count) * cell.height + 10
        var svg =
            "<svg class=\"heatmap\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" xmlns=\"http://www.w3.org/2000/svg\">"
        for (index, column) in columns.enumerated() {
            svg +=
                "<text class=\"head\" x=\"\(TrackReport.fixed(left + (Double(index) + 0.5) * cell.width, 1))\" y=\"26\">\(column.0)</text>"
        }
        for (rowIndex, row) in rows.enumerated() {
            let top = 40 + Double(rowIndex) * cell.height
            svg +=
                "<text class=\"label\" x=\"\(TrackReport.fixed(left - 10, 1))\" y=\"\(TrackReport.fixed(top + 19, 1))\">\(escape(row.scenario))</text>"
            let summary = MetricsSummary(row.metrics)
            for (index, column) in columns.enumerated() {
                let value = column.1(summary)
                let share = min(max(value ?? 0, 0), 1)
                let hue = Int((share * 120).rounded())
                let fill = value == nil ? "#ddd" : "hsl(\(hue),62%,\(value == nil ? 80 : 58)%)"
                let x = left + Double(index) * cell.width
                svg +=
                    "<rect class=\"cell\" x=\"\(TrackReport.fixed(x + 1, 1))\" y=\"\(TrackReport.fixed(top + 1, 1))\" width=\"\(TrackReport.fixed(cell.width - 2, 1))\" height=\"\(TrackReport.fixed(cell.height - 2, 1))\" fill=\"\(fill)\"/>"
                let text = value.map { TrackReport.fixed($0 * 100, 1) + " %" } ?? "–"
                svg +=
                    "<text class=\"value\" x=\"\(TrackReport.fixed(x + cell.width / 2, 1))\" y=\"\(TrackReport.fixed(top + 19, 1))\">\(text)</text>"
            }
        }
        return svg + "</svg>"
    }

    private static func page(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
        <style>
        body{font:14px/1.45 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif;margin:24px auto;max-width:940px;color:#222}
        h1{font-size:22px;margin:0 0 4px}h2{font-size:16px;margin:24px 0 8px}.sub{color:#666;margin:0 0 16px}
        .cards{display:flex;gap:10px;flex-wrap:wrap}.card{border:1px solid #ddd;border-radius:6px;padding:8px 12px;min-width:120px}
        .card .v{font-size:18px;font-weight:600}.card .k{color:#666;font-size:12px}
        svg{width:100%;height:auto;display:block}
        .trace{fill:none;stroke:#bbb;stroke-width:1.5}.accepted{fill:#2e9e4f}.rejected{fill:#d64545}.missed{fill:#f0a030}
        .fence{fill:rgba(60,110,220,.12);stroke:#3c6edc;stroke-width:1.5}
        .legend{color:#555;font-size:12px}.key{display:inline-block;width:10px;height:10px;border-radius:5px;margin:0 4px 0 12px}
        .key.accepted{background:#2e9e4f}.key.rejected{background:#d64545}.key.missed{background:#f0a030}.key.fence{background:#3c6edc}
        .label{font-size:12px;text-anchor:end;fill:#333}.tick{font-size:11px;fill:#777}
        .phase-foreground{fill:#4caf50}.phase-background{fill:#8bc34a}.phase-suspended{fill:#bdbdbd}
        .phase-notRunning{fill:#eee}.phase-terminatedBySystem{fill:#9e9e9e}.phase-forceQuit{fill:#d64545}
        .locked{fill:#5c6bc0}.moving{fill:#ff9800}.gps{fill:#1e88e5}.delivery{fill:#2e9e4f}
        .cutoff{stroke:#d64545;stroke-dasharray:4 3;stroke-width:1.5}.cutoff-label{font-size:11px;fill:#d64545}
        .frame{fill:#fff;stroke:#333;stroke-width:1.5}.frame.skipped{fill:#eee;stroke:#999}.frame.granted{fill:#e8f5e9}.frame.refused{fill:#fdecea}
        .frame-title{font-size:13px;font-weight:600}.frame-line{font-size:11px;fill:#333}
        .head{font-size:12px;font-weight:600;text-anchor:middle}.value{font-size:12px;text-anchor:middle;fill:#111}
        </style></head><body>
        \(body)
        </body></html>
        """
    }

    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
