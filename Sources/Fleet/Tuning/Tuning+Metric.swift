import Scenarios
import SimulationCore

extension Tuning {
    /// A measure of a row that objectives and constraints name: a run metric that tune pools
    /// (`Pool.value(of:)`), or one only a pool has. Its name, unit, direction and pooling are
    /// its `definition`'s, so they are the run JSON's (`tracesim replay --format json`).
    public enum Metric: Sendable, CaseIterable, RawRepresentable {
        case recordedFixes, acceptedFixes, deliveredFixes, collectionRatio, timeCoverage, maxGapSeconds
        case positionErrorMedianMeters, positionErrorP95Meters, distanceRatio, recordedDistanceRatio, gpsOnSeconds
        case departureDelaySeconds, arrivalDelaySeconds, geofenceMissed, geofenceSpurious, missedStops
        case tracePathRatio, traceTimeCoverage, gpsHoursPerObservedHour

        /// The declaration of the metric.
        public var definition: MetricDefinition {
            switch self {
            case .recordedFixes: .recordedFixes
            case .acceptedFixes: .acceptedFixes
            case .deliveredFixes: .deliveredFixes
            case .collectionRatio: .collectionRatio
            case .timeCoverage: .timeCoverage
            case .maxGapSeconds: .maxGapSeconds
            case .positionErrorMedianMeters: .positionErrorMedianMeters
            case .positionErrorP95Meters: .positionErrorP95Meters
            case .distanceRatio: .distanceRatio
            case .recordedDistanceRatio: .recordedDistanceRatio
            case .gpsOnSeconds: .gpsOnSeconds
            case .departureDelaySeconds: .departureDelaySeconds
            case .arrivalDelaySeconds: .arrivalDelaySeconds
            case .geofenceMissed: .geofenceMissed
            case .geofenceSpurious: .geofenceSpurious
            case .missedStops: .missedStops
            case .tracePathRatio: .tracePathRatio
            case .traceTimeCoverage: .traceTimeCoverage
            case .gpsHoursPerObservedHour: .gpsHoursPerObservedHour
            }
        }

        /// The metric's name.
        public var rawValue: String { definition.name }

        /// The metric of this name.
        public init?(rawValue: String) {
            guard let metric = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
            self = metric
        }

        /// Which way is better when an objective names no direction.
        public var defaultDirection: Direction { definition.direction == .lowerIsBetter ? .min : .max }

        /// Whether it is measured against a ground truth (`--truth`), and so absent without one.
        public var needsTruth: Bool { definition.needsTruth }

        /// The unit shown beside values (`count`, `ratio`, `s` or `m`).
        public var unit: String { definition.unit.symbol }

        /// How a row pools it over traces, for `--help` and the documentation.
        public var pooling: String { definition.pooling.description }
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

extension MetricDefinition {
    /// The length of the recorded route against the reference's: what an SDK uploads, measured
    /// only over a pool of runs (`Tuning.Pool`), which keeps the routes.
    public static let recordedDistanceRatio = MetricDefinition(
        "recordedDistanceRatio", .ratio, .higherIsBetter,
        pooled: .sumOverSum(
            "Σ length through the recorded fixes ÷ Σ length through the reference's accepted fixes "
                + "(the truth's path with --truth)"),
        field: .pooledOnly)
}
