import Scenarios

extension Tuning {
    /// One row's measures summed over the traces seen so far: what the tune table pools, as the
    /// matrix table pools (`Metric.pooling` says how each metric is pooled).
    public struct Pool: Sendable, Equatable {
        public var traces = 0
        public var recordedFixes = 0
        public var acceptedFixes = 0
        public var deliveredFixes = 0
        public var referenceAcceptedFixes = 0
        public var geofenceMissed = 0
        public var geofenceSpurious = 0
        public var missedStops = 0
        public var coveredSeconds = 0.0
        /// The observed seconds of the traces (`Metrics.observedSeconds`): what time coverage
        /// and GPS hours per observed hour divide by.
        public var traceSeconds = 0.0
        public var maxGapSeconds = 0.0
        public var distanceMeters = 0.0
        /// The reference run's odometer, or the truth's path length with a truth.
        public var referenceDistanceMeters = 0.0
        /// The length of the path through the recorded fixes: the route an SDK uploads.
        public var recordedRouteMeters = 0.0
        /// The length of the path through the reference run's accepted fixes (the route, whatever
        /// the distance filter), or the truth's path length with a truth.
        public var referenceRouteMeters = 0.0
        public var gpsOnSeconds = 0.0
        /// The length of the path through the accepted fixes (`Metrics.keptPathMeters`).
        public var keptPathMeters = 0.0
        /// The length of the replayed trace's path (`Metrics.tracePathMeters`).
        public var tracePathMeters = 0.0
        /// Seconds within 30 s of a trace fix (`Metrics.traceCoveredSeconds`).
        public var traceCoveredSeconds = 0.0
        public var departureDelaySum = 0.0
        public var departures = 0
        public var arrivalDelaySum = 0.0
        public var arrivals = 0
        /// Whether position errors were measured (a truth was given).
        public var hasTruth = false
        /// The position error of every accepted fix, every trace; sorted by `finish()`.
        public var errors: [Double] = []

        public init() {}

        /// One trace's run measured against the fixed reference; `referenceDistanceMeters`
        /// and `errors` replace the reference run's distance when measured against a truth.
        public init(
            _ metrics: Metrics, traceSeconds: Double, truthLengthMeters: Double?, errors: [Double]?,
            route: (recorded: Double, reference: Double) = (0, 0)
        ) {
            recordedRouteMeters = route.recorded
            referenceRouteMeters = truthLengthMeters ?? route.reference
            traces = 1
            recordedFixes = metrics.recordedFixes
            acceptedFixes = metrics.acceptedFixes
            deliveredFixes = metrics.deliveredFixes
            referenceAcceptedFixes = metrics.idealAcceptedFixes
            geofenceMissed = metrics.geofenceMissed
            geofenceSpurious = metrics.geofenceSpurious
            missedStops = metrics.missedStops
            coveredSeconds = metrics.coveredSeconds
            self.traceSeconds = traceSeconds
            maxGapSeconds = metrics.maxGapSeconds
            distanceMeters = metrics.distanceMeters
            referenceDistanceMeters = truthLengthMeters ?? metrics.idealDistanceMeters
            gpsOnSeconds = metrics.gpsOnSeconds
            keptPathMeters = metrics.keptPathMeters
            tracePathMeters = metrics.tracePathMeters
            traceCoveredSeconds = metrics.traceCoveredSeconds
            if let delay = metrics.departureDelaySeconds {
                departureDelaySum = delay
                departures = 1
            }
            if let delay = metrics.arrivalDelaySeconds {
                arrivalDelaySum = delay
                arrivals = 1
            }
            hasTruth = errors != nil
            self.errors = errors ?? []
        }

        /// Adds another trace's (or pool's) measures. Sums are taken in the order pools are
        /// added, so a fixed order gives the same figures bit for bit.
        public mutating func add(_ other: Pool) {
            traces += other.traces
            recordedFixes += other.recordedFixes
            acceptedFixes += other.acceptedFixes
            deliveredFixes += other.deliveredFixes
            referenceAcceptedFixes += other.referenceAcceptedFixes
            geofenceMissed += other.geofenceMissed
            geofenceSpurious += other.geofenceSpurious
            missedStops += other.missedStops
            coveredSeconds += other.coveredSeconds
            traceSeconds += other.traceSeconds
            maxGapSeconds = max(maxGapSeconds, other.maxGapSeconds)
            distanceMeters += other.distanceMeters
            referenceDistanceMeters += other.referenceDistanceMeters
            recordedRouteMeters += other.recordedRouteMeters
            referenceRouteMeters += other.referenceRouteMeters
            gpsOnSeconds += other.gpsOnSeconds
            keptPathMeters += other.keptPathMeters
            tracePathMeters += other.tracePathMeters
            traceCoveredSeconds += other.traceCoveredSeconds
            departureDelaySum += other.departureDelaySum
            departures += other.departures
            arrivalDelaySum += other.arrivalDelaySum
            arrivals += other.arrivals
            hasTruth = hasTruth || other.hasTruth
            errors += other.errors
        }

        /// Sorts the errors so their percentiles can be read.
        public mutating func finish() { errors.sort() }

        /// The pooled value of `metric`; `nil` when it is undefined (a ratio over nothing, no
        /// truth, no departure).
        public func value(of metric: Metric) -> Double? {
            func ratio(_ part: Double, _ whole: Double) -> Double? { whole > 0 ? part / whole : nil }
            switch metric {
            case .recordedFixes: return Double(recordedFixes)
            case .acceptedFixes: return Double(acceptedFixes)
            case .deliveredFixes: return Double(deliveredFixes)
            case .collectionRatio: return ratio(Double(acceptedFixes), Double(referenceAcceptedFixes))
            case .timeCoverage: return ratio(coveredSeconds, traceSeconds)
            case .maxGapSeconds: return maxGapSeconds
            case .positionErrorMedianMeters: return hasTruth ? percentile(errors, 0.5) : nil
            case .positionErrorP95Meters: return hasTruth ? percentile(errors, 0.95) : nil
            case .distanceRatio: return ratio(distanceMeters, referenceDistanceMeters)
            case .recordedDistanceRatio: return ratio(recordedRouteMeters, referenceRouteMeters)
            case .gpsOnSeconds: return gpsOnSeconds
            case .departureDelaySeconds: return departures > 0 ? departureDelaySum / Double(departures) : nil
            case .arrivalDelaySeconds: return arrivals > 0 ? arrivalDelaySum / Double(arrivals) : nil
            case .geofenceMissed: return Double(geofenceMissed)
            case .geofenceSpurious: return Double(geofenceSpurious)
            case .missedStops: return Double(missedStops)
            case .tracePathRatio: return ratio(keptPathMeters, tracePathMeters)
            case .traceTimeCoverage: return ratio(coveredSeconds, traceCoveredSeconds)
            case .gpsHoursPerObservedHour: return ratio(gpsOnSeconds, traceSeconds)
            }
        }
    }
}
