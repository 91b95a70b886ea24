import Dispatch
import Engine
import Geometry
import SimulationCore
import Synchronization
import Traces

/// Parameter sweeps over the engine, for engineers tuning filters on real traces.
public enum Tuning {
    /// An engine setting a sweep can vary.
    public struct Parameter: Sendable {
        /// The name on the command line, for example `gate.horizontalAccuracy`.
        public var name: String
        /// The unit shown in tables.
        public var unit: String
        /// Sets the value on a configuration.
        public var apply: @Sendable (inout EngineConfiguration, Double) -> Void
    }

    /// Every sweepable setting.
    public static let parameters: [Parameter] = [
        Parameter(name: "gate.horizontalAccuracy", unit: "m") { $0.gate.maximumAccuracyMeters = $1 },
        Parameter(name: "gate.maxImpliedSpeed", unit: "m/s") { $0.gate.maximumImpliedSpeedMetersPerSecond = $1 },
        Parameter(name: "gate.maxAge", unit: "s") { $0.gate.maximumAgeSeconds = $1 },
        Parameter(name: "distanceFilter", unit: "m") { $0.distanceFilter.distanceFilterMeters = $1 },
        Parameter(name: "odometerAccuracy", unit: "m") { $0.odometerAccuracyThresholdMeters = $1 },
        Parameter(name: "stopTimeout", unit: "s") { $0.motion.stopTimeoutSeconds = $1 },
        Parameter(name: "stationaryRadius", unit: "m") { $0.motion.stationaryRadiusMeters = $1 },
    ]

    /// The most values one sweep may take.
    public static let maximumValues = 1000

    /// The number of combinations `sweeps` cross to, or `nil` when it exceeds `limit` (counted
    /// with checked arithmetic, so any number of sweeps is safe to ask about).
    public static func combinationCount(_ sweeps: [Sweep], limit: Int) -> Int? {
        var product = 1
        for sweep in sweeps {
            let (next, overflow) = product.multipliedReportingOverflow(by: sweep.values.count)
            guard !overflow, next <= limit else { return nil }
            product = next
        }
        return product
    }

    /// One sweep: a parameter and the values it takes.
    public struct Sweep: Sendable {
        public var parameter: Parameter
        /// Its values, in order.
        public var values: [Double]

        /// Parses `name=from:to:step` (`to` included when the steps land on it).
        /// - Returns: `nil` and a reason when the text is not a sweep.
        public static func parse(_ text: String) -> Result<Sweep, SweepError> {
            let pieces = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard pieces.count == 2 else { return .failure(SweepError("'\(text)' is not name=from:to:step")) }
            guard let parameter = parameters.first(where: { $0.name == pieces[0] }) else {
                return .failure(
                    SweepError(
                        "unknown parameter '\(pieces[0])' (one of: \(parameters.map(\.name).joined(separator: ", ")))"))
            }
            let numbers = pieces[1].split(separator: ":", omittingEmptySubsequences: false).map { Double($0) }
            guard numbers.count == 3, let from = numbers[0], let to = numbers[1], let step = numbers[2], from.isFinite,
                to.isFinite, step.isFinite, step > 0, from <= to
            else { return .failure(SweepError("'\(pieces[1])' is not from:to:step with from <= to and step > 0")) }
            // Counted in floating point and compared before any conversion: a tiny step or a
            // huge span gives a count (or an infinity) no `Int` can hold.
            let steps = ((to - from) / step + 1e-9).rounded(.down)
            guard steps.isFinite, steps < Double(maximumValues) else {
                return .failure(SweepError("'\(text)' has more than \(maximumValues) values (use a larger step)"))
            }
            let count = Int(steps) + 1
            return .success(Sweep(parameter: parameter, values: (0..<count).map { from + Double($0) * step }))
        }
    }

    /// Why a sweep could not be read.
    public struct SweepError: Error, Sendable, CustomStringConvertible {
        /// The reason.
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// What one combination of values did.
    public struct Point: Sendable {
        /// The values, one per sweep.
        public var values: [Double]
        /// Accepted fixes over all traces.
        public var kept: Int
        /// Fixes the phone delivered over all traces.
        public var delivered: Int
        /// Median and 95th-percentile distance of accepted fixes from the truth, metres (with a truth trace).
        public var medianError: Double?
        /// The 95th percentile.
        public var p95Error: Double?
        /// Odometer distance ÷ the truth's path length (with a truth trace) or ÷ the trace's path
        /// sampled every 10 s (without), averaged over traces: above 1 is jitter counted as travel.
        public var distanceInflation: Double?
        /// On the Pareto front of kept (more is better) against error or inflation (less is better).
        public var isOnFront = false
    }

    /// Runs every combination of `sweeps` on the ideal phone for each trace with `engine` (which
    /// is handed the swept settings in its context), and marks the front.
    /// - Throws: `RunFailure.engine` when a custom engine failed.
    public static func run(_ traces: [Trace], sweeps: [Sweep], truth: Trace?, engine: EngineUnderTest = .builtIn)
        throws(RunFailure) -> [Point]
    {
        var combinations: [[Double]] = [[]]
        for sweep in sweeps { combinations = combinations.flatMap { prefix in sweep.values.map { prefix + [$0] } } }
        // Combinations are independent: run them on every core, store each by its index.
        let planned = combinations
        // The reference lengths do not depend on the settings: measure them once.
        let lengths = truth.map { [pathLength($0.fixes, every: 1)] } ?? traces.map { pathLength($0.fixes, every: 10) }
        let outcomes = ParallelLoop.map(iterations: planned.count) { index in
            Result { () throws(RunFailure) in
                try evaluate(
                    planned[index], sweeps: sweeps, traces: traces, truth: truth, lengths: lengths, engine: engine)
            }
        }
        var points: [Point] = []
        for outcome in outcomes { points.append(try outcome.get()) }
        markFront(&points, truth: truth != nil)
        return points
    }

    /// One combination on every trace; `lengths` are the truth's path length, or each trace's.
    private static func evaluate(
        _ values: [Double], sweeps: [Sweep], traces: [Trace], truth: Trace?, lengths: [Double], engine: EngineUnderTest
    ) throws(RunFailure) -> Point {
        var configuration = EngineConfiguration()
        configuration.startsMoving = true
        for (sweep, value) in zip(sweeps, values) { sweep.parameter.apply(&configuration, value) }
        var kept = 0
        var delivered = 0
        var errors: [Double] = []
        var inflation: [Double] = []
        for (index, trace) in traces.enumerated() {
            guard let scenario = Scenario.preset(named: "ideal") else { continue }
            var tuned = scenario
            tuned.engine = configuration
            let run = try ScenarioRunner.run(trace, tuned, engine: engine)
            kept += run.recorder.acceptedFixCount
            delivered += run.recorder.deliveredFixCount
            if let truth { errors += Self.errors(run.recorder, against: truth) }
            let length = truth == nil ? lengths[index] : lengths[0]
            if length > 0 { inflation.append(run.odometerMeters / length) }
        }
        errors.sort()
        return Point(
            values: values, kept: kept, delivered: delivered, medianError: percentile(errors, 0.5),
            p95Error: percentile(errors, 0.95),
            distanceInflation: inflation.isEmpty ? nil : inflation.reduce(0, +) / Double(inflation.count))
    }

    /// Distances of accepted fixes from the truth interpolated at their times; fixes outside the
    /// truth's span, or in a truth gap longer than 2 s, are skipped.
    public static func errors(_ recorder: Recorder, against truth: Trace) -> [Double] {
        let fixes = truth.fixes
        guard fixes.count >= 2 else { return [] }
        var result: [Double] = []
        var cursor = 0
        for (time, position) in zip(recorder.acceptedTimes, recorder.acceptedPositions) {
            while cursor + 1 < fixes.count && fixes[cursor + 1].timestamp < time { cursor += 1 }
            guard cursor + 1 < fixes.count, fixes[cursor].timestamp <= time else { continue }
            let (a, b) = (fixes[cursor], fixes[cursor + 1])
            let span = b.timestamp.seconds(since: a.timestamp)
            guard span > 0, span <= 2 else { continue }
            let share = time.seconds(since: a.timestamp) / span
            let truthPosition = Coordinate(
                latitude: a.latitude + (b.latitude - a.latitude) * share,
                longitude: a.longitude + (b.longitude - a.longitude) * share)
            result.append(Geodesy.distanceMeters(truthPosition, position))
        }
        return result
    }

    static func pathLength(_ fixes: [Fix], every seconds: Double) -> Double {
        var length = 0.0
        var last: Fix?
        for fix in fixes {
            guard let previous = last else {
                last = fix
                continue
            }
            guard fix.timestamp.seconds(since: previous.timestamp) >= seconds else { continue }
            length += Geodesy.distanceMeters(
                Coordinate(latitude: previous.latitude, longitude: previous.longitude),
                Coordinate(latitude: fix.latitude, longitude: fix.longitude))
            last = fix
        }
        return length
    }

    /// The value at `share` (0...1) of sorted values, nearest rank.
    public static func percentile(_ sorted: [Double], _ share: Double) -> Double? {
        guard !sorted.isEmpty else { return nil }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * share).rounded()))]
    }

    /// A point is on the front when no other keeps at least as many fixes with a strictly
    /// smaller cost, or more fixes at no greater cost. Cost: p95 error with a truth, otherwise
    /// the distance inflation's distance from 1.
    static func markFront(_ points: inout [Point], truth: Bool) {
        func cost(_ point: Point) -> Double? {
            truth ? point.p95Error : point.distanceInflation.map { abs($0 - 1) }
        }
        for index in points.indices {
            guard let mine = cost(points[index]) else { continue }
            let dominated = points.indices.contains { other in
                guard other != index, let theirs = cost(points[other]) else { return false }
                return (points[other].kept >= points[index].kept && theirs < mine)
                    || (points[other].kept > points[index].kept && theirs <= mine)
            }
            points[index].isOnFront = !dominated
        }
    }
}
