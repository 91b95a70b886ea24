import Dispatch
import Engine
import Scenarios
import SimulationCore
import Synchronization

extension Matrix {
    /// What one input (a trace file, which gives one trace, or one per track) became, as
    /// `stream` hands it over.
    public struct InputOutputs<Output: Sendable>: Sendable {
        /// The input's index, in the order given to `stream`.
        public var input: Int
        /// The names of the traces the input gave, in order; none when it failed to load.
        public var traceNames: [String]
        /// What `render` made of each run, in trace order, then scenario order.
        public var outputs: [Output]
    }

    /// Replays inputs one after another, each through every scenario and its ideal run, and
    /// hands each input's runs over in input order as soon as the order allows, so memory holds
    /// a few inputs at a time however many there are.
    ///
    /// At most `jobs` replays run at a time (`nil`: one per core). Workers take replays in order;
    /// the first to need an input calls `load(input)` (from its own thread) and the input is
    /// released once its last replay is done. Each run is measured and handed to `render` as
    /// soon as it and its ideal run are both done, then let go, so a trace's runs are not all
    /// held at once: the ideal runs stay until the last scenario compared with them is rendered.
    /// Workers stay within a few inputs of the oldest one not yet emitted, so a slow input holds
    /// back only that many finished outputs. `emit` is called on the calling thread, in input
    /// order.
    ///
    /// `self.traces` is not used: the inputs are. The matrix's scenarios, seed, geofences and
    /// engine are.
    /// - Parameters:
    ///   - inputs: how many inputs there are.
    ///   - jobs: at most this many replays at a time; `nil` for one per core.
    ///   - load: the traces of an input; an empty array for an input that could not be read (the
    ///     loader reports why), which still gets its turn to `emit`, with no cells.
    ///   - progress: after each replay (every trace of an input through one run), the replays
    ///     done and the total.
    ///   - render: turns one run, compared with its ideal run, into what `emit` gets, on a worker,
    ///     so rendering runs in parallel too. The cell's `traceIndex` and `position` count within
    ///     the input; `traceName` is the trace's name.
    ///   - emit: receives each input's outputs, in input order.
    /// - Throws: `RunFailure` when a geofence is invalid or the engine under test failed; no
    ///   replay of a later input starts after a failure; every input before the earliest failing
    ///   one is still replayed and emitted, whatever the number of jobs, and the failure of the
    ///   earliest failing replay is thrown.
    public func stream<Output: Sendable>(
        inputs: Int, jobs: Int? = nil, load: @escaping @Sendable (_ input: Int) -> [NamedTrace],
        progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil,
        render: @escaping @Sendable (_ cell: Cell, _ traceName: String) -> Output,
        emit: (InputOutputs<Output>) -> Void
    ) throws(RunFailure) {
        let plan = Plan(self)
        guard !plan.runs.isEmpty, inputs > 0 else { return }
        let width = max(jobs ?? ParallelLoop.coreCount, 1)
        let stream = StreamState<Output>(
            matrix: self, plan: plan, inputs: inputs, load: load, render: render, progress: progress)
        // Inputs may run this far ahead of the oldest one not yet emitted: enough to keep every
        // worker busy while one input is slow, few enough to keep memory bounded.
        // Held below overflow for any `jobs` an embedding caller passes.
        let window = width.multipliedReportingOverflow(by: 2).overflow ? Int.max : 2 * width
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
            if next < stream.items, input < stop, input - nextEmit < window, inFlight < width {
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

/// What the workers of `Matrix.stream` share: each input's traces, runs and outputs while it is
/// in flight, the inputs waiting for their turn, and the first failure.
private final class StreamState<Output: Sendable>: Sendable {
    /// An input in flight: loaded by the first worker to need it, released by the last.
    final class InputWork: Sendable {
        /// The input's traces, each with what every run of it is measured against (measured once
        /// per trace, not once per scenario).
        let traces = Mutex<[(named: Matrix.NamedTrace, measures: TraceMeasures)]?>(nil)
        let progress: Mutex<InputProgress>
        let remaining: Atomic<Int>

        init(plan: Matrix.Plan, scenarioCount: Int) {
            progress = Mutex(InputProgress(plan: plan, scenarioCount: scenarioCount))
            remaining = Atomic(plan.runs.count)
        }
    }

    /// The runs of an input not yet rendered, and the outputs of those that were.
    struct InputProgress {
        /// For each of the plan's runs, that run on every trace, until nothing needs it.
        var runs: [[ScenarioRun]?]
        /// For each ideal run of the plan, what it measured on every trace.
        var references: [[ReferenceMetrics]?]
        /// For each of the plan's runs, the scenarios still to be rendered that need it.
        var users: [Int]
        /// Whether each scenario has been rendered.
        var rendered: [Bool]
        /// For each trace, each scenario's output.
        var outputs: [[Output?]] = []

        init(plan: Matrix.Plan, scenarioCount: Int) {
            runs = Array(repeating: nil, count: plan.runs.count)
            references = Array(repeating: nil, count: plan.runs.count)
            users = Array(repeating: 0, count: plan.runs.count)
            for scenario in 0..<scenarioCount {
                users[plan.scenarioRun[scenario]] += 1
                users[plan.idealRun[scenario]] += 1
            }
            rendered = Array(repeating: false, count: scenarioCount)
        }
    }

    private struct Shared {
        var working: [Int: InputWork] = [:]
        var ready: [Int: Matrix.InputOutputs<Output>] = [:]
        var failure: (item: Int, failure: RunFailure)?
    }

    let matrix: Matrix
    let plan: Matrix.Plan
    /// Replays to make: every input through every run of the plan.
    let items: Int
    private let load: @Sendable (Int) -> [Matrix.NamedTrace]
    private let render: @Sendable (Matrix.Cell, String) -> Output
    private let progress: (@Sendable (Int, Int) -> Void)?
    private let shared = Mutex(Shared())
    private let done = Atomic<Int>(0)
    /// For each of the plan's runs that is an ideal run, the name of its row in the tables.
    private let referenceNames: [String?]

    init(
        matrix: Matrix, plan: Matrix.Plan, inputs: Int, load: @escaping @Sendable (Int) -> [Matrix.NamedTrace],
        render: @escaping @Sendable (Matrix.Cell, String) -> Output, progress: (@Sendable (Int, Int) -> Void)?
    ) {
        self.matrix = matrix
        self.plan = plan
        self.items = inputs * plan.runs.count
        self.load = load
        self.render = render
        self.progress = progress
        referenceNames = plan.runs.indices.map { run in
            plan.idealRun.firstIndex(of: run).map { plan.referenceNames[$0] }
        }
    }

    /// The earliest input with a failed replay, if any.
    var failedInput: Int? { shared.withLock { $0.failure.map { $0.item / plan.runs.count } } }
    var firstFailure: RunFailure? { shared.withLock { $0.failure?.failure } }

    func takeReady(_ input: Int) -> Matrix.InputOutputs<Output>? {
        shared.withLock { $0.ready.removeValue(forKey: input) }
    }

    /// Replays run `item % plan.runs.count` of the plan on every trace of input
    /// `item / plan.runs.count`, renders every run that this completes, and finishes the input
    /// when it was the last of its replays.
    func process(_ item: Int) {
        let (input, run) = item.quotientAndRemainder(dividingBy: plan.runs.count)
        let scenarioCount = matrix.scenarios.count
        let work = shared.withLock { shared in
            if let work = shared.working[input] { return work }
            let work = InputWork(plan: plan, scenarioCount: scenarioCount)
            shared.working[input] = work
            return work
        }
        // The first worker here loads the input; the others wait for it, holding nothing else.
        let traces = work.traces.withLock { traces in
            if traces == nil { traces = load(input).map { ($0, TraceMeasures($0.trace)) } }
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
                            trace.measures, planned.scenario, fences: planned.fences, engine: matrix.engine,
                            traceName: trace.named.name))
                } catch {
                    shared.withLock { shared in
                        if shared.failure.map({ item < $0.item }) ?? true { shared.failure = (item, error) }
                    }
                    break
                }
            }
        }
        if runs.count == traces.count {
            let references = referenceNames[run].map { name in runs.map { ReferenceMetrics(name: name, ideal: $0) } }
            renderReady(work, run: run, runs: runs, references: references, traceNames: traces.map(\.named.name))
        }
        runs = []
        progress?(done.add(1, ordering: .relaxed).newValue, items)
        guard work.remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 else { return }
        // The last replay of the input: hand its outputs over in order. Its traces go with its
        // work, which nothing holds once it leaves `working`.
        let outputs = work.progress.withLock { $0.outputs }
        let complete = outputs.allSatisfy { $0.allSatisfy { $0 != nil } }
        let finished = Matrix.InputOutputs(
            input: input, traceNames: complete ? traces.map(\.named.name) : [],
            outputs: complete ? outputs.flatMap { $0.compactMap { $0 } } : [])
        shared.withLock { shared in
            shared.working[input] = nil
            shared.ready[input] = finished
        }
    }

    /// Stores run `run` of the input and renders every scenario it completes (its own run, or
    /// its ideal run, done), letting go of each run once no scenario left needs it.
    private func renderReady(
        _ work: InputWork, run: Int, runs: [ScenarioRun], references: [ReferenceMetrics]?, traceNames: [String]
    ) {
        let scenarioCount = matrix.scenarios.count
        typealias Ready = (scenario: Int, runs: [ScenarioRun], ideals: [ScenarioRun], references: [ReferenceMetrics])
        let ready: [Ready] = work.progress.withLock { progress in
            if progress.outputs.isEmpty {
                progress.outputs = Array(
                    repeating: [Output?](repeating: nil, count: scenarioCount), count: traceNames.count)
            }
            progress.runs[run] = runs
            if let references { progress.references[run] = references }
            var ready: [Ready] = []
            for scenario in 0..<scenarioCount where !progress.rendered[scenario] {
                let (own, ideal) = (plan.scenarioRun[scenario], plan.idealRun[scenario])
                guard own == run || ideal == run, let runs = progress.runs[own], let ideals = progress.runs[ideal],
                    let references = progress.references[ideal]
                else { continue }
                progress.rendered[scenario] = true
                ready.append((scenario, runs, ideals, references))
                for used in [own, ideal] {
                    progress.users[used] -= 1
                    if progress.users[used] == 0 { progress.runs[used] = nil }
                }
            }
            return ready
        }
        var outputs: [(trace: Int, scenario: Int, output: Output)] = []
        for entry in ready {
            for trace in traceNames.indices {
                let (run, ideal) = (entry.runs[trace], entry.ideals[trace])
                let cell = Matrix.Cell(
                    position: trace * scenarioCount + entry.scenario, traceIndex: trace, scenarioIndex: entry.scenario,
                    run: run, ideal: ideal, metrics: Metrics(run, ideal: ideal), reference: entry.references[trace])
                outputs.append((trace, entry.scenario, render(cell, traceNames[trace])))
            }
        }
        guard !outputs.isEmpty else { return }
        work.progress.withLock { progress in
            for output in outputs { progress.outputs[output.trace][output.scenario] = output.output }
        }
    }
}
