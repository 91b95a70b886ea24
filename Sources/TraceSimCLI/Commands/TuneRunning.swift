import Fleet
import Scenarios
import SimulationCore
import Synchronization
import Traces

/// Streams `tune`'s traces: reads them one after another, measures every row on a batch of a
/// few (one per job), adds the batch into each row's pool in input order, and lets it go, so
/// memory holds a few traces whatever their number and the figures do not depend on the jobs.
/// Returns the pools, the number of traces measured, and the exit status of the first input that
/// could not be read. As in `matrix`, an input that holds no record at all is noted and skipped.
///
/// With `noise`, each piece is replayed noisy and, unless a truth was given, measured against
/// its own clean fixes: the clean survey-grade trace is the truth of the phone it stands in for.
enum TuneRunning {
    static func pools(
        _ study: Tuning.Study, inputs: [String], truth: (trace: Trace, path: String)?,
        noise: (model: PhoneNoise, seed: UInt64)?, options: ImportOptions, jobs: Int?, console: Console,
        _ parsed: ParsedArguments
    ) throws -> (pools: [Tuning.Pool], traces: Int, exitCode: ExitCode) {
        let width = max(jobs ?? ParallelLoop.coreCount, 1)
        var pools = Array(repeating: Tuning.Pool(), count: study.rows.count)
        var batch: [Tuning.TraceInput] = []
        let progress = Progress(total: inputs.count * study.replaysPerTrace, console: console)
        defer { progress.finish() }
        let done = Atomic<Int>(0)
        func flush() throws(CommandFailure) {
            guard !batch.isEmpty else { return }
            do {
                let measured = try study.measure(batch, jobs: jobs) {
                    progress.update(done.add(1, ordering: .relaxed).newValue)
                }
                for (row, pool) in measured.enumerated() { pools[row].add(pool) }
            } catch {
                throw ReplayArguments.failure(error, engine: study.engine, parsed)
            }
            batch.removeAll()
        }
        var exitCode = ExitCode.success
        var traces = 0
        var truthTracks = truth.map { TruthTracks($0.trace) }
        for path in inputs {
            // The fleet's rule, as `matrix` has it: a file with no record at all is noted and
            // skipped; one that cannot be replayed is reported and left out, and the command exits
            // with its status once the others are measured.
            let trace: Trace
            do {
                guard let loaded = try TraceLoading.loadFleetInput(path, options: options, console: console) else {
                    progress.finish()
                    console.warn(TraceLoading.skippedNote(path))
                    continue
                }
                trace = loaded
            } catch {
                progress.finish()
                console.report(error)
                if exitCode == .success { exitCode = error.exitCode }
                continue
            }
            for piece in TrackArguments.pieces(of: trace, path: path, options: options, console: console) {
                var input = Tuning.TraceInput(piece.trace)
                if let noise {
                    input = Tuning.TraceInput(noise.model.apply(to: piece.trace, seed: noise.seed), truth: piece.trace)
                }
                if let truth, let reference = truthTracks?.reference(for: piece.trace) {
                    if let problem = Tuning.overlapProblem(truth: reference, trace: piece.trace) {
                        throw CommandFailure(
                            .dataError,
                            "error: \(MessageText.path(truth.path)): the truth does not overlap "
                                + "\(MessageText.value(piece.name)): \(problem)")
                    }
                    input.truth = reference
                }
                batch.append(input)
                traces += 1
                if batch.count >= width { try flush() }
            }
        }
        try flush()
        return (pools, traces, exitCode)
    }
}
