import ConfigJSON
import Reports
import Scenarios
import Testing

/// The metric table: one declaration per metric, and every output reading it.
@Suite("Metric definitions")
struct MetricDefinitionTests {
    /// Metrics with every numeric field a different value, set through the fields' names (by
    /// reflection, not through the table), so a declaration pointing at the wrong field shows.
    static func distinctMetrics() -> Metrics {
        var metrics = Metrics()
        metrics.recordedFixes = 1
        metrics.deliveredFixes = 2
        metrics.acceptedFixes = 3
        metrics.idealAcceptedFixes = 4
        metrics.collectionRatio = 0.05
        metrics.timeCoverage = 0.06
        metrics.coveredSeconds = 7.5
        metrics.idealCoveredSeconds = 8.5
        metrics.maxGapSeconds = 9.5
        metrics.maxGapStartSeconds = 10.5
        metrics.distanceMeters = 11.25
        metrics.idealDistanceMeters = 12.25
        metrics.distanceRatio = 0.13
        metrics.rejectedByReason = [Metrics.ReasonCount(reason: "accuracy", count: 14)]
        metrics.geofenceEvents = 15
        metrics.geofenceMissed = 16
        metrics.geofenceSpurious = 17
        metrics.geofenceMeanDelaySeconds = 18.5
        metrics.geofenceMaxDelaySeconds = 19.5
        metrics.departureDelaySeconds = 20.5
        metrics.arrivalDelaySeconds = 21.5
        metrics.missedStops = 22
        metrics.gpsOnSeconds = 23.5
        metrics.idealGpsOnSeconds = 24.5
        metrics.positionErrorMedianMeters = 25.5
        metrics.positionErrorP95Meters = 26.5
        metrics.positionErrorReference = .truth
        metrics.keptPathMeters = 27.25
        metrics.idealKeptPathMeters = 28.25
        metrics.tracePathMeters = 29.25
        metrics.traceCoveredSeconds = 30.5
        metrics.tracePathRatio = 0.31
        metrics.traceTimeCoverage = 0.32
        metrics.gpsHoursPerObservedHour = 0.33
        metrics.observedSeconds = 34.5
        metrics.unobservedSeconds = 35.5
        metrics.travelledUnobservedSeconds = 36.5
        return metrics
    }

    /// Each stored property of `Metrics` by its label: the run JSON's key by convention. The
    /// position error's reference is no metric (a word, not a number): the run writes it beside
    /// its `metrics`.
    static func fields(_ metrics: Metrics) -> [(label: String, value: Any)] {
        Mirror(reflecting: metrics).children.compactMap { child in child.label.map { ($0, child.value) } }
            .filter { $0.label != "positionErrorReference" }
    }

    @Test("every field of Metrics is declared once, under its own name, in the order the run JSON writes")
    func everyFieldDeclared() {
        let names = MetricDefinition.run.map(\.name)
        #expect(Set(names).count == names.count, "a name is declared twice")
        let labels = Self.fields(Metrics()).map(\.label)
        #expect(Set(labels) == Set(names), "fields without a declaration, or declarations without a field")
        #expect(MetricDefinition.named("recordedDistanceRatio") == nil, "a pool's metric is not a run's")
        for metric in MetricDefinition.run { #expect(MetricDefinition.named(metric.name) == metric) }
    }

    @Test("each declaration reads the field of its name")
    func declarationsReadTheirField() {
        let metrics = Self.distinctMetrics()
        for (label, value) in Self.fields(metrics) {
            guard let metric = MetricDefinition.named(label) else {
                Issue.record("no declaration for \(label)")
                continue
            }
            let expected: Double? =
                switch value {
                case let count as Int: Double(count)
                case let number as Double: number
                case let optional as Double?: optional
                default: nil  // the rejections by reason: no single number
                }
            #expect(metric.value(in: metrics) == expected, "\(label)")
            #expect(metric.isMeasure == (expected != nil && label != "maxGapStartSeconds"), "\(label)")
        }
    }

    @Test("a run's metrics written and read back as summarize reads them are the same values, rounded as written")
    func writtenAndReadBack() throws {
        let cell = try #require(try Fixture.matrix().run().cells.first)
        var written = cell
        written.metrics = Self.distinctMetrics()
        let line = MatrixReport.jsonRun(written, trace: "a.csv")
        let row = try MatrixTable.Row(runJSON: Array(line.utf8)[...], scenarioIndex: 0, file: "runs.jsonl", line: 1)
        #expect(row.metrics == Self.distinctMetrics())
        // Every declared metric is a key of the run's `metrics`, in the table's order.
        let keys = MetricDefinition.run.map { "\"\($0.name)\":" }
        var position = line.startIndex
        for key in keys {
            let found = try #require(line.range(of: key, range: position..<line.endIndex), "\(key)")
            position = found.upperBound
        }
    }

    @Test("tune's metrics take their name, unit, direction and pooling from the table")
    func tuneReadsTheTable() {
        for metric in Tuning.Metric.allCases {
            let definition = metric.definition
            #expect(metric.rawValue == definition.name)
            #expect(Tuning.Metric(rawValue: definition.name) == metric)
            #expect(definition.direction != .unranked, "\(metric): an objective needs a direction")
            #expect(metric.defaultDirection == (definition.direction == .higherIsBetter ? .max : .min))
            #expect(metric.needsTruth == definition.needsTruth)
            #expect(metric.pooling == definition.pooling.description)
            if metric != .recordedDistanceRatio { #expect(MetricDefinition.named(metric.rawValue) == definition) }
        }
        #expect(Tuning.Metric(rawValue: "maxGapStartSeconds") == nil)
    }

    @Test("check takes a threshold on each measure, and refuses the other keys naming the measures")
    func checkReadsTheTable() throws {
        for metric in MetricDefinition.measures {
            let text = #"{"thresholds": [{"scenario": "*", "metric": "\#(metric.name)", "min": 0}]}"#
            let expectations = try Expectations.parse(Array(text.utf8), file: "expect.json")
            #expect(expectations.thresholds[0].metric == metric)
        }
        let text = #"{"thresholds": [{"scenario": "*", "metric": "maxGapStartSeconds", "min": 0}]}"#
        let error = #expect(throws: ConfigError.self) {
            try Expectations.parse(Array(text.utf8), file: "expect.json")
        }
        let names = MetricDefinition.measures.map(\.name).joined(separator: ", ")
        #expect(error?.message.hasSuffix("'maxGapStartSeconds' is not one of: " + names) == true, "\(String(describing: error))")
    }
}
