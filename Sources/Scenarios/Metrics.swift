import Engine
import SimulationCore
import Traces

/// A run measured against the ideal run of the same trace and seed, and against the trace.
///
/// The ideal run is relative (an engine compared with itself at its best); the replayed trace
/// is absolute, the same for every engine (`TraceReference`): `tracePathRatio`,
/// `traceTimeCoverage` and, without a ground truth, the position errors read it.
///
/// Each field is declared once in `MetricDefinition.run` (its name, unit, direction, pooling
/// and precision), which every report, `check` and `tune` read; a new metric is a field here,
/// its computation in `init(_:ideal:)`, and its declaration there.
public struct Metrics: Sendable, Equatable {
    /// Fixes the distance filter kept (what the SDK would upload).
    public var recordedFixes: Int = 0
    /// Fixes the phone delivered.
    public var deliveredFixes: Int = 0
    /// Fixes the gate accepted.
    public var acceptedFixes: Int = 0
    /// The ideal run's accepted fixes: the denominator a pooled table sums.
    public var idealAcceptedFixes: Int = 0
    /// Accepted ÷ the ideal run's accepted; `nil` when the ideal accepted none (nothing to lose).
    public var collectionRatio: Double?
    /// Share of the trace's observed time within 30 s of an accepted fix.
    public var timeCoverage: Double = 0
    /// Seconds of the trace's observed time within 30 s of an accepted fix (`timeCoverage` ×
    /// `observedSeconds`).
    public var coveredSeconds: Double = 0
    /// Seconds of the trace's span every time-based metric is measured over: the span less
    /// `unobservedSeconds`.
    public var observedSeconds: Double = 0
    /// Seconds of the trace's unobserved spans left out of every time-based metric, the run's
    /// and its ideal run's alike (`UnobservedTime.leftOut`): each span of more than 600 s
    /// without a fix or motion sample, from its last input plus the grace to its end.
    public var unobservedSeconds: Double = 0
    /// Seconds of the unobserved spans whose two ends are more than 1 km apart, whole: the
    /// phone travelled where the trace recorded nothing (`UnobservedTime.travelledSeconds`).
    public var travelledUnobservedSeconds: Double = 0
    /// The ideal run's covered seconds, the denominator of pooled coverage.
    public var idealCoveredSeconds: Double = 0
    /// The longest stretch of the trace without an accepted fix, and where it starts (seconds
    /// from the first fix).
    public var maxGapSeconds: Double = 0
    /// Where the longest gap starts.
    public var maxGapStartSeconds: Double = 0
    /// Odometer distance.
    public var distanceMeters: Double = 0
    /// The ideal run's odometer distance.
    public var idealDistanceMeters: Double = 0
    /// Distance ÷ the ideal run's distance; `nil` when the ideal moved none.
    public var distanceRatio: Double?
    /// A rejection reason code and how often it occurred.
    public struct ReasonCount: Sendable, Equatable {
        /// The stable reason code.
        public var reason: String
        /// How many fixes were rejected for it.
        public var count: Int

        /// A reason code and its count.
        public init(reason: String, count: Int) {
            self.reason = reason
            self.count = count
        }
    }

    /// Rejections by reason code, in code order.
    public var rejectedByReason: [ReasonCount] = []
    /// Geofence events reported.
    public var geofenceEvents: Int = 0
    /// Ideal events with no matching event (same fence and action) here.
    public var geofenceMissed: Int = 0
    /// Events here with no match in the ideal run.
    public var geofenceSpurious: Int = 0
    /// Mean and maximum delay of matched geofence events, seconds.
    public var geofenceMeanDelaySeconds: Double = 0
    /// The largest delay of a matched event.
    public var geofenceMaxDelaySeconds: Double = 0
    /// Departure here minus the ideal run's; `nil` when either never departed. A departure is
    /// what the app could know: the first fix recorded in the moving state
    /// (`Metrics.departure(in:)`), so an app that receives no location never departs.
    public var departureDelaySeconds: Double?
    /// Arrival here minus the ideal run's; `nil` when either never arrived. An arrival is the
    /// first stop after the departure (`Metrics.arrival(in:)`).
    public var arrivalDelaySeconds: Double?
    /// Stops of the ideal run this run never detected (`Metrics.missedStops(_:reference:)`): a
    /// delivery stop an SDK merged into the drive, so no arrival was reported there.
    public var missedStops: Int = 0
    /// Seconds the phone ran GPS for the app, over observed time: GPS that started before an
    /// unobserved span counts until its last input plus the grace (`UnobservedTime`).
    public var gpsOnSeconds: Double = 0
    /// The ideal run's GPS seconds over the same observed time, for a battery ratio.
    public var idealGpsOnSeconds: Double = 0
    /// GPS hours per observed hour: `gpsOnSeconds` ÷ `observedSeconds`, the battery proxy on a
    /// scale of its own (1 is GPS on all the time) beside the ratio to the ideal run; `nil`
    /// when nothing was observed.
    public var gpsHoursPerObservedHour: Double?
    /// Median distance of accepted fixes from the reference at the same instant: a ground-truth
    /// recording when one was given (`measureError(of:against:)`), else the replayed trace;
    /// `positionErrorReference` says which. `nil` when no fix could be measured.
    public var positionErrorMedianMeters: Double?
    /// The 95th percentile of that distance.
    public var positionErrorP95Meters: Double?
    /// What the position errors were measured against; `nil` when no fix could be measured
    /// against the trace and no truth was given.
    public var positionErrorReference: PositionErrorReference?
    /// The length of the path through the accepted fixes (the fixes a run keeps), metres.
    public var keptPathMeters: Double = 0
    /// The ideal run's `keptPathMeters`: its own share of the trace.
    public var idealKeptPathMeters: Double = 0
    /// The length of the replayed trace's path (`TraceReference.pathMeters`), metres.
    public var tracePathMeters: Double = 0
    /// Seconds of the trace within 30 s of one of its own fixes (`TraceReference.coveredSeconds`):
    /// the denominator of `traceTimeCoverage`.
    public var traceCoveredSeconds: Double = 0
    /// Kept path ÷ the trace's path; `nil` when the trace has no length. Above 1 the run kept
    /// fixes off the trace (reduced-accuracy fixes counted as kept), far below it the run
    /// lost the trace, whatever its ideal run did.
    public var tracePathRatio: Double?
    /// The share of the trace's time within 30 s of a kept fix: covered seconds ÷ the trace's
    /// own covered seconds, the time the trace knows where the phone was. `timeCoverage`
    /// divides by the trace's whole span instead, gaps in the trace included, which no engine
    /// can cover; `nil` when the trace covers no time.
    public var traceTimeCoverage: Double?

    /// Replaces the position error with that of `run`'s accepted fixes against `truth`: a truth
    /// takes precedence over the trace (`positionErrorReference` becomes `.truth`, even when no
    /// fix falls within the truth).
    public mutating func measureError(of run: ScenarioRun, against truth: Trace) {
        let errors = Tuning.errors(run.recorder, against: truth).sorted()
        positionErrorMedianMeters = Tuning.percentile(errors, 0.5)
        positionErrorP95Meters = Tuning.percentile(errors, 0.95)
        positionErrorReference = .truth
    }

    /// Metrics of nothing: every count and length zero, every ratio and delay absent. Saved runs
    /// are read into one field by field.
    package init() {}

    /// Compares `run` with `ideal`.
    public init(_ run: ScenarioRun, ideal: ScenarioRun) {
        let recorder = run.recorder
        recordedFixes = recorder.recordedFixCount
        deliveredFixes = recorder.deliveredFixCount
        acceptedFixes = recorder.acceptedFixCount
        let idealAccepted = ideal.recorder.acceptedFixCount
        idealAcceptedFixes = idealAccepted
        collectionRatio = idealAccepted == 0 ? nil : Double(acceptedFixes) / Double(idealAccepted)
        let accepted = recorder.acceptedTimes.map { $0.seconds(since: run.traceStart) }
        let span = run.traceEnd.seconds(since: run.traceStart)
        // The run's unobserved time is left out of the run and its ideal run alike.
        let unobserved = run.againstTrace.unobserved
        observedSeconds = unobserved.observedSeconds(span: span, since: run.traceStart)
        unobservedSeconds = max(0, span - observedSeconds)
        travelledUnobservedSeconds = unobserved.travelledSeconds
        coveredSeconds = unobserved.coveredSeconds(
            of: accepted, span: span, reach: Self.coverageReachSeconds, since: run.traceStart)
        timeCoverage = observedSeconds > 0 ? coveredSeconds / observedSeconds : (accepted.isEmpty ? 0 : 1)
        let idealSpan = ideal.traceEnd.seconds(since: ideal.traceStart)
        idealCoveredSeconds = unobserved.coveredSeconds(
            of: ideal.recorder.acceptedTimes.map { $0.seconds(since: ideal.traceStart) }, span: idealSpan,
            reach: Self.coverageReachSeconds, since: ideal.traceStart)
        (maxGapSeconds, maxGapStartSeconds) = unobserved.longestGap(accepted, span: span, since: run.traceStart)
        distanceMeters = run.odometerMeters
        idealDistanceMeters = ideal.odometerMeters
        distanceRatio = ideal.odometerMeters <= 0 ? nil : run.odometerMeters / ideal.odometerMeters
        rejectedByReason = recorder.rejections.map { ReasonCount(reason: $0.reason.rawValue, count: $0.count) }
        geofenceEvents = recorder.geofenceEvents.count
        var unmatched = recorder.geofenceEvents
        var delays: [Double] = []
        var missed = 0
        for event in ideal.recorder.geofenceEvents {
            // The earliest unmatched event of the same fence and action, at or after the ideal one.
            if let match = unmatched.firstIndex(where: {
                $0.identifier == event.identifier && $0.action == event.action && $0.time >= event.time
            }) {
                delays.append(unmatched[match].time.seconds(since: event.time))
                unmatched.remove(at: match)
            } else {
                missed += 1
            }
        }
        geofenceMissed = missed
        geofenceSpurious = unmatched.count
        geofenceMeanDelaySeconds = delays.isEmpty ? 0 : delays.reduce(0, +) / Double(delays.count)
        geofenceMaxDelaySeconds = delays.max() ?? 0
        departureDelaySeconds = Self.delay(Self.departure(in: run.recorder), Self.departure(in: ideal.recorder))
        arrivalDelaySeconds = Self.delay(Self.arrival(in: run.recorder), Self.arrival(in: ideal.recorder))
        missedStops = Self.missedStops(run.recorder, reference: ideal.recorder, end: ideal.traceEnd)
        gpsOnSeconds = unobserved.observedGPSSeconds(run.gpsOn.intervals, closingAt: run.traceEnd)
        idealGpsOnSeconds = unobserved.observedGPSSeconds(ideal.gpsOn.intervals, closingAt: ideal.traceEnd)
        gpsHoursPerObservedHour = observedSeconds > 0 ? gpsOnSeconds / observedSeconds : nil
        measureAgainstTrace(run, ideal: ideal)
    }

    /// The "vs the trace" measures: kept paths against the trace's path, coverage of its span,
    /// and the position error against it.
    private mutating func measureAgainstTrace(_ run: ScenarioRun, ideal: ScenarioRun) {
        keptPathMeters = run.againstTrace.keptPathMeters
        idealKeptPathMeters = ideal.againstTrace.keptPathMeters
        tracePathMeters = run.againstTrace.pathMeters
        tracePathRatio = tracePathMeters > 0 ? keptPathMeters / tracePathMeters : nil
        traceCoveredSeconds = run.againstTrace.coveredSeconds
        traceTimeCoverage = traceCoveredSeconds > 0 ? coveredSeconds / traceCoveredSeconds : nil
        positionErrorMedianMeters = run.againstTrace.errorMedianMeters
        positionErrorP95Meters = run.againstTrace.errorP95Meters
        positionErrorReference = positionErrorMedianMeters == nil ? nil : .trace
    }

    /// How near in time a fix must be for a second of the trace to count as covered.
    static let coverageReachSeconds = 30.0

    /// The share of `0...span` within `reach` seconds of some time in `times` (sorted).
    static func coverage<Times: Sequence<Double>>(of times: Times, span: Double, reach: Double) -> Double {
        guard span > 0 else { return times.contains { _ in true } ? 1 : 0 }
        var covered = 0.0
        var coveredUpTo = 0.0
        for time in times {
            let low = max(0, time - reach, coveredUpTo)
            let high = min(span, time + reach)
            if high > low { covered += high - low }
            coveredUpTo = max(coveredUpTo, high)
        }
        return covered / span
    }

    /// The longest interval of `0...span` with no time in `times` (sorted), and its start.
    static func longestGap(_ times: [Double], span: Double) -> (seconds: Double, start: Double) {
        var best = (seconds: 0.0, start: 0.0)
        var previous = 0.0
        for time in times + [span] {
            if time - previous > best.seconds { best = (time - previous, previous) }
            previous = max(previous, time)
        }
        return best
    }

    private static func delay(_ here: SimInstant?, _ reference: SimInstant?) -> Double? {
        guard let here, let reference else { return nil }
        return here.seconds(since: reference)
    }

    /// When the app departed as far as it could know: the first fix recorded while the engine
    /// was in the moving state (at or after a switch to moving, before the next stop). A switch
    /// to moving with no fix behind it (motion activity alone, an app that receives no
    /// location) is no departure; `nil` when there is none.
    public static func departure(in recorder: Recorder) -> SimInstant? {
        let recorded = recorder.recordedTimes
        let transitions = recorder.motionTransitions
        for (index, transition) in transitions.enumerated() where transition.state == .moving {
            let next = transitions[(index + 1)...].first { $0.state != .moving }?.time
            if let fix = recorded.first(where: { time in time >= transition.time && next.map { time < $0 } ?? true }) {
                return fix
            }
        }
        return nil
    }

    /// The first stop after `departure(in:)`: an app that never departed never arrives.
    public static func arrival(in recorder: Recorder) -> SimInstant? {
        guard let departure = departure(in: recorder) else { return nil }
        return recorder.motionTransitions.first { $0.state == .stationary && $0.time > departure }?.time
    }

    /// How long before a reference stop a stop here may be declared and still be the same stop:
    /// the default stop timeout (`MotionStateMachine.Configuration.stopTimeoutSeconds`, 300 s).
    /// The reference declares a stop that long after the phone came to rest, so an engine with
    /// a shorter timeout declares the same stop up to that much earlier.
    public static let stopMatchLeadSeconds = 300.0

    /// The reference's stops (each switch to stationary after its departure) with no stop here
    /// declared from `stopMatchLeadSeconds` before it until the reference moves again (or the
    /// trace ends). Each stop here answers for one reference stop at most. A stop declared only
    /// after the reference moved on was merged into the drive: the stop is missed.
    public static func missedStops(_ recorder: Recorder, reference: Recorder, end: SimInstant) -> Int {
        guard let departure = departure(in: reference) else { return 0 }
        let referenceStops = stopWindows(reference.motionTransitions, after: departure, end: end)
        let transitions = recorder.motionTransitions
        let here = stopIndices(transitions).map { transitions[$0].time }
        var next = 0
        var missed = 0
        for window in referenceStops {
            while next < here.count && here[next] < window.from { next += 1 }
            if next < here.count && here[next] <= window.to {
                next += 1
            } else {
                missed += 1
            }
        }
        return missed
    }

    /// Each switch to stationary after `departure`, from `stopMatchLeadSeconds` before it to the
    /// next switch to moving (or `end`).
    private static func stopWindows(
        _ transitions: [Recorder.MotionTransition], after departure: SimInstant, end: SimInstant
    )
        -> [(from: SimInstant, to: SimInstant)]
    {
        var windows: [(from: SimInstant, to: SimInstant)] = []
        for index in stopIndices(transitions) where transitions[index].time > departure {
            let stop = transitions[index].time
            // `end` before the stop itself (a recorder reaching past its trace) still keeps the stop's own instant.
            let resumed = transitions[(index + 1)...].first { $0.state == .moving }?.time ?? max(end, stop)
            windows.append((stop.advanced(bySeconds: -stopMatchLeadSeconds), resumed))
        }
        return windows
    }

    /// The positions of the stops among `transitions`: switches to stationary from another
    /// state, so a starting stationary state is no stop.
    private static func stopIndices(_ transitions: [Recorder.MotionTransition]) -> [Int] {
        transitions.indices.filter { index in
            index > 0 && transitions[index].state == .stationary && transitions[index - 1].state != .stationary
        }
    }
}
