import Fleet
import Foundation
import Reports
import Scenarios
import Testing
import Traces

/// The HTML reports are one self-contained file each; these count the SVG elements they must hold.
@Suite("HTML reports")
struct HTMLReportTests {
    static let drive = Fixture.repositoryRoot.appendingPathComponent(
        "Traces/gps-measurement-tools/MTV.Local1.ublox-F9K.20200206-181434.nmea"
    ).path

    private func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    private func page(_ trace: Trace, _ scenario: Scenario, fences: Bool) throws -> (String, Matrix.Cell) {
        let fences = fences ? try Fixture.fences() : []
        let matrix = Matrix(
            traces: [Matrix.NamedTrace(name: "drive", trace: trace)], scenarios: [Matrix.Entry(scenario)],
            fences: fences)
        let cell = try #require(try matrix.run().cells.first)
        let html = HTMLReport.run(
            cell.run, ideal: cell.ideal, metrics: cell.metrics, trace: trace, named: "drive", fences: fences)
        return (html, cell)
    }

    @Test("the run page: one circle per trace fix coloured by fate, the fences, twelve bands, the cutoff, the legend")
    func runPage() throws {
        let trace = try TraceImporter.load(path: Self.drive)
        let (html, cell) = try page(trace, Fixture.preset("wheninuse-locked"), fences: true)
        #expect(html.hasPrefix("<!DOCTYPE html>") && !html.contains("<script") && !html.contains("http://www.w3.org/1999"))
        let accepted = count("<circle class=\"accepted\"", in: html)
        let rejected = count("<circle class=\"rejected\"", in: html)
        let missed = count("<circle class=\"missed\"", in: html)
        #expect(accepted == cell.metrics.acceptedFixes)
        #expect(accepted + rejected == cell.metrics.deliveredFixes)
        #expect(accepted + rejected + missed == 1654)
        #expect(count("class=\"fence\"", in: html) == 2)
        // Location status, reduced accuracy, prompts, wakes, then the seven lifecycle and delivery
        // bands, and the fixes dropped with their rule.
        #expect(count("<text class=\"label\"", in: html) == 12)
        #expect(html.contains("<rect class=\"auth-authorizedWhenInUse\""))
        #expect(html.contains("<span class=\"key auth-authorizedAlways\"></span>Always"))
        #expect(count("<line class=\"cutoff\"", in: html) == 1)
        #expect(html.contains(">When-In-Use cutoff (lock + 70 s)</text>"))
        #expect(count("<svg ", in: html) == 2)
    }

    @Test("the cutoff line is drawn at the run's own cutoff, not a fixed 70 s")
    func cutoffFollowsTheDevice() throws {
        var scenario = Fixture.preset("wheninuse-locked")
        let (standard, _) = try page(Fixture.trace, scenario, fences: false)
        scenario.device.parameters.whenInUseLockCutoffSeconds = 30
        let (shorter, cell) = try page(Fixture.trace, scenario, fences: false)
        #expect(cell.run.device.parameters.whenInUseLockCutoffSeconds == 30)
        #expect(shorter.contains(">When-In-Use cutoff (lock + 30 s)</text>"))
        func cutoffX(_ html: String) -> Double? {
            guard let range = html.range(of: "<line class=\"cutoff\" x1=\"") else { return nil }
            return Double(html[range.upperBound...].prefix { $0 != "\"" })
        }
        let (early, late) = (try #require(cutoffX(shorter)), try #require(cutoffX(standard)))
        // 40 s earlier on a 838 s trip drawn 728.8 units wide: 900 less the margin and the labels,
        // 161.2 for "app (wheninuse-locked)".
        #expect(abs((late - early) - 40.0 / 838 * 728.8) < 0.2, "\(early) \(late)")
    }

    @Test("the heatmap reddens past the ideal: a GPS cost of 4× the ideal is as red as none")
    func heatmapPastTheIdeal() throws {
        // A run whose GPS ran four times its ideal run's (a keep-alive paying for every minute).
        // Written as a table's row: since issue 31 no bundled trace gives a run twice its ideal's
        // GPS over observed time, the keep-alive's hours in unobserved gaps being left out.
        var metrics = Metrics()
        metrics.acceptedFixes = 10
        metrics.idealAcceptedFixes = 10
        metrics.gpsOnSeconds = 400
        metrics.idealGpsOnSeconds = 100
        metrics.observedSeconds = 400
        // Every other column at its ideal, so only the GPS cell can be red.
        (metrics.coveredSeconds, metrics.idealCoveredSeconds, metrics.traceCoveredSeconds) = (100, 100, 100)
        (metrics.distanceMeters, metrics.idealDistanceMeters) = (1000, 1000)
        (metrics.keptPathMeters, metrics.idealKeptPathMeters, metrics.tracePathMeters) = (1000, 1000, 1000)
        var table = MatrixTable(scenarios: ["always-prevent-suspend"])
        table.append(
            MatrixTable.Row(
                trace: "doriel", scenarioIndex: 0, seed: 0, metrics: metrics,
                reference: ReferenceMetrics(name: "ideal", maxGapSeconds: 0, rejectedFixes: 0, departed: true)))
        let gps = try #require(MetricsSummary(table.metricsByScenario[0].metrics).gpsVsIdeal)
        #expect(gps == 4)
        let fills = MatrixReport.html(table).components(separatedBy: "fill=\"").dropFirst().map { $0.prefix(16) }
        #expect(fills.contains { $0.hasPrefix("hsl(0,") })
    }

    @Test("the matrix page: a heatmap cell per scenario and metric, the ideal row first, the formulas under it")
    func matrixPage() throws {
        let trace = try TraceImporter.load(path: Self.drive)
        let matrix = Matrix(
            traces: [Matrix.NamedTrace(name: "drive", trace: trace)],
            scenarios: Scenario.presets.filter { $0.name != "ideal" }.map { Matrix.Entry($0) })
        let result = try matrix.run()
        let html = MatrixReport.html(result)
        // A row per scenario and one ideal row: the countermeasures are left out of the ideal run,
        // and the automatic-pause engine's ideal run measures the same on this drive.
        #expect(MatrixTable(result).idealMetrics.map(\.scenario) == ["ideal"])
        let rows = Scenario.presets.count - 1 + MatrixTable(result).idealMetrics.count
        #expect(count("<rect class=\"cell\"", in: html) == rows * 6, "four columns against the ideal run, two against the trace")
        #expect(count("<text class=\"label\"", in: html) == rows)
        #expect(html.contains(">ideal</text>") && html.contains(">wheninuse-locked</text>"))
        #expect(html.contains("<li>collected = Σ accepted fixes ÷ Σ ideal accepted fixes</li>"))
        let perTrace = MatrixReport.html(result, perTrace: true)
        #expect(count("<rect class=\"cell\"", in: perTrace) == 2 * rows * 6)
        #expect(perTrace.contains("<h2>drive</h2>"))
    }
}

@Suite("Wizard storyboard and lifecycle time")
struct StoryboardTests {
    static let bike = Fixture.repositoryRoot.appendingPathComponent("Traces/gpsbabel/bike.tcx").path

    @Test("a scenario running the wizard gets a storyboard frame per page and one for the close; phase seconds add up")
    func storyboard() throws {
        let file = #"""
            {"name": "wizard-onboarding", "device": {"authorization": {"location": "notDetermined", "motion": "notDetermined"}},
             "authorization": {"flow": "wizard", "user": {"answers": [{"prompt": "location", "answer": "allowWhileUsing", "afterSeconds": 3},
               {"prompt": "upgrade", "answer": "changeToAlwaysAllow", "afterSeconds": 2}, {"prompt": "motion", "answer": "allow"}]}},
             "timeline": [{"at": 120, "event": "lock"}]}
            """#
        let scenario = try ScenarioFile.parse(Array(file.utf8), file: "wizard.json").scenario
        let trace = try TraceImporter.load(path: Self.bike)
        func page(_ scenario: Scenario) throws -> (String, ScenarioRun) {
            let matrix = Matrix(
                traces: [Matrix.NamedTrace(name: "bike", trace: trace)], scenarios: [Matrix.Entry(scenario)])
            let cell = try #require(try matrix.run().cells.first)
            let html = HTMLReport.run(
                cell.run, ideal: cell.ideal, metrics: cell.metrics, trace: trace, named: "bike", fences: [])
            return (html, cell.run)
        }
        let (html, run) = try page(scenario)
        #expect(html.components(separatedBy: "<rect class=\"frame").count - 1 == 4)
        #expect(html.contains("<rect class=\"frame granted\""))
        let (preset, _) = try page(Fixture.preset("always-precise"))
        #expect(!preset.contains("class=\"storyboard\""))
        // Tracking starts when the flow settles; the whole 1814 s ride, the flow's part included,
        // is split between phases.
        #expect(run.flowSeconds > 5 && run.flowSeconds < 30)
        let phases = run.secondsByPhase
        #expect(abs(phases.reduce(0) { $0 + $1.seconds } - 1814) < 0.01, "\(phases)")
        #expect((phases.first { $0.phase == .foreground }?.seconds ?? 0) >= run.flowSeconds)
        #expect((phases.first { $0.phase == .background }?.seconds ?? 0) > 1500)
    }
}
