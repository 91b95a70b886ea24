/// What one metric is: its name as printed and serialised, its unit, which way is better, how it
/// pools over traces, how precisely the run JSON writes it, and where its value lives in
/// `Metrics`.
///
/// Each metric is declared once, in `MetricDefinition+Table.swift`; the run JSON, the CSV, the
/// saved-run reader of `tracesim summarize`, the thresholds of `tracesim check` and the
/// objectives of `tracesim tune` all read that declaration, so a new metric is one line there
/// beside its field and its computation in `Metrics`.
public struct MetricDefinition: Sendable, Hashable, CustomStringConvertible {
    /// What a value counts or measures.
    public enum Unit: Sendable {
        /// Fixes, events or stops.
        case count
        /// A share or a quotient of two like quantities.
        case ratio
        /// A duration or a delay.
        case seconds
        /// A distance.
        case meters

        /// The unit as reports print it beside a value: `count`, `ratio`, `s` or `m`.
        public var symbol: String {
            switch self {
            case .count: "count"
            case .ratio: "ratio"
            case .seconds: "s"
            case .meters: "m"
            }
        }
    }

    /// Which way a metric is better.
    public enum Direction: Sendable {
        /// More is better (fixes kept, coverage).
        case higherIsBetter
        /// Less is better (gaps, delays, battery).
        case lowerIsBetter
        /// Neither: a denominator or a position, not a verdict.
        case unranked
    }

    /// How a metric of several traces combines into one value.
    public enum Pooling: Sendable, Hashable, CustomStringConvertible {
        /// Summed over traces.
        case sum
        /// One sum over another, as the associated text says; sums over sums weigh a trace by
        /// what it holds, so a long drive is not outvoted by short ones.
        case sumOverSum(String)
        /// The largest value of any trace.
        case longest
        /// The mean over the traces where both the run and its reference have a value.
        case meanWhereBothHaveOne
        /// Measured again over every accepted fix of every trace, not from per-trace values.
        case overEveryAcceptedFix
        /// Not pooled: a per-run value with no meaning summed or averaged.
        case notPooled

        /// The rule in words, as `tracesim tune --help` prints it.
        public var description: String {
            switch self {
            case .sum: "Σ over traces"
            case .sumOverSum(let rule): rule
            case .longest: "the longest over traces"
            case .meanWhereBothHaveOne: "mean over traces where both runs have one"
            case .overEveryAcceptedFix: "over every accepted fix of every trace"
            case .notPooled: "not pooled"
            }
        }
    }

    /// Where a run's value lives in `Metrics`.
    package enum Field: Sendable {
        /// A whole number, always present.
        case count(WritableKeyPath<Metrics, Int> & Sendable)
        /// A number, always present.
        case number(WritableKeyPath<Metrics, Double> & Sendable)
        /// A number a run may have none of (`null` in JSON).
        case optionalNumber(WritableKeyPath<Metrics, Double?> & Sendable)
        /// Counts keyed by rejection reason (`rejectedByReason`).
        case countsByReason
        /// No per-run value: only a pool of runs has one (`Tuning.Pool`).
        case pooledOnly
    }

    /// The name everywhere: the run JSON's key, the CSV's column, the name `check` and `tune` take.
    public let name: String
    /// What a value counts or measures.
    public let unit: Unit
    /// Which way is better; tune's default direction for an objective.
    public let direction: Direction
    /// How values over traces combine.
    public let pooling: Pooling
    /// The decimal places the run JSON keeps (`nil`: written as it is, as counts are); tables
    /// computed from saved runs read the same rounded values.
    public let writtenDigits: Int?
    /// Whether it is a measure a threshold may bound and the CSV lists; not so for the position
    /// of the longest gap or the rejections by reason.
    public let isMeasure: Bool
    /// Whether `tracesim tune` measures it only against a ground truth (`--truth`, or the clean
    /// trace with `--noise`), and so refuses it without one. A run measures the position error
    /// against the replayed trace when no truth is given.
    public let needsTruth: Bool
    package let field: Field

    package init(
        _ name: String, _ unit: Unit, _ direction: Direction, pooled pooling: Pooling, writtenDigits: Int? = nil,
        isMeasure: Bool = true, needsTruth: Bool = false, field: Field
    ) {
        self.name = name
        self.unit = unit
        self.direction = direction
        self.pooling = pooling
        self.writtenDigits = writtenDigits
        self.isMeasure = isMeasure
        self.needsTruth = needsTruth
        self.field = field
    }

    /// The name.
    public var description: String { name }

    /// The value of this metric in `metrics`; `nil` when the run has none, or the metric is not
    /// a single number of a run.
    public func value(in metrics: Metrics) -> Double? {
        switch field {
        case .count(let path): Double(metrics[keyPath: path])
        case .number(let path): metrics[keyPath: path]
        case .optionalNumber(let path): metrics[keyPath: path]
        case .countsByReason, .pooledOnly: nil
        }
    }

    // A metric is its name: two declarations of one name would be a mistake the table's test catches.
    public static func == (left: Self, right: Self) -> Bool { left.name == right.name }

    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
