import SimulationCore

/// When the phone's location updates ran for the app during a replay: the battery proxy.
///
/// Measured from the device (`Device.isReceiverRunning(at:)`), not from what the client
/// asked for: a request under notDetermined, a terminated app or a When-In-Use cutoff keeps
/// the receiver off whatever the app wants.
public struct GPSOnTime: Sendable, Equatable {
    /// A span with the receiver running for the app.
    public struct Interval: Sendable, Equatable {
        /// When it started.
        public var start: SimInstant
        /// When it stopped; `nil` while still running.
        public var end: SimInstant?

        /// A span from `start` to `end` (`nil`: still running).
        public init(start: SimInstant, end: SimInstant?) {
            self.start = start
            self.end = end
        }
    }

    /// The spans in order; only the last may be open.
    public private(set) var intervals: [Interval] = []

    /// Nothing measured yet.
    public init() {}

    /// Total seconds with the receiver running up to `end`, closing an open span there.
    public func seconds(closingAt end: SimInstant) -> Double {
        intervals.reduce(0) { total, interval in
            total + max(0, min(interval.end ?? end, end).seconds(since: interval.start))
        }
    }

    mutating func started(at time: SimInstant) {
        guard intervals.last.map({ $0.end != nil }) ?? true else { return }
        intervals.append(Interval(start: time, end: nil))
    }

    mutating func stopped(at time: SimInstant) {
        guard let last = intervals.indices.last, intervals[last].end == nil else { return }
        intervals[last].end = time
    }
}
