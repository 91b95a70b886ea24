import Reports
import Scenarios
import Testing

/// The rows a matrix's tables are printed from, and the ideal rows made of them.
@Suite("Matrix table")
struct MatrixTableTests {
    /// A run that collected `accepted` of the ideal run's 100 fixes.
    static func row(_ trace: String, _ scenario: Int, accepted: Int, reference: String = "ideal") -> MatrixTable.Row {
        var metrics = Metrics()
        metrics.acceptedFixes = accepted
        metrics.idealAcceptedFixes = 100
        metrics.gpsOnSeconds = Double(accepted)
        metrics.idealGpsOnSeconds = 100
        metrics.maxGapSeconds = 1
        metrics.departureDelaySeconds = 0
        return MatrixTable.Row(
            trace: trace, scenarioIndex: scenario, seed: 0, metrics: metrics,
            reference: ReferenceMetrics(name: reference, maxGapSeconds: 1, rejectedFixes: 0, departed: true))
    }

    @Test("a scenario named ideal that measures otherwise keeps the reference row; one that measures the same drops it")
    func scenarioNamedIdeal() {
        var other = MatrixTable(scenarios: ["ideal", "denied"])
        other.append(Self.row("t", 0, accepted: 106))
        other.append(Self.row("t", 1, accepted: 0))
        #expect(other.idealMetrics.map(\.scenario) == ["ideal"])
        var same = MatrixTable(scenarios: ["ideal", "denied"])
        same.append(Self.row("t", 0, accepted: 100))
        same.append(Self.row("t", 1, accepted: 0))
        #expect(same.idealMetrics.isEmpty)
    }

    @Test("a file given twice is two traces; ideal runs that measure differently get their own named rows")
    func tracesAndReferences() {
        var table = MatrixTable(scenarios: ["a", "b"])
        for trace in ["t", "t"] {
            table.append(Self.row(trace, 0, accepted: 50))
            table.append(Self.row(trace, 1, accepted: 10, reference: "ideal for b"))
        }
        #expect(table.traces == ["t", "t"])
        #expect(table.metricsByTrace.count == 2)
        // Both ideal runs measure the same here: one row, named ideal.
        #expect(table.idealMetrics.map(\.scenario) == ["ideal"])
        var differing = MatrixTable(scenarios: ["a", "b"])
        differing.append(Self.row("t", 0, accepted: 50))
        var own = Self.row("t", 1, accepted: 10, reference: "ideal for b")
        own.reference.maxGapSeconds = 30
        differing.append(own)
        #expect(differing.idealMetrics.map(\.scenario) == ["ideal", "ideal for b"])
    }
}
