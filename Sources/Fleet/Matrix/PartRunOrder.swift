import Traces

/// Checks, run by run, that a part holds what its identity and shard promise: runs of its own
/// inputs only, inputs in the order given, and on each trace every scenario once, in order.
/// Parts are read one run at a time (JSON Lines stream), so the check keeps only where it is.
package struct PartRunOrder {
    private let identity: RunIdentity
    private let shard: Shard?
    /// The indices of the inputs of each path (a path may be given more than once).
    private let inputIndices: [String: [Int]]
    /// The input and trace of the run before, and the scenario the next run must be.
    private var current: (input: Int, trace: String)?
    private var nextScenario = 0

    /// A check of the runs of `shard` (the whole run without one) of `identity`.
    package init(identity: RunIdentity, shard: Shard?) {
        self.identity = identity
        self.shard = shard
        var indices: [String: [Int]] = [:]
        for (offset, input) in identity.traces.enumerated() { indices[input.path, default: []].append(offset) }
        inputIndices = indices
    }

    /// The index of the input the next run comes from, or why the run is out of place.
    package mutating func accept(trace: String, scenario: String) -> Result<Int, OutOfPlace> {
        let scenarios = identity.scenarios
        guard !scenarios.isEmpty else { return .failure(OutOfPlace("the identity names no scenario")) }
        if nextScenario > 0, let current {
            // Mid-trace: the same trace, the next scenario.
            guard trace == current.trace else {
                return .failure(
                    OutOfPlace(
                        "trace '\(trace)' begins before trace '\(current.trace)' has every scenario "
                            + "(scenario '\(scenarios[nextScenario].name)' is missing)"))
            }
            return next(scenario, input: current.input)
        }
        let candidates = inputs(of: trace)
        guard !candidates.isEmpty else {
            return .failure(OutOfPlace("trace '\(trace)' is not one of the identity's inputs"))
        }
        // The first input of that path after the current one (or the current one again, for
        // its next track) that this shard holds.
        let after = current
        guard
            let input = candidates.first(where: { candidate in
                (shard?.holds(candidate) ?? true)
                    && after.map { candidate > $0.input || (candidate == $0.input && follows(trace, $0.trace)) } ?? true
            })
        else {
            if let after, after.trace == trace {
                return .failure(OutOfPlace("trace '\(trace)' appears twice in a row"))
            }
            if let shard, let own = candidates.first, !shard.holds(own) {
                return .failure(
                    OutOfPlace(
                        "trace '\(trace)' is input \(own + 1), which belongs to shard \(own % shard.count + 1), "
                            + "not \(shard.index)"))
            }
            return .failure(
                OutOfPlace("trace '\(trace)' comes after '\(after?.trace ?? "")', but is given before it"))
        }
        current = (input, trace)
        return next(scenario, input: input)
    }

    /// Why the runs end early, or `nil` when the last trace has every scenario.
    package var unfinished: OutOfPlace? {
        guard nextScenario > 0, let current else { return nil }
        return OutOfPlace(
            "the runs end before trace '\(current.trace)' has scenario '\(identity.scenarios[nextScenario].name)'")
    }

    private mutating func next(_ scenario: String, input: Int) -> Result<Int, OutOfPlace> {
        let expected = identity.scenarios[nextScenario].name
        guard scenario == expected else {
            return .failure(OutOfPlace("scenario '\(scenario)' where '\(expected)' comes next"))
        }
        nextScenario = (nextScenario + 1) % identity.scenarios.count
        return .success(input)
    }

    /// Whether `trace` can be the next track of the same file as `previous`: under `--tracks
    /// each`, `PATH#N` after `PATH#M` with N > M (tracks without a timed fix leave gaps).
    private func follows(_ trace: String, _ previous: String) -> Bool {
        guard let (path, number) = Self.track(trace), let (previousPath, previousNumber) = Self.track(previous) else {
            return false
        }
        return path == previousPath && number > previousNumber
    }

    /// `PATH` and `N` of a track's name `PATH#N`.
    private static func track(_ trace: String) -> (path: Substring, number: Int)? {
        guard let hash = trace.lastIndex(of: "#"), let number = Int(trace[trace.index(after: hash)...]),
            trace[trace.index(after: hash)...].allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        return (trace[..<hash], number)
    }

    /// The inputs a trace name can come from, increasing: its path, or `PATH#N` for track N
    /// under `--tracks each`.
    private func inputs(of trace: String) -> [Int] {
        if let indices = inputIndices[trace] { return indices }
        if trace == TraceFile.standardInputName { return inputIndices[TraceFile.standardInputPath] ?? [] }
        guard identity.tracks == "each", let (path, _) = Self.track(trace) else { return [] }
        return inputIndices[String(path)] ?? []
    }

    /// A run that is not where the identity and shard say it should be.
    package struct OutOfPlace: Error {
        package var message: String

        package init(_ message: String) { self.message = message }
    }
}
