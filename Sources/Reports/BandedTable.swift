import Device
import Fleet
import Scenarios

/// The degradation table with a range on every figure (`matrix --bands`): each scenario's pooled
/// figures at its own parameters, and the lowest and highest the same figure reads across the
/// band variants (`BandedMatrix`), filled from the expanded matrix's runs.
public struct BandedTable: Sendable {
    /// One figure of one row: the value, the two corners, and the range over every variant.
    public struct Figure: Sendable, Equatable {
        /// At the scenario's own parameters (every band at its default).
        public var value: Double?
        /// At the all-pessimistic corner.
        public var pessimistic: Double?
        /// At the all-optimistic corner.
        public var optimistic: Double?
        /// The lowest over the default, each band's two ends and the two corners.
        public var low: Double?
        /// The highest over the same runs.
        public var high: Double?

        /// A figure; a value alone is firm (no range).
        public init(
            value: Double? = nil, pessimistic: Double? = nil, optimistic: Double? = nil, low: Double? = nil,
            high: Double? = nil
        ) {
            self.value = value
            self.pessimistic = pessimistic
            self.optimistic = optimistic
            self.low = low
            self.high = high
        }
    }

    /// One scenario: its figures in `BandedColumn.all` order, and its summary in every variant.
    public struct Row: Sendable {
        /// The scenario's name.
        public var scenario: String
        /// The pooled figures, one per column.
        public var figures: [Figure]
        /// The pooled summary in each variant, in `BandedMatrix.variants` order.
        public var byVariant: [MetricsSummary]
    }

    /// How far one band moves a row's collected figure.
    public struct Sensitivity: Sendable, Equatable {
        /// The band's name.
        public var band: String
        /// Collected at the band's pessimistic end.
        public var pessimistic: Double?
        /// Collected at the band's optimistic end.
        public var optimistic: Double?
        /// The spread between the lowest and highest of the default and the two ends, in
        /// percentage points.
        public var points: Double
    }

    /// The bands and variants that ran.
    public var plan: BandedMatrix
    /// The table of the scenarios as given: the plain matrix's table, byte for byte.
    public var plain: MatrixTable
    /// A row per scenario as given.
    public var rows: [Row]

    /// The banded table of `table`, a table of the expanded matrix's runs (`plan.matrix`).
    public init(_ table: MatrixTable, plan: BandedMatrix) {
        self.plan = plan
        let summaries = table.metricsByScenario.map { MetricsSummary($0.metrics) }
        var plain = MatrixTable(scenarios: plan.scenarioNames)
        let asGiven = plan.slots.map { $0[0] }
        for row in table.rows {
            guard let scenario = asGiven.firstIndex(of: row.scenarioIndex) else { continue }
            var kept = row
            kept.scenarioIndex = scenario
            plain.append(kept)
        }
        self.plain = plain
        let corners = DisputedBand.End.allCases.map { end in plan.variants.firstIndex(of: .corner(end)) ?? 0 }
        rows = zip(plan.scenarioNames, plan.slots).map { name, slots in
            let byVariant = slots.map { summaries.indices.contains($0) ? summaries[$0] : MetricsSummary([]) }
            let figures = BandedColumn.all.map { column in
                let values = byVariant.compactMap(column.value)
                return Figure(
                    value: column.value(byVariant[0]), pessimistic: column.value(byVariant[corners[0]]),
                    optimistic: column.value(byVariant[corners[1]]), low: values.min(), high: values.max())
            }
            return Row(scenario: name, figures: figures, byVariant: byVariant)
        }
    }

    /// Each band with how far it moves `row`'s collected figure, the largest first (the
    /// catalogue's order between equals).
    public func sensitivity(_ row: Row) -> [Sensitivity] {
        let value = row.byVariant[0].collected
        let moves = plan.bands.indices.map { index in
            let ends = DisputedBand.End.allCases.map { end in
                plan.variants.firstIndex(of: .band(index, end)).flatMap { row.byVariant[$0].collected }
            }
            let known = ([value] + ends).compactMap { $0 }
            let points = ((known.max() ?? 0) - (known.min() ?? 0)) * 100
            return Sensitivity(
                band: plan.bands[index].name, pessimistic: ends[0], optimistic: ends[1], points: points)
        }
        return moves.enumerated().sorted { ($0.element.points, -$0.offset) > ($1.element.points, -$1.offset) }
            .map(\.element)
    }
}

/// A column of the banded table: the plain table's columns (`RunReport.table`), each read
/// from a pooled summary and written as the plain table writes it, with its range beside it.
public struct BandedColumn: Sendable {
    /// The header, as the plain table's.
    public var header: String
    /// The key in `matrix --bands --format json`.
    public var key: String
    /// The figure in a pooled summary.
    public var value: @Sendable (MetricsSummary) -> Double?
    /// The figure as the plain table writes it.
    let text: @Sendable (Double) -> String
    /// A range end: as `text`, without a unit the value beside it already names.
    let rangeText: @Sendable (Double) -> String
    /// Decimals in the JSON.
    let digits: Int

    /// The plain table's columns, in its order.
    public static let all: [BandedColumn] = [
        share("collected", "collected") { $0.collected },
        // The plain table writes a missing coverage as 0.
        share("coverage", "coverage") { $0.coverage ?? 0 },
        share("distance", "distance") { $0.distance },
        share("median", "medianDistance") { $0.medianDistance },
        BandedColumn(
            header: "longest gap", key: "longestGapSeconds", value: { $0.medianLongestGapSeconds },
            text: Formatting.duration, rangeText: Formatting.duration, digits: 3),
        BandedColumn(
            header: "departure", key: "departureDelaySeconds", value: { $0.departureDelaySeconds },
            text: Formatting.signedDelay, rangeText: Formatting.signedDelay, digits: 3),
        share("GPS vs ideal", "gpsVsIdeal") { $0.gpsVsIdeal },
        share("median", "medianGpsVsIdeal") { $0.medianGpsVsIdeal },
        BandedColumn(
            header: "GPS h/h", key: "gpsHoursPerObservedHour", value: { $0.gpsHoursPerObservedHour },
            text: { Formatting.fixed($0, 2) }, rangeText: { Formatting.fixed($0, 2) }, digits: 4),
        BandedColumn(
            header: "rejected", key: "rejected", value: { Double($0.rejected) },
            text: { Formatting.fixed($0, 0) }, rangeText: { Formatting.fixed($0, 0) }, digits: 0),
        share("trace path", "tracePath") { $0.tracePath },
        share("median", "medianTracePath") { $0.medianTracePath },
        share("trace time", "traceTime") { $0.traceTime },
    ]

    private static func share(
        _ header: String, _ key: String, _ value: @escaping @Sendable (MetricsSummary) -> Double?
    ) -> BandedColumn {
        BandedColumn(
            header: header, key: key, value: value, text: Formatting.percent,
            rangeText: { Formatting.fixed($0 * 100, 1) }, digits: 4)
    }

    /// The cell: the value, and `(low–high)` after it unless every variant reads the same; `-`
    /// without a value.
    public func cell(_ figure: BandedTable.Figure) -> String {
        guard let value = figure.value else { return "-" }
        let shown = text(value)
        guard let low = figure.low, let high = figure.high else { return shown }
        let (lowText, highText) = (rangeText(low), rangeText(high))
        if lowText == rangeText(value) && highText == lowText { return shown }
        return "\(shown) (\(lowText)–\(highText))"
    }
}
