import Dispatch
import Engine
import SimulationCore
import Synchronization

extension Matrix {
    /// Every run of one input (a trace file, which gives one trace, or one per track), as
    /// `stream` hands it over.
    public struct InputRuns: Sendable {
        /// The input's index, in the order given to `stream`.
        public var input: Int
        /// The names of the traces the input gave, in order; none when it failed to load.
        public var traceNames: [String]
        /// Every scenario on every trace of the input, with its ideal run: `traceIndex` indexes
        /// `traceNames`, and the cells are in trace order, then scenario order.
        public var cells: [Cell]
    }

    /// Replays inputs one after another, each through every scenario and its ideal run, and
    /// hands each input's runs over in input order as soon as the order allows, so memory holds
    /// a few inputs at a time however many there are.
    ///
    /// At most `jobs` replays run at a time (`nil`: one per core). Workers take replays in order;
    /// the first to need an input calls `load(input)` (from its own thread) and the input is
    /// released once its last replay is done and `render` has turned its runs into output. Workers
    /// stay within a few inputs of the oldest one not yet emitted, so a slow input holds back
    /// only that many finished outputs. `emit` is called on the calling thread, in input order.
    ///
    /// `self.traces` is not used: the inputs are. The matrix's scenarios, seed, geofences and
    /// engine are.
    /// - Parameters:
    ///   - inputs: how many inputs there are.
    ///   - load: the traces of an input; an empty array for an input that could not be read (the
    ///     loader reports why), which still gets its turn to `emit`, with no cells.
    ///   - progress: after each replay (every trace of an input through one run), the replays
    ///     done and the total.
    ///   - render: turns an input's runs into what `emit` takes, on the worker that finished the
    ///     input, so rendering runs in parallel too and the runs are freed before emitting.
    ///   - emit: receives each input's output in input order.
    /// - Throws: `RunFailure` when a geofence is invalid or the engine under test failed; no
    ///   replay of a later input starts after a failure; every input before the earliest failing
    ///   one is still replayed and emitted, whatever the number of jobs, and the failure of the
    ///   earliest failing replay is thrown.
    public func stream<Output: Sendable>(
        inputs: Int, jobs: Int? = nil, load: @escaping @Sendable (_ input: Int) -> [NamedTrace],
        progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil,
        render: @escaping @Sendable (InputRuns) -> Output, emit: (Output) -> Void
    ) throws(RunFailure) {
        let plan = Plan(self)
        guard !plan.runs.isEmpty, inputs > 0 else { return }
        let width = max(jobs ?? ParallelLoop.coreCount, 1)
        let stream = StreamState<Output>(
            matrix: self, plan: plan, inputs: inputs, load: load, render: render, progress: progress)
        // Inputs may run this far ahead of the oldest one not yet emitted: enough to keep every
        // worker busy while one input is slow, few enough to keep memory bounded.
        let window = 2 * width
        let finished = DispatchSemaphore(value: 0)
        var next = 0
        var inFlight = 0
        var nextEmit = 0
        while true {
            // After a failure, every input before the failing one is still finished and
            // emitted, so the output does not depend on the number of jobs.
            let stop = stream.failedInput ?? inputs
            if nextEmit < stop, let output = stream.takeReady(nextEmit) {
                emit(output)
                nextEmit += 1
                continue
            }
            if nextEmit >= stop { break }
            let input = next / plan.runs.count
            if next < stream.items, input < stop, input < nextEmit + window, inFlight < width {
                let item = next
                next += 1
                if width == 1 {
                    stream.process(item)
                } else {
                    inFlight += 1
                    DispatchQueue.global().async {
                        stream.process(item)
                        finished.signal()
                    }
                }
                continue
            }
            // Nothing to emit or start: wait for a replay to finish.
            guard inFlight > 0 else { break }
            finished.wait()
            inFlight -= 1
        }
        // Replays still running belong to inputs at or after a failure: let them end before
        // the failure is thrown.
        while inFlight > 0 {
            finished.wait()
            inFlight -= 1
        }
        if let failure = stream.firstFailure { throw failure }
    }
}

/// What the workers of `Matrix.stream` share: each input's traces and runs while it is in
/// flight, the outputs waiting for their turn, and the first failure.
private final class StreamState<Output: Sendable>: Sendable {
    /// An input in flight: loaded by the first worker to need it, released by the last.
    final class InputWork: Sendable {
        let traces = Mutex<[Matrix.NamedTrace]?>(nil)
        /// For each of the plan's runs, that run on every trace of the input.
        let runs: Mutex<[[ScenarioRun]?]>
        let remaining: Atomic<Int>

        init(runCount: Int) {
            runs = Mutex([[ScenarioRun]?](repeating: nil, count: runCount))
            remaining = Atomic(runCount)
        }
    }

    private struct Shared {
        var working: [Int: InputWork] = [:]
        var ready: [Int: Output] = [:]
        var failure: (item: Int, failure: RunFailure)?
    }

    let matrix: Matrix
    let plan: Matrix.Plan
    /// Replays to make: every input through every run of the plan.
    let items: Int
    private let load: @Sendable (Int) -> [Matrix.NamedTrace]
    private let render: @Sendable (Matrix.InputRuns) -> Output
    private let progress: (@Sendable (Int, Int) -> Void)?
    private let shared = Mutex(Shared())
    private let done = Atomic<Int>(0)

    init(
        matrix: Matrix, plan: Matrix.Plan, inputs: Int, load: @escaping @Sendable (Int) -> [Matrix.NamedTrace],
        render: @escaping @Sendable (Matrix.InputRuns) -> Output, progress: (@Sendable (Int, Int) -> Void)?
    ) {
        self.matrix = matrix
        self.plan = plan
        self.items = inputs * plan.runs.count
        self.load = load
        self.render = render
        self.progress = progress
    }

    /// The earliest input with a failed replay, if any.
    var failedInput: Int? { shared.withLock { $0.failure.map { $0.item / plan.runs.count } } }
    var firstFailure: RunFailure? { shared.withLock { $0.failure?.failure } }

    func takeReady(_ input: Int) -> Output? {
        shared.withLock { $0.ready.removeValue(forKey: input) }
    }

    /// Replays run `item % plan.runs.count` of the plan on every trace of input
    /// `item / plan.runs.count`, and finishes the input when it was the last of its replays.
    func process(_ item: Int) {
        let (input, run) = item.quotientAndRemainder(dividingBy: plan.runs.count)
        let runCount = plan.runs.count
        let work = shared.withLock { shared in
            if let work = shared.working[input] { return work }
            let work = InputWork(runCount: runCount)
            shared.working[input] = work
            return work
        }
        // The first worker here loads the input; the others wait for it, holding nothing else.
        let traces = work.traces.withLock { traces in
            if traces == nil { traces = load(input) }
            return traces ?? []
        }
        var runs: [ScenarioRun] = []
        runs.reserveCapacity(traces.count)
        if failedInput.map({ input < $0 }) ?? true {
            let planned = plan.runs[run]
            for trace in traces {
                do throws(RunFailure) {
                    runs.append(
                        try ScenarioRunner.run(
                            trace.trace, planned.scenario, fences: planned.fences, engine: matrix.engine,
                            traceName: trace.name))
                } catch {
                    shared.withLock { shared in
                        if shared.failure.map({ item < $0.item }) ?? true { shared.failure = (item, error) }
                    }
                    break
                }
            }
        }
        work.runs.withLock { $0[run] = runs }
        progress?(done.add(1, ordering: .relaxed).newValue, items)
        guard work.remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 else { return }
        // The last replay of the input: measure, render, and let go of its traces and runs.
        let allRuns = work.runs.withLock { runs in
            defer { runs = [] }
            return runs
        }
        work.traces.withLock { $0 = nil }
        let output = render(
            Matrix.InputRuns(
                input: input, traceNames: traces.map(\.name),
                cells: failedInput.map({ input >= $0 }) ?? false ? [] : cells(traceCount: traces.count, runs: allRuns)))
        shared.withLock { shared in
            shared.working[input] = nil
            shared.ready[input] = output
        }
    }

    /// Each scenario on each trace with its ideal run, in trace order, then scenario order.
    private func cells(traceCount: Int, runs: [[ScenarioRun]?]) -> [Matrix.Cell] {
        let scenarioCount = matrix.scenarios.count
        var cells: [Matrix.Cell] = []
        cells.reserveCapacity(traceCount * scenarioCount)
        for trace in 0..<traceCount {
            // One reference per ideal run, shared by the scenarios it serves.
            var references: [Int: ReferenceMetrics] = [:]
            for scenario in 0..<scenarioCount {
                guard let run = runs[plan.scenarioRun[scenario]]?[trace],
                    let ideal = runs[plan.idealRun[scenario]]?[trace]
                else { continue }
                let idealIndex = plan.idealRun[scenario]
                let reference =
                    references[idealIndex]
                    ?? ReferenceMetrics(name: plan.referenceNames[scenario], ideal: ideal)
                references[idealIndex] = reference
                cells.append(
                    Matrix.Cell(
                        position: trace * scenarioCount + scenario, traceIndex: trace, scenarioIndex: scenario,
                        run: run, ideal: ideal, metrics: Metrics(run, ideal: ideal), reference: reference))
            }
        }
        return cells
    }
}
