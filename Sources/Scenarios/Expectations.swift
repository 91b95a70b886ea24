import ConfigJSON
import Traces

/// Thresholds for `tracesim check`: CI fails when a metric crosses one.
///
/// ```json
/// {"thresholds": [
///   {"scenario": "wheninuse-locked", "metric": "timeCoverage", "min": 0.2},
///   {"scenario": "*", "metric": "collectionRatio", "max": 1},
///   {"scenario": "always-precise", "trace": "bike.tcx", "metric": "acceptedFixes", "min": 1000},
///   {"scenario": "denied", "metric": "departureDelaySeconds", "max": 60, "allowMissing": true}]}
/// ```
/// `scenario` is a preset name, a scenario file, or `*` (every preset); `trace`, when given,
/// limits the threshold to traces whose path ends with it. A trace named `FILE#N` (one track
/// of a file, `--tracks each`) is matched by a name of the file too, so `"mix.gpx"` applies
/// to every track of `mix.gpx` and `"mix.gpx#2"` to the second alone. A metric with no value for a run
/// (a ratio against an ideal run that had nothing, a delay when a run never departed) fails
/// the threshold unless it says `"allowMissing": true`. A threshold that applies to no run is
/// an error, not a pass.
public struct Expectations: Sendable {
    /// One bound on one metric.
    public struct Threshold: Sendable, Equatable {
        /// A preset name, a scenario file path, or `*`.
        public var scenario: String
        /// A suffix of the trace path, or `nil` for every trace.
        public var trace: String?
        /// The metric bounded: one of `MetricDefinition.measures`, named by its run JSON key.
        public var metric: MetricDefinition
        /// The smallest value allowed.
        public var minimum: Double?
        /// The largest value allowed.
        public var maximum: Double?
        /// Whether a run with no value for the metric passes (`"allowMissing": true`).
        public var allowsMissing = false
        /// Where the threshold stands in the file: its JSON path, line and column.
        public var path = ""
        /// The 1-based line of the threshold's object.
        public var line: Int?
        /// The 1-based column of the threshold's object.
        public var column: Int?

        /// Whether the threshold applies to a run of `scenario` (its name, and the name it was
        /// given by) on `trace`.
        public func applies(trace: String, scenario: String, givenAs: String) -> Bool {
            guard self.scenario == "*" || self.scenario == scenario || self.scenario == givenAs else { return false }
            if let suffix = self.trace, !Self.trace(trace, endsWith: suffix) { return false }
            return true
        }

        /// Whether `trace`, or the file it is a track of when named `FILE#N`, ends with `suffix`.
        static func trace(_ trace: String, endsWith suffix: String) -> Bool {
            if trace.hasSuffix(suffix) { return true }
            guard let mark = trace.lastIndex(of: "#") else { return false }
            let track = trace[trace.index(after: mark)...]
            guard !track.isEmpty, track.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
            return trace[..<mark].hasSuffix(suffix)
        }
    }

    /// The result of one threshold on one run.
    public struct Verdict: Sendable, Equatable {
        /// The trace path.
        public var trace: String
        /// The scenario name.
        public var scenario: String
        public var threshold: Threshold
        /// The measured value; `nil` when the metric has none (a ratio against an empty ideal run).
        public var value: Double?
        /// Whether the value is within the bounds; a missing value passes only where the
        /// threshold allows it.
        public var passed: Bool {
            guard let value else { return threshold.allowsMissing }
            if let minimum = threshold.minimum, value < minimum { return false }
            if let maximum = threshold.maximum, value > maximum { return false }
            return true
        }
    }

    /// The thresholds, in file order.
    public var thresholds: [Threshold]
    /// The file they were read from, for errors about them.
    public var file = ""

    /// Parses `bytes` from `file`.
    /// - Throws: `ConfigError` for the first problem.
    public static func parse(_ bytes: [UInt8], file: String) throws(ConfigError) -> Expectations {
        let reader = ConfigReader(file: file)
        let root = try ConfigJSON.parse(bytes, file: file)
        let members = try reader.object(root, "$", allowed: ["thresholds"])
        var thresholds: [Threshold] = []
        for (index, node) in try reader.array(try reader.required(members, "thresholds", in: root, "$"), "$.thresholds")
            .enumerated()
        {
            let path = "$.thresholds[\(index)]"
            let fields = try reader.object(
                node, path, allowed: ["scenario", "trace", "metric", "min", "max", "allowMissing"])
            let scenarioNode = try reader.required(fields, "scenario", in: node, path)
            let scenario = try reader.string(scenarioNode, "\(path).scenario")
            if scenario != "*", !scenario.hasSuffix(".json"), Scenario.preset(named: scenario) == nil {
                throw reader.fail(scenarioNode, "\(path).scenario", unknownScenario(scenario))
            }
            let trace = try fields["trace"].map { (value) throws(ConfigError) in
                try reader.string(value, "\(path).trace")
            }
            let metric = try reader.token(
                try reader.required(fields, "metric", in: node, path), "\(path).metric",
                MetricDefinition.measures.map { ($0.name, $0) })
            let range = -1e15...1e15
            let minimum = try fields["min"].map { (value) throws(ConfigError) in
                try reader.number(value, "\(path).min", in: range)
            }
            let maximum = try fields["max"].map { (value) throws(ConfigError) in
                try reader.number(value, "\(path).max", in: range)
            }
            guard minimum != nil || maximum != nil else { throw reader.fail(node, path, "give 'min', 'max' or both") }
            if let minimum, let maximum, minimum > maximum {
                throw reader.fail(node, path, "'min' \(minimum) is above 'max' \(maximum)")
            }
            let allowsMissing = try fields["allowMissing"].map { (value) throws(ConfigError) in
                try reader.bool(value, "\(path).allowMissing")
            }
            // The location is taken from an error at the node, however nodes keep theirs.
            let anchor = reader.fail(node, path, "")
            thresholds.append(
                Threshold(
                    scenario: scenario, trace: trace, metric: metric, minimum: minimum, maximum: maximum,
                    allowsMissing: allowsMissing ?? false, path: path, line: anchor.line, column: anchor.column))
        }
        guard !thresholds.isEmpty else { throw reader.fail(root, "$.thresholds", "no thresholds: nothing to check") }
        return Expectations(thresholds: thresholds, file: file)
    }

    private static func unknownScenario(_ name: String) -> String {
        let names = Scenario.presets.map(\.name)
        let nearest = names.min { $0.difference(from: name).count < $1.difference(from: name).count } ?? ""
        return "unknown scenario '\(name)' (did you mean '\(nearest)'? see 'tracesim scenarios', or name a .json file)"
    }

    /// Refuses a threshold that applies to none of the runs: it would pass with nothing checked.
    /// - Parameters:
    ///   - traces: the trace paths to be replayed.
    ///   - files: how many files the traces came from (`nil`: one each); under `--tracks each`
    ///     a file gives a trace per track, and the user counts the files given.
    ///   - scenarios: each scenario's name and the name it was given by.
    /// - Throws: `ConfigError` at the first such threshold, saying what matched nothing.
    public func checkEveryThresholdApplies(
        traces: [String], files: Int? = nil, scenarios: [(name: String, givenAs: String)]
    ) throws(ConfigError) {
        for threshold in thresholds {
            let applies = traces.contains { trace in
                scenarios.contains { threshold.applies(trace: trace, scenario: $0.name, givenAs: $0.givenAs) }
            }
            guard !applies else { continue }
            var reasons: [String] = []
            if let suffix = threshold.trace, !traces.contains(where: { Threshold.trace($0, endsWith: suffix) }) {
                let given = files ?? traces.count
                reasons.append("no trace given ends with '\(suffix)' (\(given) trace\(given == 1 ? "" : "s") given)")
            }
            if !scenarios.contains(where: {
                threshold.scenario == "*" || [$0.name, $0.givenAs].contains(threshold.scenario)
            }) {
                reasons.append("no scenario run is '\(threshold.scenario)'")
            }
            if reasons.isEmpty { reasons.append("no run is of both that trace and that scenario") }
            throw ConfigError(
                file: file, line: threshold.line, column: threshold.column, path: threshold.path,
                message: "the threshold on '\(threshold.metric)' applies to no run: " + reasons.joined(separator: "; "))
        }
    }

    /// Judges `metrics` of `scenario` (its name, and the name it was given by on the command
    /// line) on `trace` against every threshold that applies.
    public func verdicts(trace: String, scenario: String, givenAs: String, metrics: Metrics) -> [Verdict] {
        thresholds.compactMap { threshold in
            guard threshold.applies(trace: trace, scenario: scenario, givenAs: givenAs) else { return nil }
            return Verdict(
                trace: trace, scenario: scenario, threshold: threshold, value: threshold.metric.value(in: metrics))
        }
    }
}
