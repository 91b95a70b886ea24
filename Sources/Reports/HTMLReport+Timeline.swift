import Device
import Scenarios
import SimulationCore

extension HTMLReport {
    /// Bands over the trace's time: the authorization timeline (location status, reduced
    /// accuracy, prompts on screen, wakes and relaunches), app state, screen lock, motion, GPS,
    /// deliveries, for this run and the ideal one; the When-In-Use cutoff (the run's own cutoff
    /// after each lock) as a dashed line; a legend under it.
    static func timeline(run: ScenarioRun, ideal: ScenarioRun) -> String {
        let width = 900.0
        // The labels end at `left`: wide enough for the app's label, which carries the scenario's
        // name (a long one was clipped at the page's edge), and never more than a third of the
        // width; a longer label is cut, its whole text in its tooltip.
        let appLabel = "app (\(run.scenario))"
        let left = min(max(150, labelWidth(appLabel) + 16), 300)
        let span = max(run.traceEnd.seconds(since: run.traceStart), 1)
        func x(_ instant: SimInstant) -> Double {
            left + (width - left - 10) * min(max(instant.seconds(since: run.traceStart) / span, 0), 1)
        }
        let f = SVGWriter.number
        typealias Span = (start: SimInstant, end: SimInstant, kind: String)
        var bands: [(label: String, spans: [Span])] = []
        func phases(_ run: ScenarioRun) -> [Span] {
            zip(run.lifecycle, run.lifecycle.dropFirst().map(\.time) + [run.traceEnd]).map {
                ($0.time, $1, "phase-" + $0.phase.rawValue)
            }
        }
        func locks(_ run: ScenarioRun) -> [Span] {
            zip(run.lifecycle, run.lifecycle.dropFirst().map(\.time) + [run.traceEnd]).filter { $0.0.isScreenLocked }
                .map { ($0.0.time, $0.1, "locked") }
        }
        func motion(_ run: ScenarioRun) -> [Span] {
            let changes = run.recorder.motionTransitions
            return zip(changes, changes.dropFirst().map(\.time) + [run.traceEnd]).filter { $0.0.state == .moving }.map {
                ($0.0.time, $0.1, "moving")
            }
        }
        func gps(_ run: ScenarioRun) -> [Span] {
            run.gpsOn.intervals.map { ($0.start, min($0.end ?? run.traceEnd, run.traceEnd), "gps") }
        }
        func deliveries(_ run: ScenarioRun) -> [Span] {
            run.deliveryTimes.map { ($0, $0.advanced(byNanoseconds: 1), "delivery") }
        }
        bands.append(("location", authorization(run).status))
        bands.append(("reduced accuracy", authorization(run).reduced))
        bands.append(("prompts", prompts(run)))
        bands.append(("wakes, lapses", wakes(run)))
        bands.append((appLabel, phases(run)))
        bands.append(("screen locked", locks(run)))
        bands.append(("moving", motion(run)))
        bands.append(("GPS on", gps(run)))
        bands.append(("deliveries", deliveries(run)))
        bands.append((dropBandLabel, []))
        bands.append(("ideal: GPS on", gps(ideal)))
        bands.append(("ideal: deliveries", deliveries(ideal)))
        // Every band is 26 units tall from y = 10; the axis sits under the last one.
        let bottom = 10 + 26 * Double(bands.count)
        let height = bottom + 30
        var svg = SVGWriter(class: "timeline", width: width, height: height)
        for (index, band) in bands.enumerated() {
            let y = 10 + 26 * Double(index)
            let shown = fitted(band.label, width: left - 16)
            svg.add(
                "text", [("class", "label"), ("x", f(left - 8)), ("y", f(y + 13))],
                content: escape(shown) + (shown == band.label ? "" : SVGWriter.title(band.label)))
            if band.label == dropBandLabel {
                for (start, end, kind, title) in dropSpans(run) {
                    svg.add(
                        "rect",
                        [
                            ("class", kind), ("x", f(x(start))), ("y", f(y)), ("width", f(max(x(end) - x(start), 0.8))),
                            ("height", "18"),
                        ], content: SVGWriter.title(title))
                }
                continue
            }
            if band.spans.count > thinningThreshold, band.spans.allSatisfy({ $0.kind == "delivery" }) {
                for bar in thinnedDeliveries(band.spans.map { x($0.start) }) {
                    svg.add(
                        "rect",
                        [
                            ("class", "delivery"), ("x", f(bar.x)), ("y", f(y)), ("width", f(bar.width)),
                            ("height", "18"),
                        ], content: SVGWriter.title(bar.count == 1 ? "delivery" : "\(bar.count) deliveries"))
                }
                continue
            }
            for (start, end, kind) in band.spans where end > start {
                svg.add(
                    "rect",
                    [
                        ("class", kind), ("x", f(x(start))), ("y", f(y)), ("width", f(max(x(end) - x(start), 0.8))),
                        ("height", "18"),
                    ], content: SVGWriter.title(kind))
            }
        }
        let cutoffSeconds = run.device.parameters.whenInUseLockCutoffSeconds
        for lock in run.lifecycle.enumerated()
        where lock.element.isScreenLocked
            && (lock.offset == 0 || !run.lifecycle[lock.offset - 1].isScreenLocked)
        {
            let cutoff = lock.element.time.advanced(byNanoseconds: Int64(cutoffSeconds * 1e9))
            guard cutoff <= run.traceEnd, cutoffApplies(run, at: lock.element.time) else { continue }
            svg.add(
                "line",
                [("class", "cutoff"), ("x1", f(x(cutoff))), ("x2", f(x(cutoff))), ("y1", "4"), ("y2", f(bottom))])
            svg.add(
                "text", [("class", "cutoff-label"), ("x", f(x(cutoff) + 4)), ("y", f(bottom + 14))],
                content: "When-In-Use cutoff (lock + \(Formatting.short(cutoffSeconds)) s)")
        }
        for tick in 0...4 {
            let seconds = span * Double(tick) / 4
            let position = left + (width - left - 10) * Double(tick) / 4
            let anchor = tick == 0 ? "start" : tick == 4 ? "end" : "middle"
            svg.add(
                "text", [("class", "tick"), ("text-anchor", anchor), ("x", f(position)), ("y", f(height - 4))],
                content: Formatting.clock(seconds))
        }
        return svg.finished + legend + dropReasons(run)
    }

    /// About how wide `label` is drawn in the timeline's 12-pixel labels: 6.6 units a character,
    /// an average sans-serif advance that errs wide, since a label measured short is clipped.
    static func labelWidth(_ label: String) -> Double { 6.6 * Double(label.count) }

    /// `label`, cut with "…" to fit `width`.
    static func fitted(_ label: String, width: Double) -> String {
        guard labelWidth(label) > width else { return label }
        return String(label.prefix(max(Int(width / 6.6) - 1, 1))) + "…"
    }

    /// The band of fixes the phone kept from the app, each stretch titled with its rule.
    private static let dropBandLabel = "dropped (rule)"

    /// The classes the timeline draws, with what each means, in band order.
    static let legendEntries: [(kind: String, meaning: String)] = [
        ("auth-authorizedAlways", "Always"), ("auth-provisional", "provisional Always (behaves as When-In-Use)"),
        ("auth-authorizedWhenInUse", "When-In-Use"),
        ("auth-notDetermined", "not determined (incl. an Allow Once lapse)"),
        ("auth-denied", "denied"), ("auth-restricted", "restricted"), ("reduced", "reduced accuracy"),
        ("prompt", "prompt on screen"), ("suppressed", "request showed no prompt"), ("wake", "woken or relaunched"),
        ("lapse", "Allow Once lapsed"),
        ("terminated", "terminated"), ("phase-foreground", "foreground"), ("phase-background", "background"),
        ("phase-suspended", "suspended"), ("phase-forceQuit", "force-quit"),
        ("phase-terminatedBySystem", "terminated by the system"), ("locked", "screen locked"),
        ("moving", "engine moving"), ("gps", "GPS on"),
        ("delivery", "fix delivered"), ("drop", "fix dropped by a phone rule (named in its tooltip and below)"),
    ]

    private static var legend: String {
        "<p class=\"legend\">"
            + legendEntries.map {
                "<span class=\"entry\"><span class=\"key \($0.kind)\"></span>\(escape($0.meaning))</span>"
            }.joined(separator: " ")
            + "</p>"
    }

    /// The location status as spans from each change to the next, and the reduced-accuracy spans.
    private static func authorization(_ run: ScenarioRun) -> (
        status: [(start: SimInstant, end: SimInstant, kind: String)],
        reduced: [(start: SimInstant, end: SimInstant, kind: String)]
    ) {
        let changes = run.authorization.compactMap {
            change -> (SimInstant, AuthorizationStatus, AccuracyAuthorization, Bool)? in
            if case .location(let status, let accuracy, let provisional) = change.kind {
                return (change.time, status, accuracy, provisional)
            }
            return nil
        }
        var status: [(start: SimInstant, end: SimInstant, kind: String)] = []
        var reduced: [(start: SimInstant, end: SimInstant, kind: String)] = []
        for (index, change) in changes.enumerated() {
            let end = index + 1 < changes.count ? changes[index + 1].0 : run.traceEnd
            status.append((change.0, end, change.3 ? "auth-provisional" : "auth-" + change.1.name))
            if change.2 == .reducedAccuracy { reduced.append((change.0, end, "reduced")) }
        }
        return (status, reduced)
    }

    /// Each prompt from shown to answered (to the end when never answered); a suppressed request
    /// as a tick.
    private static func prompts(_ run: ScenarioRun) -> [(start: SimInstant, end: SimInstant, kind: String)] {
        var spans: [(start: SimInstant, end: SimInstant, kind: String)] = []
        var shown: SimInstant?
        for entry in run.promptLog {
            switch entry.outcome {
            case .shown: shown = entry.time
            case .answered:
                spans.append(
                    (shown ?? entry.time, max(entry.time, (shown ?? entry.time).advanced(byNanoseconds: 1)), "prompt"))
                shown = nil
            case .suppressed: spans.append((entry.time, entry.time.advanced(byNanoseconds: 1), "suppressed"))
            }
        }
        if let shown { spans.append((shown, run.traceEnd, "prompt")) }
        return spans
    }

    /// Wakes, background relaunches, Allow Once lapses and terminations as ticks.
    private static func wakes(_ run: ScenarioRun) -> [(start: SimInstant, end: SimInstant, kind: String)] {
        run.authorization.compactMap { change in
            switch change.kind {
            case .woken, .launched(_, inBackground: true): (change.time, change.time.advanced(byNanoseconds: 1), "wake")
            case .terminated: (change.time, change.time.advanced(byNanoseconds: 1), "terminated")
            case .allowOnceLapsed: (change.time, change.time.advanced(byNanoseconds: 1), "lapse")
            case .location, .motion, .suspended, .launched(_, inBackground: false): nil
            }
        }
    }

    /// Whether the When-In-Use cutoff can stop this run's updates after a lock at `time`: the
    /// app is told When In Use then (or a provisional Always, which behaves as When In Use
    /// until the upgrade is answered). An Always run has no cutoff to draw; a run whose
    /// timeline says nothing of location keeps the line, as before.
    static func cutoffApplies(_ run: ScenarioRun, at time: SimInstant) -> Bool {
        var status: (AuthorizationStatus, Bool)?
        for change in run.authorization where change.time <= time {
            if case .location(let told, _, let provisional) = change.kind { status = (told, provisional) }
        }
        guard let (told, provisional) = status else { return true }
        return told == .authorizedWhenInUse || (told == .authorizedAlways && provisional)
    }
}
