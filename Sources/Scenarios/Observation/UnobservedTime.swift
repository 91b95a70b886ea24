import Device
import Engine
import Geometry
import SimulationCore
import Traces

/// The stretches of a trace where nothing was recorded, and the time every time-based metric
/// leaves out of a run and of its ideal run alike.
///
/// A trace says what the phone did only where it has input: a fix or a motion sample. Between
/// two inputs more than `thresholdSeconds` apart the phone is unobserved (a day-long export with
/// its recorder asleep, a phone switched off), and whatever an engine does there is the
/// simulator's guess, not a measurement: a drive held until the next sample half a day later
/// once read as 56 hours of GPS (issue 31).
///
/// So in every unobserved span, an engine's GPS counts only until it could have stopped: the
/// last input plus `graceSeconds`, the smaller of the scenario's stop timeout and iOS's
/// automatic pause. The rest of the span (`leftOut`) is left out of GPS time, covered time, the trace's
/// own covered time, the span coverage divides by and the longest gap, for the run and its
/// ideal run alike (`Metrics`).
///
/// A span whose two ends are more than `travelledMeters` apart is one the phone travelled
/// unobserved. It is left out the same way, since nothing says when or how the phone moved
/// (counting it as GPS time would charge an engine for a drive no one recorded; counting it as
/// missed time would charge it for fixes no receiver could give); its hours are reported apart
/// (`travelledSeconds`) so a reader sees how much of a trace moved unseen.
public struct UnobservedTime: Sendable, Equatable {
    /// The longest stretch with no input that still counts as observed: 600 s, the same for
    /// every engine, every scenario and every swept setting, so that the time a run is measured
    /// over never depends on what is being measured. Ten minutes is twice the default stop
    /// timeout (`MotionStateMachine.Configuration.stopTimeoutSeconds`, 300 s): a phone at rest
    /// that records a fix or an activity change more rarely than that records nothing at all.
    public static let thresholdSeconds = 600.0

    /// How far apart a span's two ends must be for the phone to have travelled unobserved:
    /// about 1 km, well beyond the accuracy of a coarse or Takeout-grade fix (`accuracyMeters`
    /// of a few hundred metres), so a phone that sat still is never counted as travelling.
    public static let travelledMeters = 1_000.0

    /// One stretch of the trace with no input for longer than `thresholdSeconds`.
    public struct Span: Sendable, Equatable {
        /// The last input before the span.
        public var start: SimInstant
        /// The first input after it.
        public var end: SimInstant
        /// Whether the fixes at its two ends are more than `travelledMeters` apart.
        public var isTravelled: Bool

        /// A span from `start` to `end`.
        public init(start: SimInstant, end: SimInstant, isTravelled: Bool) {
            self.start = start
            self.end = end
            self.isTravelled = isTravelled
        }

        /// The span's length, seconds.
        public var seconds: Double { end.seconds(since: start) }
    }

    /// The unobserved spans, in time order.
    public private(set) var spans: [Span] = []
    /// How long after a span's last input an engine's GPS still counts: the time it could have
    /// taken to notice the phone had stopped (`graceSeconds(stopTimeoutSeconds:automaticPauseSeconds:)`).
    public private(set) var graceSeconds: Double = 0
    /// What is left out of every time-based metric: each span from its last input plus
    /// `graceSeconds` to its end, in time order. Empty for a span no longer than the grace.
    public private(set) var leftOut: [(start: SimInstant, end: SimInstant)] = []

    /// No unobserved time: every second of the trace counts.
    public init() {}

    /// The unobserved spans of `trace` between its first fix and its last.
    /// - Parameters:
    ///   - trace: the replayed trace; its fixes and motion samples are its inputs.
    ///   - graceSeconds: how long GPS still counts after a span's last input.
    /// - Complexity: O(the trace's fixes + motion samples).
    public init(_ trace: Trace, graceSeconds: Double) {
        self.graceSeconds = max(0, graceSeconds)
        let fixes = trace.fixes
        guard let first = fixes.first?.timestamp, let last = fixes.last?.timestamp else { return }
        let samples = trace.motionSamples
        var fixIndex = 0
        var sampleIndex = samples.firstIndex { !($0.timestamp < first) } ?? samples.endIndex
        // The newest input so far and the newest fix at or before it (a span's start position).
        var previous = first
        var previousFix = 0
        while true {
            let nextFix = fixIndex < fixes.count ? fixes[fixIndex].timestamp : nil
            let nextSample =
                sampleIndex < samples.count && !(last < samples[sampleIndex].timestamp)
                ? samples[sampleIndex].timestamp : nil
            let next: SimInstant
            let isFix: Bool
            switch (nextFix, nextSample) {
            case (nil, nil): return
            case (let fix?, let sample?): (next, isFix) = sample < fix ? (sample, false) : (fix, true)
            case (let fix?, nil): (next, isFix) = (fix, true)
            case (nil, let sample?): (next, isFix) = (sample, false)
            }
            if next.seconds(since: previous) > Self.thresholdSeconds {
                // The fix after the span: this one, or the first fix after a motion sample.
                let after = isFix ? fixIndex : min(fixIndex, fixes.count - 1)
                let travelled = !DistanceCheck(Self.position(fixes[previousFix]), Self.position(fixes[after]))
                    .isAtMost(Self.travelledMeters)
                spans.append(Span(start: previous, end: next, isTravelled: travelled))
                let from = previous.advanced(bySeconds: self.graceSeconds)
                if from < next { leftOut.append((from, next)) }
            }
            previous = next
            if isFix {
                previousFix = fixIndex
                fixIndex += 1
            } else {
                sampleIndex += 1
            }
        }
    }

    /// The same spans with `graceSeconds` instead: each left-out window starts that long after
    /// its span's last input, as `init(_:graceSeconds:)` would place it.
    func withGrace(_ graceSeconds: Double) -> UnobservedTime {
        var moved = UnobservedTime()
        moved.spans = spans
        moved.graceSeconds = max(0, graceSeconds)
        for span in spans {
            let from = span.start.advanced(bySeconds: moved.graceSeconds)
            if from < span.end { moved.leftOut.append((from, span.end)) }
        }
        return moved
    }

    /// The unobserved spans of `trace` as `scenario` replays it, with the grace of the stop
    /// timeout the scenario gives its engine against the phone's automatic pause.
    ///
    /// The same for every engine of the scenario, the built-in one and an engine of your own: an
    /// engine run as a command is handed that stop timeout (`stopTimeout` in the protocol's run
    /// message) but TraceSim cannot know whether it honours it, and measuring every engine of a
    /// scenario over the same observed time keeps them comparable.
    package init(_ trace: Trace, scenario: Scenario) {
        self.init(trace, graceSeconds: Self.graceSeconds(of: scenario))
    }

    /// The grace `scenario` gives every unobserved span: its engine's stop timeout against the
    /// phone's automatic pause.
    package static func graceSeconds(of scenario: Scenario) -> Double {
        graceSeconds(
            stopTimeoutSeconds: stopTimeoutSeconds(of: scenario.engine.motion),
            automaticPauseSeconds: scenario.device.parameters.autoPauseAfterStationarySeconds)
    }

    /// How long after its last input a span's GPS still counts: the smaller of the engine's
    /// stop timeout and the automatic pause, the soonest either could have turned the receiver
    /// off once the phone stopped.
    /// - Parameters:
    ///   - stopTimeoutSeconds: the engine's stop timeout; `nil` when it is not known, so the
    ///     automatic pause alone decides.
    ///   - automaticPauseSeconds: iOS's automatic pause
    ///     (`DeviceParameters.autoPauseAfterStationarySeconds`, 900 s by default).
    /// - Returns: seconds, never negative.
    public static func graceSeconds(stopTimeoutSeconds: Double?, automaticPauseSeconds: Double) -> Double {
        max(0, min(stopTimeoutSeconds ?? automaticPauseSeconds, automaticPauseSeconds))
    }

    /// The stop timeout of the built-in engine with `configuration`: its stop timeout, or the
    /// time a radar stop rule waits.
    package static func stopTimeoutSeconds(of configuration: MotionStateMachine.Configuration) -> Double {
        switch configuration.stopRule {
        case .stopTimeout: configuration.stopTimeoutSeconds
        case .radar(_, let stopDurationSeconds): stopDurationSeconds
        }
    }

    /// Seconds left out between `start` and `end`.
    public func leftOutSeconds(from start: SimInstant, to end: SimInstant) -> Double {
        var total = 0.0
        for window in leftOut {
            let low = max(window.start, start)
            let high = min(window.end, end)
            if low < high { total += high.seconds(since: low) }
        }
        return total
    }

    /// Seconds of the spans the phone travelled, whole (the grace included).
    public var travelledSeconds: Double {
        spans.filter(\.isTravelled).reduce(0) { $0 + $1.seconds }
    }

    /// The left-out windows as seconds since `origin`, for the metrics that measure in seconds
    /// from the trace's first fix.
    package func leftOutSeconds(since origin: SimInstant) -> [(start: Double, end: Double)] {
        leftOut.map { ($0.start.seconds(since: origin), $0.end.seconds(since: origin)) }
    }

    private static func position(_ fix: Fix) -> Coordinate {
        Coordinate(latitude: fix.latitude, longitude: fix.longitude)
    }

    public static func == (lhs: UnobservedTime, rhs: UnobservedTime) -> Bool {
        lhs.spans == rhs.spans && lhs.graceSeconds == rhs.graceSeconds
    }
}
