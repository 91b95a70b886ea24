import Dispatch

/// Timings of one benchmark case: every timed run, in seconds.
public struct Timing: Sendable, Codable {
    /// Seconds per timed run, in the order they ran.
    public var seconds: [Double]

    /// Creates a timing from measured runs.
    public init(seconds: [Double]) {
        precondition(!seconds.isEmpty, "a timing needs at least one run")
        self.seconds = seconds
    }

    /// The median run.
    public var median: Double { Self.quantile(0.5, of: seconds) }

    /// The 90th percentile run.
    public var p90: Double { Self.quantile(0.9, of: seconds) }

    /// The nearest-rank quantile (no interpolation, so it is always a measured run).
    static func quantile(_ q: Double, of values: [Double]) -> Double {
        let sorted = values.sorted()
        let rank = Int((q * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}

/// How many times to run a case.
public struct RunPlan: Sendable {
    /// Untimed runs first, to fill caches and fault pages in.
    public var warmups: Int
    /// Timed runs.
    public var runs: Int

    /// Creates a plan.
    public init(warmups: Int, runs: Int) {
        self.warmups = warmups
        self.runs = max(1, runs)
    }
}

/// Keeps a value alive so the optimiser cannot drop the work that produced it.
@inline(never)
public func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// Times `body` on a fresh input from `setup` for every run; only `body` is timed. Returns
/// the timing and the last run's output, which the caller checks: a fast wrong answer fails.
public func measure<Input, Output>(
    _ plan: RunPlan, setup: () throws -> Input, _ body: (Input) throws -> Output
) rethrows -> (timing: Timing, output: Output) {
    func timedRun() throws -> (seconds: Double, output: Output) {
        let input = try setup()
        let start = DispatchTime.now().uptimeNanoseconds
        let output = try body(input)
        let end = DispatchTime.now().uptimeNanoseconds
        blackHole(output)
        return (Double(end - start) / 1e9, output)
    }
    for _ in 0..<plan.warmups { _ = try timedRun() }
    var run = try timedRun()
    var seconds = [run.seconds]
    for _ in 1..<plan.runs {
        run = try timedRun()
        seconds.append(run.seconds)
    }
    return (Timing(seconds: seconds), run.output)
}

/// Times `body` with no per-run setup.
public func measure<Output>(_ plan: RunPlan, _ body: () throws -> Output) rethrows -> (
    timing: Timing, output: Output
) {
    try measure(plan, setup: {}, { _ in try body() })
}

/// Whether this binary was built with optimisation. Numbers from a debug build are
/// meaningless (ten to a hundred times slower), so the runner refuses to record them.
public let isReleaseBuild: Bool = {
    #if DEBUG
        return false
    #else
        return true
    #endif
}()
