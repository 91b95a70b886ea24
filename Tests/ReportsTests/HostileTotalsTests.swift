import Engine
import Testing

@testable import Reports
@testable import Scenarios

/// Saved runs are read back with each count at most 9e15 and each number as large as a Double
/// goes; what the tables add up from a crafted file must print, never trap.
@Suite("Totals of hostile saved runs")
struct HostileTotalsTests {
    /// A row whose counts are the largest a run line may hold.
    static func row(_ scenario: Int) -> MatrixTable.Row {
        var metrics = Metrics()
        metrics.acceptedFixes = 9_000_000_000_000_000
        metrics.idealAcceptedFixes = 9_000_000_000_000_000
        metrics.rejectedByReason = [Metrics.ReasonCount(reason: "accuracy", count: 9_000_000_000_000_000)]
        metrics.distanceMeters = 1e300
        metrics.coveredSeconds = 1e300
        metrics.gpsOnSeconds = .greatestFiniteMagnitude
        metrics.maxGapSeconds = 1e300
        metrics.idealDistanceMeters = 1e300
        metrics.idealCoveredSeconds = 1e300
        metrics.idealGpsOnSeconds = .greatestFiniteMagnitude
        return MatrixTable.Row(
            trace: "t\(scenario)", scenarioIndex: 0, seed: 0, metrics: metrics,
            reference: ReferenceMetrics(name: "ideal", maxGapSeconds: 1e300, rejectedFixes: 0, departed: true),
            diagnostics: [MatrixTable.DiagnosticCount(message: "late", count: 9_000_000_000_000_000)],
            droppedDiagnostics: DroppedDiagnostics(
                messages: 9_000_000_000_000_000, occurrences: 9_000_000_000_000_000))
    }

    @Test("diagnostics of 1,100 runs of 9e15 each are totalled at Int.max")
    func diagnosticTotalsSaturate() {
        let runs = (0..<1_100).map { _ in
            (
                [MatrixTable.DiagnosticCount(message: "late", count: 9_000_000_000_000_000)],
                DroppedDiagnostics(messages: 9_000_000_000_000_000, occurrences: 9_000_000_000_000_000)
            )
        }
        let lines = DiagnosticsReport.summaryLines(runs)
        #expect(lines.count == 2)
        #expect(lines[0] == "engine diagnostic (warning): \(Int.max)× late, in 1100 runs")
        #expect(lines[1].hasPrefix("engine diagnostics not kept: \(Int.max) distinct messages (\(Int.max) times)"))
    }

    @Test("the tables of 1,100 hostile rows print in every format")
    func tablesPrint() {
        var table = MatrixTable(scenarios: ["s"])
        for index in 0..<1_100 { table.append(Self.row(index)) }
        let summary = MetricsSummary(table.rows.map(\.metrics))
        #expect(summary.rejected == Int.max)
        let footer = MatrixReport.footer(table)
        #expect(footer.contains { $0.contains("\(Int.max) accepted fixes") }, "\(footer)")
        #expect(MatrixReport.text(table).contains("inf"))
        #expect(!MatrixReport.markdown(table, perTrace: true).isEmpty)
        #expect(!MatrixReport.html(table, perTrace: true).isEmpty)
    }

    @Test("numbers beyond Int64 print as Swift writes the Double", arguments: [1e300, -1e19, .infinity, .nan])
    func hugeNumbers(value: Double) {
        #expect(Formatting.fixed(value, 2) == String(value))
        #expect(Formatting.duration(value) == String(value) + " s")
        #expect(Formatting.compactDuration(value) == String(value) + " s")
        #expect(Formatting.seconds(value) == String(value) + " s")
        #expect(Formatting.clock(value) == "+" + String(value) + " s")
    }

    @Test("ordinary numbers print as before")
    func ordinaryNumbers() {
        #expect(Formatting.fixed(2.345, 2) == "2.35")
        #expect(Formatting.fixed(-0.004, 2) == "0.00")
        #expect(Formatting.duration(3_725) == "1 h 02 min")
        #expect(Formatting.clock(3_725) == "+1:02:05")
    }

    @Test("saturating addition holds at the bounds and adds exactly below them")
    func saturation() {
        #expect(Int.max.addingSaturating(1) == .max)
        #expect(Int.min.addingSaturating(-1) == .min)
        #expect(40.addingSaturating(2) == 42)
        #expect([Int.max, 1, -5].saturatingSum() == Int.max - 5)
        #expect([1, 2, 3].saturatingSum() == 6)
    }
}
