import Engine
import Geometry
import SimulationCore
import Synchronization
import Traces

/// One scenario's run of a trace and the ideal run it is measured against: what
/// `tracesim replay` prints, and what each cell of a `Matrix` holds.
///
/// The two runs are paired by one rule, so the library and the command line give the same
/// numbers: the ideal run replays the same trace over the same geofences with the same engine
/// under test, on the scenario's seed, with the scenario's engine settings less the
/// countermeasures against suspension (`Reference`). The ratios then measure the permission
/// level alone.
///
/// ```swift
/// let scenario = Scenario.preset(named: "always-automatic-pause")!
/// let comparison = try Comparison(trace: trace, scenario: scenario)
/// print(comparison.metrics.acceptedFixes, "of", comparison.metrics.idealAcceptedFixes)
/// ```
public struct Comparison: Sendable {
    /// The scenario as it ran, with the seed it ran on.
    public var scenario: Scenario
    /// What the ideal run was.
    public var reference: Reference
    /// The scenario's run.
    public var run: ScenarioRun
    /// The reference's run of the same trace, geofences and engine under test.
    public var ideal: ScenarioRun
    /// `run` measured against `ideal`.
    public var metrics: Metrics

    /// Replays `trace` through `scenario` and through its reference, the two at once unless told
    /// otherwise, and measures the one against the other.
    /// - Parameters:
    ///   - trace: the recording both runs replay.
    ///   - scenario: the permission level and person measured; its reference is derived from it.
    ///   - fences: the geofences of both runs.
    ///   - seed: seeds both runs' phones; `nil` keeps the scenario's own seed (presets use 0).
    ///   - engine: the app code both runs replay.
    ///   - traceName: what a custom engine is told the trace is called.
    ///   - progress: called after each of the two replays with the replays done and the total
    ///     (2), from whichever thread ran it.
    ///   - concurrently: `true` replays the two runs on two threads at once; `false` replays the
    ///     ideal run and then the scenario's on the calling thread, stopping at the first failure.
    ///     App code under the Core Location facade may queue main-actor work
    ///     (`DispatchQueue.main.async`), which runs in virtual time only on the main thread, so
    ///     `tracesim replay` calls this from the main thread with `false`.
    /// - Throws: `RunFailure` when a geofence is invalid or the engine under test failed; when
    ///   both runs fail, the ideal run's failure.
    public init(
        trace: Trace, scenario: Scenario, fences: [Geofence] = [], seed: UInt64? = nil,
        engine: EngineUnderTest = .builtIn, traceName: String = "",
        progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil, concurrently: Bool = true
    ) throws(RunFailure) {
        var scenario = scenario
        if let seed { scenario.seed = seed }
        let reference = Reference(of: scenario)
        let plans = [reference.scenario, scenario]
        let done = Atomic<Int>(0)
        let measures = TraceMeasures(trace)
        let replay: @Sendable (Int) -> Result<ScenarioRun, RunFailure> = { index in
            defer { progress?(done.add(1, ordering: .relaxed).newValue, plans.count) }
            do throws(RunFailure) {
                return .success(
                    try ScenarioRunner.run(
                        measures, plans[index], fences: fences, engine: engine, traceName: traceName))
            } catch {
                return .failure(error)
            }
        }
        let ideal: ScenarioRun
        let run: ScenarioRun
        if concurrently {
            let replays = ParallelLoop.map(iterations: plans.count, replay)
            ideal = try replays[0].get()
            run = try replays[1].get()
        } else {
            ideal = try replay(0).get()
            run = try replay(1).get()
        }
        self.scenario = scenario
        self.reference = reference
        self.ideal = ideal
        self.run = run
        self.metrics = Metrics(run, ideal: ideal)
    }
}
