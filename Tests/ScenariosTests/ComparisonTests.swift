import Engine
import Foundation
import Fleet
import Scenarios
import Synchronization
import TestSupport
import Testing
import Traces

/// The pairing of a run with its reference: which ideal run a scenario is measured against, and
/// that a matrix pairs by the same rule.
@Suite("Comparison")
struct ComparisonTests {
    static func preset(_ name: String) throws -> Scenario { try #require(Scenario.preset(named: name)) }

    /// A drive whose stops the automatic-pause preset's own ideal run records differently from
    /// the plain ideal preset's.
    static let trace: Trace = {
        let path = Repository.trace("gpsbabel/google_ext.kml")
        do { return try TraceImporter.load(path: path) } catch { fatalError("bundled trace: \(error)") }
    }()

    @Test("the reference is the ideal preset on the scenario's seed and engine, less preventSuspend and the heartbeat")
    func referenceDropsTheCountermeasures() throws {
        var scenario = try Self.preset("always-prevent-suspend")
        scenario.seed = 7
        scenario.engine.motion.stopTimeoutSeconds = 600
        let reference = Comparison.Reference(of: scenario)
        #expect(reference.seed == 7)
        #expect(!reference.engine.preventSuspend)
        #expect(reference.engine.heartbeatIntervalSeconds == nil)
        #expect(reference.engine.motion.stopTimeoutSeconds == 600)
        let ideal = reference.scenario
        #expect(ideal.name == "ideal")
        #expect(ideal.seed == 7)
        #expect(ideal.engine == reference.engine)
    }

    @Test("presets on the default engine share the plain ideal reference; a tuned engine gets its own, named for it")
    func referencesAreValues() throws {
        let precise = Comparison.Reference(of: try Self.preset("always-precise"))
        #expect(precise == Comparison.Reference(of: try Self.preset("denied")))
        #expect(precise.hasDefaultEngine)
        #expect(precise.rowName(firstComparedWith: "always-precise") == "ideal")
        // The keep-alive is what the scenario pays for; its reference runs without it.
        #expect(precise == Comparison.Reference(of: try Self.preset("always-prevent-suspend")))
        let paused = Comparison.Reference(of: try Self.preset("always-automatic-pause"))
        #expect(paused != precise)
        #expect(!paused.hasDefaultEngine)
        #expect(paused.rowName(firstComparedWith: "always-automatic-pause") == "ideal for always-automatic-pause")
        var reseeded = try Self.preset("always-precise")
        reseeded.seed = 1
        #expect(Comparison.Reference(of: reseeded) != precise)
    }

    @Test("a comparison measures the run against its reference's run, on the seed it is given")
    func comparisonPairsWithItsReference() throws {
        let trace = Self.trace
        let scenario = try Self.preset("always-automatic-pause")
        let comparison = try Comparison(trace: trace, scenario: scenario, seed: 3)
        #expect(comparison.scenario.seed == 3)
        #expect(comparison.run.seed == 3 && comparison.ideal.seed == 3)
        #expect(comparison.run.scenario == "always-automatic-pause" && comparison.ideal.scenario == "ideal")
        var reseeded = scenario
        reseeded.seed = 3
        let ideal = try ScenarioRunner.run(trace, Comparison.Reference(of: reseeded).scenario)
        #expect(comparison.metrics == Metrics(comparison.run, ideal: ideal))
        // The plain ideal preset is another reference on this trace: pairing with it by hand
        // gave other numbers than `tracesim replay`.
        var plain = try Self.preset("ideal")
        plain.seed = 3
        let plainIdeal = try ScenarioRunner.run(trace, plain)
        #expect(plainIdeal.recorder.acceptedFixCount != ideal.recorder.acceptedFixCount)
    }

    @Test("when both runs fail, the ideal run's failure is the one thrown")
    func idealFailureFirst() throws {
        let engine = EngineUnderTest.custom(named: "refusing") { context throws(EngineFailure) in
            throw EngineFailure("no engine for \(context.scenario.name)")
        }
        let error = #expect(throws: RunFailure.self) {
            try Comparison(trace: Self.trace, scenario: try Self.preset("denied"), engine: engine)
        }
        guard case .engine(let failure) = error else {
            Issue.record("expected an engine failure, got \(String(describing: error))")
            return
        }
        #expect(failure.message == "no engine for ideal")
    }

    @Test("not concurrently: both runs on the calling thread, ideal first, the same numbers; a failure stops it")
    func sequentialOnTheCallingThread() throws {
        let caller = ObjectIdentifier(Thread.current)
        let seen = Mutex<[(scenario: String, onCaller: Bool)]>([])
        let engine = EngineUnderTest.custom(named: "watching") { context in
            seen.withLock { $0.append((context.scenario.name, ObjectIdentifier(Thread.current) == caller)) }
            return KeepingClient(.everything)
        }
        let scenario = try Self.preset("always-precise")
        let sequential = try Comparison(trace: Self.trace, scenario: scenario, engine: engine, concurrently: false)
        #expect(seen.withLock { $0.map(\.scenario) } == ["ideal", "always-precise"])
        #expect(seen.withLock { $0.allSatisfy(\.onCaller) })
        let concurrent = try Comparison(trace: Self.trace, scenario: scenario, engine: engine)
        #expect(sequential.metrics == concurrent.metrics)
        let refusing = EngineUnderTest.custom(named: "refusing") { context throws(EngineFailure) in
            seen.withLock { $0.append((context.scenario.name, true)) }
            throw EngineFailure("no engine for \(context.scenario.name)")
        }
        seen.withLock { $0 = [] }
        #expect(throws: RunFailure.self) {
            try Comparison(trace: Self.trace, scenario: scenario, engine: refusing, concurrently: false)
        }
        #expect(seen.withLock { $0.map(\.scenario) } == ["ideal"], "the scenario's run never started")
    }

    @Test("each matrix cell is the comparison of its scenario, shared ideal runs included")
    func matrixCellsAreComparisons() throws {
        let names = ["always-precise", "always-automatic-pause", "always-prevent-suspend"]
        let scenarios = try names.map { try Self.preset($0) }
        let trace = GeneratedInputs.trace(seed: 11)
        let result = try Matrix(
            traces: [Matrix.NamedTrace(name: "t", trace: trace)], scenarios: scenarios.map { Matrix.Entry($0) }
        ).run()
        #expect(result.cells.map(\.reference.name) == ["ideal", "ideal for always-automatic-pause", "ideal"])
        for (cell, scenario) in zip(result.cells, scenarios) {
            let comparison = try Comparison(trace: trace, scenario: scenario)
            #expect(cell.metrics == comparison.metrics, "\(scenario.name)")
            #expect(cell.ideal.deliveryTimes == comparison.ideal.deliveryTimes, "\(scenario.name)")
        }
    }
}
