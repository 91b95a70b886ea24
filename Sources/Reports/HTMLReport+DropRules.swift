import Device
import Foundation
import Scenarios
import SimulationCore

extension HTMLReport {
    /// The timeline band of drops: a span per stretch of fixes one rule kept from the app, its
    /// tooltip naming the rule.
    static func dropSpans(_ run: ScenarioRun) -> [(start: SimInstant, end: SimInstant, kind: String, title: String)] {
        run.locationDrops.map { span in
            (
                span.start, max(span.end, span.start.advanced(byNanoseconds: 1)), "drop",
                "\(span.rule.rawValue): \(span.count) fix\(span.count == 1 ? "" : "es") dropped"
            )
        }
    }

    /// Why fixes did not reach the app: a line per rule that dropped some, in the order each
    /// first did, with the rule's name (as `tracesim rules` prints it), what it says, how many
    /// fixes it dropped and from when, and what follows from it (`consequence`). Empty when
    /// every fix was delivered.
    static func dropReasons(_ run: ScenarioRun) -> String {
        var rules: [(rule: DeviceRule, count: Int, stretches: Int, first: SimInstant)] = []
        for span in run.locationDrops {
            if let index = rules.firstIndex(where: { $0.rule == span.rule }) {
                rules[index].count += span.count
                rules[index].stretches += 1
            } else {
                rules.append((span.rule, span.count, 1, span.start))
            }
        }
        guard !rules.isEmpty else { return "" }
        let items = rules.map { entry in
            let first = Formatting.clock(max(entry.first.seconds(since: run.traceStart), 0))
            let stretches = entry.stretches == 1 ? "" : " in \(entry.stretches) stretches"
            // The rule names in the consequence are set as code, like the rule's own.
            var consequence = escape(consequence(of: entry.rule, run.device.parameters).map { " " + $0 } ?? "")
            for rule in [DeviceRule.forceQuitNoRelaunchOnIOS26, .forceQuitRelaunchOnLocationEvents] {
                consequence = consequence.replacingOccurrences(of: rule.rawValue, with: "<code>\(rule.rawValue)</code>")
            }
            return "<li><code>\(escape(entry.rule.rawValue))</code>: \(escape(entry.rule.info.summary)) "
                + "\(entry.count) fix\(entry.count == 1 ? "" : "es") dropped\(stretches), from \(first)."
                + "\(consequence)</li>"
        }
        return "<h3>Why fixes did not reach the app</h3><ul class=\"why\">" + items.joined() + "</ul>"
    }

    /// What follows from a drop that the rule's own sentence does not say: after a force quit,
    /// whether anything will relaunch the app on this phone's OS profile (and the rule that
    /// decides it), since the page otherwise shows the app going dark with no word on whether
    /// it comes back.
    static func consequence(of rule: DeviceRule, _ parameters: DeviceParameters) -> String? {
        guard rule == .forceQuitStopsEverything else { return nil }
        let region = parameters.relaunchesAfterForceQuit(for: .regionEvent)
        let significant = parameters.relaunchesAfterForceQuit(for: .significantChange)
        let profile = parameters.osProfile.rawValue
        switch (region, significant) {
        case (false, false):
            // The profile decides unless a parameter overrides it (`forceQuitRelaunchRefusal`).
            let decidedByProfile =
                parameters.regionRelaunchAfterForceQuit == nil
                && parameters.significantChangeRelaunchAfterForceQuit == nil
            return "Nothing will relaunch the app: "
                + (decidedByProfile
                    ? "\(DeviceRule.forceQuitNoRelaunchOnIOS26.rawValue) (\(profile)): "
                        + DeviceRule.forceQuitNoRelaunchOnIOS26.info.summary
                    : "this phone's parameters turn off relaunches after a force quit; it stays gone until the "
                        + "person opens it.")
        case (true, true):
            return "\(DeviceRule.forceQuitRelaunchOnLocationEvents.rawValue) (\(profile)): a region or "
                + "significant-change event relaunches an Always app into the background; nothing else will."
        case (true, false), (false, true):
            return "Only a \(region ? "region" : "significant-change") event relaunches an Always app into the "
                + "background on this phone; nothing else will."
        }
    }
}
