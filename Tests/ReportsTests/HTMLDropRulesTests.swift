import Device
import Engine
import Scenarios
import SimulationCore
import TestSupport
import Testing

@testable import Reports

/// Issue 30 §8: the run's page names the rule behind each drop and what follows from it, and a
/// team's engine's legend does not speak of the built-in engine's gate.
@Suite("HTML: why fixes dropped")
struct HTMLDropRulesTests {
    private func page(_ preset: String, engine: EngineUnderTest = .builtIn) throws -> (html: String, run: ScenarioRun) {
        let run = try ScenarioRunner.run(Fixture.trace, Fixture.preset(preset), engine: engine)
        let ideal = try ScenarioRunner.run(Fixture.trace, Fixture.preset("ideal"))
        let html = HTMLReport.run(
            run, ideal: ideal, metrics: Metrics(run, ideal: ideal), trace: Fixture.trace, named: "fixture", fences: [])
        return (html, run)
    }

    @Test("force quit on iOS 26: the drop band names forceQuitStopsEverything, and nothing will relaunch the app")
    func forceQuitIOS26() throws {
        let (html, run) = try page("always-force-quit-ios26")
        // The fixes before the app starts updates, then every fix from the force quit on: one
        // stretch each, counted.
        let dropped = Fixture.trace.fixes.count - run.deliveryTimes.count - 4
        #expect(run.locationDrops.map(\.rule) == [.updatesMustBeRunning, .forceQuitStopsEverything])
        #expect(run.locationDrops.map(\.count) == [4, dropped])
        #expect(html.contains("<title>forceQuitStopsEverything: \(dropped) fixes dropped</title>"))
        #expect(html.contains("<h3>Why fixes did not reach the app</h3>"))
        #expect(html.contains("<li><code>forceQuitStopsEverything</code>: After a user force-quit"))
        #expect(
            html.contains(
                "Nothing will relaunch the app: <code>forceQuitNoRelaunchOnIOS26</code> (ios26): On iOS 26 neither a "
                    + "region nor a "
                    + "significant-change event relaunches a force-quit app"))
    }

    @Test("force quit on iOS 18: the page names the relaunch rule instead, and never says nothing will relaunch it")
    func forceQuitIOS18() throws {
        let (html, _) = try page("always-force-quit")
        #expect(html.contains("<code>forceQuitStopsEverything</code>"))
        #expect(html.contains("<code>forceQuitRelaunchOnLocationEvents</code> (ios18): a region or significant-change"))
        #expect(!html.contains("Nothing will relaunch the app"))
    }

    @Test("the ideal run names the rule behind the fixes before its app starts updates, and no consequence")
    func idealStart() throws {
        let (html, run) = try page("ideal")
        #expect(run.locationDrops.map(\.rule) == [.updatesMustBeRunning])
        #expect(run.locationDrops.map(\.count) == [4])
        #expect(html.contains(">dropped (rule)</text>"))
        #expect(html.contains("<title>updatesMustBeRunning: 4 fixes dropped</title>"))
        #expect(html.contains("<li><code>updatesMustBeRunning</code>: "))
        #expect(html.contains(" 4 fixes dropped, from +0:00:04.</li>"))
        #expect(!html.contains("will relaunch"))
    }

    @Test("the app's label widens the label column to fit its scenario's name, and a name past a third of it is cut")
    func appLabelFits() throws {
        var scenario = Fixture.preset("ideal")
        let run = try ScenarioRunner.run(Fixture.trace, scenario)
        let fits = HTMLReport.timeline(run: run, ideal: run)
        #expect(fits.contains(">app (ideal)</text>"))
        scenario.name = String(repeating: "long-scenario-", count: 5)
        let long = try ScenarioRunner.run(Fixture.trace, scenario)
        let cut = HTMLReport.timeline(run: long, ideal: long)
        // At most 300 units of labels: 284 for the text, room for 43 characters of 6.6: 42 and "…".
        #expect(cut.contains(">app (long-scenario-long-scenario-long-scen…<title>app (\(scenario.name))</title></text>"))
    }

    @Test("the map's legend: the gate for the built-in engine, the app's own keeping for a team's engine")
    func legendForACustomEngine() throws {
        let builtIn = try page("always-precise").html
        #expect(builtIn.contains("delivered, rejected by the gate"))
        #expect(!builtIn.contains("not kept by the app"))
        let custom = try page("always-precise", engine: .custom(named: "keeps-none") { _ in KeepingClient(.nothing) }).html
        #expect(custom.contains("delivered, not kept by the app"))
        #expect(custom.contains("kept by the app"))
        #expect(!custom.contains("rejected by the gate"))
    }
}

extension HTMLDropRulesTests {
    @Test("kept fixes far off the trace are drawn where the app placed them, so the map shows what the warning says")
    func keptOffTraceDrawn() throws {
        let (html, run) = try page("always-approximate", engine: .custom(named: "keeps-all") { _ in KeepingClient(.everything) })
        let offTrace = HTMLReport.keptOffTrace(trace: Fixture.trace, run: run)
        #expect(!offTrace.isEmpty)
        #expect(offTrace.count == run.recorder.acceptedFixCount, "every reduced-accuracy fix is displaced")
        #expect(html.components(separatedBy: "class=\"offtrace\"").count - 1 == offTrace.count)
        #expect(html.contains("kept where the app placed it, over 100 m off the trace"))
        let precise = try page("always-precise", engine: .custom(named: "keeps-all") { _ in KeepingClient(.everything) })
        #expect(HTMLReport.keptOffTrace(trace: Fixture.trace, run: precise.run).isEmpty)
        #expect(!precise.html.contains("class=\"offtrace\""))
    }
}

extension HTMLDropRulesTests {
    @Test("the When-In-Use cutoff is drawn after a lock under When In Use, never on an Always run")
    func cutoffOnlyUnderWhenInUse() throws {
        let locked = try page("wheninuse-locked").run
        #expect(HTMLReport.timeline(run: locked, ideal: locked).contains("When-In-Use cutoff (lock + 70 s)"))
        let always = try page("always-precise").run
        #expect(always.lifecycle.contains { $0.isScreenLocked }, "the preset locks the screen")
        #expect(!HTMLReport.timeline(run: always, ideal: always).contains("When-In-Use cutoff"))
    }
}
