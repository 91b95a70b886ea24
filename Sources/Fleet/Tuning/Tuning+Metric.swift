import Scenarios
import SimulationCore

extension Tuning {
    /// A measure of a row that objectives and constraints name, spelled as the run JSON's
    /// metric key (`tracesim replay --format json`).
    public enum Metric: String, Sendable, CaseIterable {
        case recordedFixes, acceptedFixes, deliveredFixes, collectionRatio, timeCoverage, maxGapSeconds
        case positionErrorMedianMeters, positionErrorP95Meters, distanceRatio, recordedDistanceRatio, gpsOnSeconds
        case departureDelaySeconds, arrivalDelaySeconds, geofenceMissed, geofenceSpurious, missedStops

        /// Which way is better when an objective names no direction.
        public var defaultDirection: Direction {
            switch self {
            case .recordedFixes, .acceptedFixes, .deliveredFixes, .collectionRatio, .timeCoverage, .distanceRatio,
                .recordedDistanceRatio:
                .max
            case .maxGapSeconds, .positionErrorMedianMeters, .positionErrorP95Meters, .gpsOnSeconds,
                .departureDelaySeconds, .arrivalDelaySeconds, .geofenceMissed, .geofenceSpurious, .missedStops:
                .min
            }
        }

        /// Whether it is measured against a ground truth (`--truth`), and so absent without one.
        public var needsTruth: Bool { self == .positionErrorMedianMeters || self == .positionErrorP95Meters }

        /// The unit shown beside values ("" for counts and ratios).
        public var unit: String {
            switch self {
            case .maxGapSeconds, .gpsOnSeconds, .departureDelaySeconds, .arrivalDelaySeconds: "s"
            case .positionErrorMedianMeters, .positionErrorP95Meters: "m"
            case .collectionRatio, .timeCoverage, .distanceRatio, .recordedDistanceRatio: "ratio"
            default: "count"
            }
        }

        /// How a row pools it over traces, for `--help` and the documentation.
        public var pooling: String {
            switch self {
            case .recordedFixes, .acceptedFixes, .deliveredFixes, .geofenceMissed, .geofenceSpurious, .missedStops,
                .gpsOnSeconds:
                "Σ over traces"
            case .collectionRatio: "Σ accepted ÷ Σ reference accepted"
            case .timeCoverage: "Σ seconds within 30 s of an accepted fix ÷ Σ trace seconds"
            case .maxGapSeconds: "the longest over traces"
            case .positionErrorMedianMeters, .positionErrorP95Meters: "over every accepted fix of every trace"
            case .distanceRatio: "Σ odometer ÷ Σ reference distance (the truth's path with --truth)"
            case .recordedDistanceRatio:
                "Σ length through the recorded fixes ÷ Σ length through the reference's accepted fixes "
                    + "(the truth's path with --truth)"
            case .departureDelaySeconds, .arrivalDelaySeconds: "mean over traces where both runs have one"
            }
        }
    }

    /// Which way an objective or a front prefers a metric.
    public enum Direction: String, Sendable {
        case min, max
    }

    /// A metric to minimise or maximise.
    public struct Objective: Sendable, Equatable {
        public var metric: Metric
        public var direction: Direction

        /// An objective.
        public init(_ metric: Metric, _ direction: Direction) {
            self.metric = metric
            self.direction = direction
        }

        /// Parses `NAME` or `NAME:min|max`.
        public static func parse(_ text: String) -> Result<Objective, SweepError> {
            let pieces = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard pieces.count <= 2, let metric = Metric(rawValue: pieces[0]) else {
                if pieces.count > 2 { return .failure(SweepError("'\(text)' is not NAME or NAME:min|max")) }
                return .failure(SweepError("unknown metric '\(pieces[0])' (one of: \(metricList))"))
            }
            guard pieces.count == 2 else { return .success(Objective(metric, metric.defaultDirection)) }
            guard let direction = Direction(rawValue: pieces[1]) else {
                return .failure(SweepError("'\(pieces[1])' in '\(text)' is not min or max"))
            }
            return .success(Objective(metric, direction))
        }

        /// The objectives used when none is given.
        public static func defaults(hasTruth: Bool) -> [Objective] {
            hasTruth
                ? [Objective(.recordedFixes, .max), Objective(.positionErrorP95Meters, .min)]
                : [Objective(.recordedFixes, .max), Objective(.gpsOnSeconds, .min)]
        }
    }

    /// Every metric name, for messages.
    public static var metricList: String { Metric.allCases.map(\.rawValue).joined(separator: ", ") }

    /// A bound a row must meet: `distanceRatio>=0.95`.
    public struct Constraint: Sendable, Equatable, CustomStringConvertible {
        /// A comparison.
        public enum Comparison: String, Sendable, CaseIterable {
            case atLeast = ">=", atMost = "<=", above = ">", below = "<"
        }

        public var metric: Metric
        public var comparison: Comparison
        public var bound: Double

        /// As written: `distanceRatio>=0.95`.
        public var description: String { "\(metric.rawValue)\(comparison.rawValue)\(SettingValue.number(bound))" }

        /// Whether `value` meets it; an absent value never does.
        public func isMet(by value: Double?) -> Bool {
            guard let value else { return false }
            switch comparison {
            case .atLeast: return value >= bound
            case .atMost: return value <= bound
            case .above: return value > bound
            case .below: return value < bound
            }
        }

        /// Parses `NAME>=X`, `NAME<=X`, `NAME>X` or `NAME<X` (spaces around the parts allowed).
        public static func parse(_ text: String) -> Result<Constraint, SweepError> {
            // Two-character operators first, so `>=` is not read as `>` then `=X`.
            for comparison in [Comparison.atLeast, .atMost, .above, .below] {
                guard let found = text.range(of: comparison.rawValue) else { continue }
                let name = text[..<found.lowerBound].trimmingCharacters(in: " ")
                let number = text[found.upperBound...].trimmingCharacters(in: " ")
                guard let metric = Metric(rawValue: name) else {
                    return .failure(
                        SweepError(
                            name.isEmpty
                                ? "'\(text)' names no metric (NAME>=X)"
                                : "unknown metric '\(name)' (one of: \(metricList))"))
                }
                guard let bound = DecimalNumber.decimal(number, allowsNegative: true), bound.isFinite else {
                    return .failure(
                        SweepError(
                            "'\(number)' in '\(text)' is not a decimal number (\(DecimalNumber.decimalForm))"))
                }
                return .success(Constraint(metric: metric, comparison: comparison, bound: bound))
            }
            return .failure(SweepError("'\(text)' has no comparison (NAME>=X, NAME<=X, NAME>X or NAME<X)"))
        }
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
    }
}
