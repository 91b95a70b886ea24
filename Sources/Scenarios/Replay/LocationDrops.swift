import Device
import SimulationCore

/// Where the phone kept recorded fixes from the app, and by which rule: a span per stretch of
/// fixes one rule dropped with no delivery between them, so a report can name the rule where a
/// drop starts ("force quit: nothing is delivered until relaunch").
///
/// Only changes are kept: a drop that goes on under the same rule moves its span's end, so a
/// long replay keeps as many spans as the drops changed rule or were broken by a delivery.
public struct LocationDrops: Sendable, Equatable {
    /// Fixes one rule kept from the app in a row.
    public struct Span: Sendable, Equatable {
        /// Why the fixes did not reach the app.
        public var rule: DeviceRule
        /// When the first of them was dropped.
        public var start: SimInstant
        /// When the last of them was dropped.
        public var end: SimInstant
        /// How many were dropped.
        public var count: Int
    }

    /// The spans in time order.
    public private(set) var spans: [Span] = []
    /// Deliveries so far when the last drop was noted: a delivery since then breaks the span.
    private var deliveriesAtLastDrop = -1

    /// No drops yet.
    public init() {}

    /// Notes that `rule` kept a fix from the app at `time`, after `deliveries` deliveries in all.
    /// - Complexity: O(1) amortized.
    @usableFromInline mutating func dropped(_ rule: DeviceRule, at time: SimInstant, deliveries: Int) {
        if let last = spans.indices.last, spans[last].rule == rule, deliveries == deliveriesAtLastDrop {
            spans[last].end = time
            spans[last].count += 1
        } else {
            spans.append(Span(rule: rule, start: time, end: time, count: 1))
        }
        deliveriesAtLastDrop = deliveries
    }
}
