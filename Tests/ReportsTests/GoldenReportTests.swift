import Device
import Engine
import Fleet
import Foundation
import Geometry
import Permissions
import Reports
import Scenarios
import SimulationCore
import Testing
import Traces

/// Every renderer in every format, byte for byte against Tests/ReportsTests/Golden/: a change
/// that moves a report's output shows up here as the first line that differs.
@Suite("Golden reports")
struct GoldenReportTests {
    @Test("run: JSON, degradation table, Markdown, CSV and the HTML page")
    func run() throws {
        let result = try Fixture.matrix().run(jobs: 1)
        let cell = try #require(result.cells.first { $0.run.scenario == "wheninuse-locked" })
        Golden.check(RunReport.json(trace: Fixture.name, run: cell.run, metrics: cell.metrics), "run.json")
        Golden.check(RunReport.table([ScenarioMetrics(scenario: cell.run.scenario, metrics: [cell.metrics])]), "run.txt")
        var measured = cell.metrics
        measured.measureError(of: cell.run, against: Fixture.trace)
        Golden.check(RunReport.text(trace: Fixture.name, run: cell.run, metrics: measured), "run-truth.txt")
        Golden.check(RunReport.markdownTable([ScenarioMetrics(scenario: cell.run.scenario, metrics: [cell.metrics])]), "run.md")
        Golden.check(
            RunReport.csv([
                RunReport.Row(trace: Fixture.name, scenario: cell.run.scenario, seed: cell.run.seed, metrics: cell.metrics)
            ]), "run.csv")
        Golden.check(
            HTMLReport.run(
                cell.run, ideal: cell.ideal, metrics: cell.metrics, trace: Fixture.trace, named: Fixture.name, fences: try Fixture.fences()),
            "run.html")
    }

    @Test("run page of a scenario that runs the permission wizard: the storyboard")
    func wizardPage() throws {
        let file = #"""
            {"name": "wizard-onboarding", "device": {"authorization": {"location": "notDetermined", "motion": "notDetermined"}},
             "authorization": {"flow": "wizard", "user": {"answers": [{"prompt": "location", "answer": "allowWhileUsing", "afterSeconds": 3},
               {"prompt": "upgrade", "answer": "changeToAlwaysAllow", "afterSeconds": 2}, {"prompt": "motion", "answer": "allow"}]}},
             "timeline": [{"at": 120, "event": "lock"}]}
            """#
        let scenario = try ScenarioFile.parse(Array(file.utf8), file: "wizard.json").scenario
        let matrix = Matrix(
            traces: [Matrix.NamedTrace(name: Fixture.name, trace: Fixture.trace)], scenarios: [Matrix.Entry(scenario)])
        let cell = try #require(try matrix.run(jobs: 1).cells.first)
        Golden.check(
            HTMLReport.run(
                cell.run, ideal: cell.ideal, metrics: cell.metrics, trace: Fixture.trace, named: Fixture.name, fences: []),
            "run-wizard.html")
    }

    @Test("matrix: text, JSON, CSV, Markdown and HTML")
    func matrix() throws {
        let result = try Fixture.matrix().run(jobs: 2)
        Golden.check(MatrixReport.text(result), "matrix.txt")
        Golden.check(MatrixReport.json(result), "matrix.json")
        Golden.check(MatrixReport.csv(result), "matrix.csv")
        Golden.check(MatrixReport.markdown(result), "matrix.md")
        Golden.check(MatrixReport.html(result), "matrix.html")
    }

    @Test("matrix part: the identity, the shard and its runs")
    func part() throws {
        let identity = RunIdentity(
            version: "golden", traces: [RunIdentity.Input(path: Fixture.name, bytes: 3, hash: ContentHash([1, 2, 3]))],
            scenarios: ["always-precise", "wheninuse-locked", "denied"].map { RunIdentity.ScenarioEntry(name: $0) },
            seed: nil, fences: RunIdentity.Input(path: "fences.geojson"), date: "2020-02-07", inputFormat: nil,
            tracks: "each", assumeRate: 1, strict: true)
        let matrix = try Fixture.matrix(identity: identity)
        Golden.check(MatrixReport.json(try matrix.run(shard: Shard(index: 1, count: 2))), "matrix-part-1.json")
    }

    @Test("track: text and JSON")
    func track() throws {
        let fences = try Fixture.fences()
        let engine = try TrackingEngine(
            configuration: EngineConfiguration(), fences: fences, context: GEOSContext(),
            expectedFixCount: Fixture.trace.fixes.count)
        var device = Scenario.idealDevice
        device.traceHasMotionSamples = false
        var replay = Replay(device: Device(configuration: device), client: engine)
        replay.run(Fixture.trace)
        let report = TrackReport(
            file: Fixture.name, trace: Fixture.trace, engine: engine, gpsOn: replay.gpsOn, fenceCount: fences.count)
        Golden.check(report.text, "track.txt")
        Golden.check(report.json, "track.json")
    }

    @Test("inspect: text, JSON and the table")
    func inspect() {
        let summary = TraceSummary(Fixture.trace)
        Golden.check(InspectReport.text(file: Fixture.name, summary: summary, options: ImportOptions()), "inspect.txt")
        Golden.check(InspectReport.json(file: Fixture.name, summary: summary), "inspect.json")
        Golden.check(
            InspectReport.table([
                InspectReport.Row(file: Fixture.name, summary: summary),
                InspectReport.Row(file: "again.csv", summary: summary),
            ]), "inspect-table.txt")
    }

    @Test("permissions: each SDK in text and JSON, the comparison and the population")
    func permissions() throws {
        let user = try UserScript.parse(Fixture.example("user.json"), file: "user.json")
        let setup = try DeviceSetup.parse(Fixture.example("device.json"), file: "device.json")
        for layer in PermissionLayer.allCases {
            let run = layer.run(setup: setup, user: user.user, lifecycle: user.lifecycle)
            Golden.check(PermissionsReport.text(run), "permissions-\(layer.rawValue).txt")
            Golden.check(PermissionsReport.json(run), "permissions-\(layer.rawValue).json")
        }
        let runs = PermissionLayer.allCases.map { $0.run(setup: DeviceSetup(), user: user.user) }
        Golden.check(PermissionsReport.text(comparing: runs), "permissions-compare.txt")
        Golden.check(PermissionsReport.json(comparing: runs), "permissions-compare.json")
        let population = try Population.parse(Fixture.example("population.json"), file: "population.json")
        let shares = PermissionLayer.allCases.map { layer in
            let share = layer.share(of: population, setup: DeviceSetup())
            return PermissionsReport.PopulationShare(
                layer: layer, share: share.share, combinations: share.combinations)
        }
        Golden.check(PermissionsReport.text(population: shares), "permissions-population.txt")
        Golden.check(PermissionsReport.json(population: shares), "permissions-population.json")
    }

    @Test("check: failure lines, JUnit XML and Markdown")
    func check() throws {
        let expectations = try Expectations.parse(
            Array(
                #"""
                {"thresholds": [
                  {"scenario": "*", "metric": "collectionRatio", "min": 0.95},
                  {"scenario": "always-precise", "metric": "acceptedFixes", "min": 100, "max": 1000},
                  {"scenario": "denied", "trace": "fixture.csv", "metric": "deliveredFixes", "max": 0},
                  {"scenario": "denied", "metric": "positionErrorP95Meters", "max": 12.5}
                ]}
                """#.utf8), file: "expectations.json")
        let result = try Fixture.matrix().run()
        let verdicts = result.cells.flatMap { cell in
            expectations.verdicts(
                trace: Fixture.name, scenario: cell.run.scenario, givenAs: cell.run.scenario, metrics: cell.metrics)
        }
        Golden.check(verdicts.map(CheckReport.line).joined(separator: "\n"), "check.txt")
        Golden.check(CheckReport.text(verdicts), "check-summary.txt")
        Golden.check(CheckReport.junit(verdicts), "check.junit.xml")
        Golden.check(CheckReport.markdown(verdicts), "check.md")
    }

    @Test("tune: text, JSON and CSV")
    func tune() throws {
        let sweeps = try ["gate.horizontalAccuracy=10:50:20", "distanceFilter=0:20:10"].map {
            try Tuning.Sweep.parse($0).get()
        }
        let study = Tuning.Study(scenarios: [(Scenario.presets[0], nil)], sweeps: sweeps)
        let outcome = Tuning.Outcome(
            study: study, pools: try study.measure([Tuning.TraceInput(Fixture.trace)]),
            objectives: Tuning.Objective.defaults(hasTruth: false), constraints: [], hasTruth: false)
        Golden.check(TuneReport.text(outcome), "tune.txt")
        Golden.check(TuneReport.json(outcome), "tune.json")
        Golden.check(TuneReport.csv(outcome), "tune.csv")
    }

    @Test("rules and scenarios listings")
    func listings() {
        let parameters = DeviceParameters().catalogue
        Golden.check(RulesReport.text(parameters), "rules.txt")
        Golden.check(RulesReport.json(parameters), "rules.json")
        Golden.check(RulesReport.markdown(parameters), "rules.md")
        Golden.check(ScenariosReport.text(Scenario.presets), "scenarios.txt")
        Golden.check(ScenariosReport.json(Scenario.presets), "scenarios.json")
    }
}
