import Geometry
import SimulationCore
import Traces

/// What the engine produced during one replay, kept for the scenario runner and reports.
///
/// Counters are fixed-size, and the per-fix path appends only to arrays whose capacity the
/// replay reserves up front. Recorded fixes are kept as positions in the accepted arrays
/// (every recorded fix is the fix accepted just before it): four bytes each instead of a
/// copy of the fix, which keeps a ten-million-fix replay within its memory bound.
public struct Recorder: Sendable {
    /// A change of the motion state.
    public struct MotionTransition: Sendable, Equatable {
        public var time: SimInstant
        public var state: MotionStateMachine.State
    }

    /// A silence between two consecutive accepted fixes longer than the gap threshold.
    public struct Gap: Sendable, Equatable {
        /// The last accepted fix before the gap.
        public var from: SimInstant
        /// The first accepted fix after it.
        public var to: SimInstant
        /// Its length in seconds.
        public var seconds: Double { to.seconds(since: from) }
    }

    /// Fixes the device delivered to the app (standard and significant-change).
    public private(set) var deliveredFixCount = 0
    /// Fixes the gate accepted.
    public var acceptedFixCount: Int { acceptedTimes.count }
    /// When each accepted fix was measured, in order.
    public private(set) var acceptedTimes: [SimInstant] = []
    /// Where each accepted fix was, in the same order (after smoothing when it is on).
    public private(set) var acceptedPositions: [Coordinate] = []
    /// Accepted fixes that also passed the distance filter, what the SDK would upload, as
    /// positions in `acceptedTimes` and `acceptedPositions`.
    public private(set) var recordedIndices: [UInt32] = []
    /// How many fixes were recorded.
    public var recordedFixCount: Int { recordedIndices.count }
    /// When each recorded fix was measured, in order.
    public var recordedTimes: [SimInstant] { recordedIndices.map { acceptedTimes[Int($0)] } }
    /// Motion state changes in order.
    public private(set) var motionTransitions: [MotionTransition] = []
    /// Geofence events in order.
    public private(set) var geofenceEvents: [GeofenceEvent] = []
    /// Silences between accepted fixes longer than `gapThresholdSeconds`.
    public private(set) var gaps: [Gap] = []
    /// When the heartbeat fired (`EngineConfiguration.heartbeatIntervalSeconds`): each one is a
    /// moment the app's code ran while nothing else happened.
    public private(set) var heartbeatTimes: [SimInstant] = []
    /// Seconds of silence that count as a gap (10 s: ten missed 1 Hz fixes).
    public let gapThresholdSeconds: Double
    private var rejectionCounts = [Int](repeating: 0, count: RejectionReason.allCases.count)
    private var lastAcceptedTime: SimInstant?

    /// Creates an empty recorder, with room for `expectedFixCount` fixes (a hint: a count below
    /// 0 reserves nothing, and a caller taking the count from elsewhere bounds it first).
    public init(gapThresholdSeconds: Double = 10, expectedFixCount: Int = 0) {
        self.gapThresholdSeconds = gapThresholdSeconds
        let reserved = max(expectedFixCount, 0)
        recordedIndices.reserveCapacity(reserved)
        acceptedTimes.reserveCapacity(reserved)
        acceptedPositions.reserveCapacity(reserved)
    }

    /// Rejections by reason, in reason order, zero counts omitted.
    public var rejections: [(reason: RejectionReason, count: Int)] {
        RejectionReason.allCases.sorted().compactMap { reason in
            let count = rejectionCounts[Self.slot(reason)]
            return count > 0 ? (reason, count) : nil
        }
    }

    /// The count for one reason.
    public func rejectionCount(_ reason: RejectionReason) -> Int { rejectionCounts[Self.slot(reason)] }

    // The recording calls are public so an engine other than the built-in one (a
    // `RecordingClient`) fills the same record and every metric reads it unchanged.

    /// Counts a fix the device handed to the app.
    public mutating func fixDelivered() { deliveredFixCount += 1 }

    /// Counts a fix the engine rejected, for `reason`.
    public mutating func rejected(_ reason: RejectionReason) { rejectionCounts[Self.slot(reason)] += 1 }

    /// Keeps a fix the engine accepted (its time and position), noting a gap before it.
    public mutating func accepted(_ fix: Fix) {
        acceptedTimes.append(fix.timestamp)
        acceptedPositions.append(Coordinate(latitude: fix.latitude, longitude: fix.longitude))
        if let lastAcceptedTime, fix.timestamp.seconds(since: lastAcceptedTime) > gapThresholdSeconds {
            gaps.append(Gap(from: lastAcceptedTime, to: fix.timestamp))
        }
        lastAcceptedTime = fix.timestamp
    }

    /// Records the fix accepted last: what the engine would upload. Without an accepted fix
    /// there is nothing to record, and nothing happens.
    public mutating func recordedLastAccepted() {
        guard !acceptedTimes.isEmpty else { return }
        recordedIndices.append(UInt32(acceptedTimes.count - 1))
    }

    /// Notes a change of the motion state (departures and arrivals are read from these).
    public mutating func motionChanged(to state: MotionStateMachine.State, at time: SimInstant) {
        motionTransitions.append(MotionTransition(time: time, state: state))
    }

    /// Keeps a geofence event.
    public mutating func geofence(_ event: GeofenceEvent) { geofenceEvents.append(event) }

    /// Notes a heartbeat.
    public mutating func heartbeat(at time: SimInstant) { heartbeatTimes.append(time) }

    /// Appends the record of a later process of the same app (kept after a relaunch), so a run
    /// is measured on one record, as a backend that both processes uploaded to would hold: counts
    /// add up, the fixes follow this record's (a gap across the relaunch is a gap), and a
    /// later process that starts in the motion state this record ended in goes on in it.
    package mutating func append(_ later: Recorder) {
        deliveredFixCount += later.deliveredFixCount
        for slot in rejectionCounts.indices { rejectionCounts[slot] += later.rejectionCounts[slot] }
        let offset = UInt32(acceptedTimes.count)
        if let lastAcceptedTime, let next = later.acceptedTimes.first,
            next.seconds(since: lastAcceptedTime) > gapThresholdSeconds
        {
            gaps.append(Gap(from: lastAcceptedTime, to: next))
        }
        acceptedTimes += later.acceptedTimes
        acceptedPositions += later.acceptedPositions
        recordedIndices += later.recordedIndices.map { $0 + offset }
        gaps += later.gaps
        lastAcceptedTime = later.lastAcceptedTime ?? lastAcceptedTime
        var transitions = later.motionTransitions[...]
        if let first = transitions.first, first.state == motionTransitions.last?.state {
            transitions = transitions.dropFirst()
        }
        motionTransitions += transitions
        geofenceEvents += later.geofenceEvents
        heartbeatTimes += later.heartbeatTimes
    }

    /// The reason's position in `RejectionReason.allCases` (a test holds the two to the same
    /// order): a switch, since `allCases` builds an array on every call.
    private static func slot(_ reason: RejectionReason) -> Int {
        switch reason {
        case .lowAccuracy: 0
        case .impliedSpeed: 1
        case .stale: 2
        case .staleFirstFix: 3
        case .duplicate: 4
        case .outOfOrder: 5
        case .invalidAccuracy: 6
        case .outlier: 7
        }
    }
}
