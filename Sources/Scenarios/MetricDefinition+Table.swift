extension MetricDefinition {
    /// Every metric of a run, in the order the run JSON writes them (and the CSV and `check`
    /// list the measures among them). A new metric is declared here and added to this list.
    public static let run: [MetricDefinition] = [
        recordedFixes, deliveredFixes, acceptedFixes, collectionRatio, timeCoverage, maxGapSeconds, maxGapStartSeconds,
        distanceMeters, distanceRatio, rejectedByReason, geofenceEvents, geofenceMissed, geofenceSpurious,
        geofenceMeanDelaySeconds, geofenceMaxDelaySeconds, departureDelaySeconds, arrivalDelaySeconds, missedStops,
        gpsOnSeconds, positionErrorMedianMeters, positionErrorP95Meters, idealAcceptedFixes, coveredSeconds,
        idealCoveredSeconds, idealDistanceMeters, idealGpsOnSeconds, tracePathRatio, traceTimeCoverage, keptPathMeters,
        idealKeptPathMeters, tracePathMeters, traceCoveredSeconds, gpsHoursPerObservedHour, observedSeconds,
        unobservedSeconds, travelledUnobservedSeconds,
    ]

    /// The run's metrics a threshold may bound and the CSV lists, in run JSON order.
    public static let measures = run.filter(\.isMeasure)

    /// The run's metric of this name.
    public static func named(_ name: String) -> MetricDefinition? { run.first { $0.name == name } }

    public static let recordedFixes = MetricDefinition(
        "recordedFixes", .count, .higherIsBetter, pooled: .sum, field: .count(\.recordedFixes))
    public static let deliveredFixes = MetricDefinition(
        "deliveredFixes", .count, .higherIsBetter, pooled: .sum, field: .count(\.deliveredFixes))
    public static let acceptedFixes = MetricDefinition(
        "acceptedFixes", .count, .higherIsBetter, pooled: .sum, field: .count(\.acceptedFixes))
    public static let collectionRatio = MetricDefinition(
        "collectionRatio", .ratio, .higherIsBetter, pooled: .sumOverSum("Σ accepted ÷ Σ reference accepted"),
        writtenDigits: 4, field: .optionalNumber(\.collectionRatio))
    public static let timeCoverage = MetricDefinition(
        "timeCoverage", .ratio, .higherIsBetter,
        pooled: .sumOverSum("Σ seconds within 30 s of an accepted fix ÷ Σ observed seconds"), writtenDigits: 4,
        field: .number(\.timeCoverage))
    public static let maxGapSeconds = MetricDefinition(
        "maxGapSeconds", .seconds, .lowerIsBetter, pooled: .longest, writtenDigits: 3, field: .number(\.maxGapSeconds))
    public static let maxGapStartSeconds = MetricDefinition(
        "maxGapStartSeconds", .seconds, .unranked, pooled: .notPooled, writtenDigits: 3, isMeasure: false,
        field: .number(\.maxGapStartSeconds))
    public static let distanceMeters = MetricDefinition(
        "distanceMeters", .meters, .unranked, pooled: .sum, writtenDigits: 2, field: .number(\.distanceMeters))
    public static let distanceRatio = MetricDefinition(
        "distanceRatio", .ratio, .higherIsBetter,
        pooled: .sumOverSum("Σ odometer ÷ Σ reference distance (the truth's path with --truth)"), writtenDigits: 4,
        field: .optionalNumber(\.distanceRatio))
    public static let rejectedByReason = MetricDefinition(
        "rejectedByReason", .count, .unranked, pooled: .sum, isMeasure: false, field: .countsByReason)
    public static let geofenceEvents = MetricDefinition(
        "geofenceEvents", .count, .unranked, pooled: .sum, field: .count(\.geofenceEvents))
    public static let geofenceMissed = MetricDefinition(
        "geofenceMissed", .count, .lowerIsBetter, pooled: .sum, field: .count(\.geofenceMissed))
    public static let geofenceSpurious = MetricDefinition(
        "geofenceSpurious", .count, .lowerIsBetter, pooled: .sum, field: .count(\.geofenceSpurious))
    public static let geofenceMeanDelaySeconds = MetricDefinition(
        "geofenceMeanDelaySeconds", .seconds, .lowerIsBetter, pooled: .notPooled, writtenDigits: 3,
        field: .number(\.geofenceMeanDelaySeconds))
    public static let geofenceMaxDelaySeconds = MetricDefinition(
        "geofenceMaxDelaySeconds", .seconds, .lowerIsBetter, pooled: .longest, writtenDigits: 3,
        field: .number(\.geofenceMaxDelaySeconds))
    public static let departureDelaySeconds = MetricDefinition(
        "departureDelaySeconds", .seconds, .lowerIsBetter, pooled: .meanWhereBothHaveOne, writtenDigits: 3,
        field: .optionalNumber(\.departureDelaySeconds))
    public static let arrivalDelaySeconds = MetricDefinition(
        "arrivalDelaySeconds", .seconds, .lowerIsBetter, pooled: .meanWhereBothHaveOne, writtenDigits: 3,
        field: .optionalNumber(\.arrivalDelaySeconds))
    public static let missedStops = MetricDefinition(
        "missedStops", .count, .lowerIsBetter, pooled: .sum, field: .count(\.missedStops))
    public static let gpsOnSeconds = MetricDefinition(
        "gpsOnSeconds", .seconds, .lowerIsBetter, pooled: .sum, writtenDigits: 3, field: .number(\.gpsOnSeconds))
    /// Against the truth with `--truth`, else against the replayed trace (the run JSON's
    /// `positionErrorReference` says which); `tune` measures it only against a truth.
    public static let positionErrorMedianMeters = MetricDefinition(
        "positionErrorMedianMeters", .meters, .lowerIsBetter, pooled: .overEveryAcceptedFix, writtenDigits: 3,
        needsTruth: true, field: .optionalNumber(\.positionErrorMedianMeters))
    public static let positionErrorP95Meters = MetricDefinition(
        "positionErrorP95Meters", .meters, .lowerIsBetter, pooled: .overEveryAcceptedFix, writtenDigits: 3,
        needsTruth: true, field: .optionalNumber(\.positionErrorP95Meters))
    public static let idealAcceptedFixes = MetricDefinition(
        "idealAcceptedFixes", .count, .unranked, pooled: .sum, field: .count(\.idealAcceptedFixes))
    public static let coveredSeconds = MetricDefinition(
        "coveredSeconds", .seconds, .higherIsBetter, pooled: .sum, writtenDigits: 3, field: .number(\.coveredSeconds))
    public static let idealCoveredSeconds = MetricDefinition(
        "idealCoveredSeconds", .seconds, .unranked, pooled: .sum, writtenDigits: 3,
        field: .number(\.idealCoveredSeconds))
    public static let idealDistanceMeters = MetricDefinition(
        "idealDistanceMeters", .meters, .unranked, pooled: .sum, writtenDigits: 2,
        field: .number(\.idealDistanceMeters))
    public static let idealGpsOnSeconds = MetricDefinition(
        "idealGpsOnSeconds", .seconds, .unranked, pooled: .sum, writtenDigits: 3, field: .number(\.idealGpsOnSeconds))

    // Against the replayed trace, the reference every engine shares (`TraceReference`).
    public static let tracePathRatio = MetricDefinition(
        "tracePathRatio", .ratio, .higherIsBetter, pooled: .sumOverSum("Σ path through accepted fixes ÷ Σ trace path"),
        writtenDigits: 4, field: .optionalNumber(\.tracePathRatio))
    public static let traceTimeCoverage = MetricDefinition(
        "traceTimeCoverage", .ratio, .higherIsBetter,
        pooled: .sumOverSum("Σ seconds within 30 s of an accepted fix ÷ Σ seconds within 30 s of a trace fix"),
        writtenDigits: 4, field: .optionalNumber(\.traceTimeCoverage))
    public static let keptPathMeters = MetricDefinition(
        "keptPathMeters", .meters, .unranked, pooled: .sum, writtenDigits: 2, field: .number(\.keptPathMeters))
    public static let idealKeptPathMeters = MetricDefinition(
        "idealKeptPathMeters", .meters, .unranked, pooled: .sum, writtenDigits: 2,
        field: .number(\.idealKeptPathMeters))
    public static let tracePathMeters = MetricDefinition(
        "tracePathMeters", .meters, .unranked, pooled: .sum, writtenDigits: 2, field: .number(\.tracePathMeters))
    public static let traceCoveredSeconds = MetricDefinition(
        "traceCoveredSeconds", .seconds, .unranked, pooled: .sum, writtenDigits: 3,
        field: .number(\.traceCoveredSeconds))

    // Observed time (`UnobservedTime`): what every time-based metric is measured over.
    public static let gpsHoursPerObservedHour = MetricDefinition(
        "gpsHoursPerObservedHour", .ratio, .lowerIsBetter, pooled: .sumOverSum("Σ GPS-on seconds ÷ Σ observed seconds"),
        writtenDigits: 4, field: .optionalNumber(\.gpsHoursPerObservedHour))
    public static let observedSeconds = MetricDefinition(
        "observedSeconds", .seconds, .unranked, pooled: .sum, writtenDigits: 3, field: .number(\.observedSeconds))
    public static let unobservedSeconds = MetricDefinition(
        "unobservedSeconds", .seconds, .unranked, pooled: .sum, writtenDigits: 3, field: .number(\.unobservedSeconds))
    public static let travelledUnobservedSeconds = MetricDefinition(
        "travelledUnobservedSeconds", .seconds, .unranked, pooled: .sum, writtenDigits: 3,
        field: .number(\.travelledUnobservedSeconds))
}
