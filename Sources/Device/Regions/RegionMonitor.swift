import Geometry
import SimulationCore

/// A circular region the app asks the OS to monitor. Models `CLCircularRegion`.
public struct MonitoredRegion: Sendable, Equatable {
    /// The app's identifier; registering the same one again replaces the region.
    public var identifier: String
    /// The centre (WGS-84).
    public var center: Coordinate
    /// The radius in metres.
    public var radiusMeters: Double

    /// The region an app passes to `startMonitoring(for:)`; radii below
    /// `DeviceParameters.regionMinimumEffectiveRadiusMeters` are widened for entry (a6 #6).
    public init(identifier: String, center: Coordinate, radiusMeters: Double) {
        self.identifier = identifier
        self.center = center
        self.radiusMeters = radiusMeters
    }
}

/// A reported boundary crossing.
public enum RegionCrossing: String, Sendable {
    /// Models `locationManager(_:didEnterRegion:)`.
    case enter
    /// Models `locationManager(_:didExitRegion:)`.
    case exit
}

/// The OS side of region monitoring: the 20-region limit, the hysteresis, the delivery
/// latency and the crossings it misses (fact sheet a6 #1, #4, #5, #6; `regionCrossingMissed`).
/// Whether an event may reach the app is `Device`'s decision, made when the event comes due.
struct RegionMonitor: Sendable {
    private struct Tracked: Sendable, Equatable {
        var region: MonitoredRegion
        /// `nil` until the first position after registration (no event for the initial state, a6 #3).
        var isInside: Bool?
        /// Since when the position has been on the other side of the hysteresis band.
        var pendingSince: SimInstant?
    }

    /// A crossing the OS has decided on, waiting out its latency (a6 #5).
    private struct Due: Sendable, Equatable {
        var time: SimInstant
        var identifier: String
        var crossing: RegionCrossing
    }

    private var tracked: [Tracked] = []
    /// In due order; crossings with the same due time keep the order they were found in.
    private var due: [Due] = []
    /// Decides which crossings the OS misses (`regionMissProbability`): a generator of its own,
    /// seeded from the device seed, so a miss draw moves no other rule's draw (the latency, the
    /// reduced-accuracy displacement, derived motion), and those draws move no miss.
    private var missRandom: SplitMix64

    /// Mixed into the device seed for `missRandom` (ASCII "regnmiss").
    static let missSeedMix: UInt64 = 0x7265_676E_6D69_7373

    /// A monitor with no regions, its miss draws seeded from the device seed.
    init(seed: UInt64) {
        missRandom = SplitMix64(seed: seed ^ Self.missSeedMix)
    }

    var identifiers: [String] { tracked.map(\.region.identifier) }

    /// Registers a region, or returns the rule that refuses it. Replacing a region drops the
    /// old one's undelivered crossings.
    mutating func register(_ region: MonitoredRegion, limit: Int) -> DeviceRule? {
        if let index = tracked.firstIndex(where: { $0.region.identifier == region.identifier }) {
            tracked[index] = Tracked(region: region)
            due.removeAll { $0.identifier == region.identifier }
            return nil
        }
        guard tracked.count < limit else { return .regionLimit }
        tracked.append(Tracked(region: region))
        return nil
    }

    mutating func remove(_ identifier: String) {
        tracked.removeAll { $0.region.identifier == identifier }
        due.removeAll { $0.identifier == identifier }
    }

    mutating func removeAll() {
        tracked.removeAll()
        due.removeAll()
    }

    /// Feeds the device's true position. A crossing the hysteresis accepts now is queued to
    /// come due after a latency drawn from `random` (only when the latency has a range, so a
    /// fixed latency leaves the generator untouched), with a timer for its due time appended
    /// to `actions`; `nextDue(at:)` hands it over.
    ///
    /// The cushion works on both sides of the boundary (a6 #4): an exit needs the position
    /// beyond the radius plus the exit cushion, an entry within the effective radius (at least
    /// the minimum effective radius, a6 #6) less the entry cushion, for the dwell time. A region
    /// too small to hold the entry cushion needs half its effective radius instead: taken
    /// literally, the archived guide's 200 m would make every region up to 200 m unenterable,
    /// and entries on such regions are observed (a6 #6). An exit is never decided nearer the
    /// centre than an entry: a small region enters about 100 m from its centre (home-assistant/iOS
    /// #784), and a 50 m region exits 50-100 m past its radius (#2353), not at 100 m from the
    /// centre where it would enter again.
    ///
    /// A crossing the hysteresis accepts is missed with `regionMissProbability`, drawn from the
    /// monitor's own generator (only when the probability is strictly between 0 and 1): the OS
    /// takes the new side, so the next crossing is the way back, and the app hears nothing
    /// (`regionCrossingMissed`, appended as a dropped event for the run's log).
    /// Inlined into the device's per-fix step, which otherwise copies all of `DeviceParameters`
    /// (some 300 bytes) to pass it.
    @inline(__always)
    mutating func observe(
        _ position: Coordinate, at now: SimInstant, parameters: DeviceParameters, random: inout SplitMix64,
        into actions: inout [DeviceAction]
    ) {
        for index in tracked.indices {
            let region = tracked[index].region
            let distance = DistanceCheck(region.center, position)
            let effectiveRadius = max(region.radiusMeters, parameters.regionMinimumEffectiveRadiusMeters)
            guard let isInside = tracked[index].isInside else {
                // The initial state uses the effective radius without the cushion: a small
                // region registered just after the device moved a few metres still holds it.
                tracked[index].isInside = distance.isAtMost(effectiveRadius)
                continue
            }
            let entryDistance = effectiveRadius - min(parameters.regionEntryCushionMeters, effectiveRadius / 2)
            let wantsCrossing: Bool
            if isInside {
                let exitDistance = max(region.radiusMeters + parameters.regionCushionMeters, entryDistance)
                wantsCrossing = distance.isAtLeast(exitDistance)
            } else {
                wantsCrossing = distance.isAtMost(entryDistance)
            }
            guard wantsCrossing else {
                // Written only when it changes: a write copies the array while a replay holds a
                // copy of the phone to step back to (a run of locations, issue 32).
                if tracked[index].pendingSince != nil { tracked[index].pendingSince = nil }
                continue
            }
            let since = tracked[index].pendingSince ?? now
            tracked[index].pendingSince = since
            if now.seconds(since: since) >= parameters.regionDwellSeconds {
                tracked[index].isInside = !isInside
                tracked[index].pendingSince = nil
                let crossing: RegionCrossing = isInside ? .exit : .enter
                // The latency is drawn for a missed crossing too, so a miss leaves the shared
                // generator where a report would have: no later draw moves.
                let latency =
                    parameters.regionLatencyMaximumSeconds > parameters.regionLatencyMinimumSeconds
                    ? random.uniform(parameters.regionLatencyMinimumSeconds...parameters.regionLatencyMaximumSeconds)
                    : parameters.regionLatencyMinimumSeconds
                if isMissed(parameters.regionMissProbability) {
                    actions.append(.regionEventDropped(identifier: region.identifier, crossing, .regionCrossingMissed))
                    continue
                }
                // Models the crossings of one region reaching the app in the order they
                // happened: a crossing never comes due before the region's previous one (an
                // exit and the re-entry after it are never delivered as enter, exit).
                var time = now.advanced(bySeconds: latency)
                if let previous = due.last(where: { $0.identifier == region.identifier }), time < previous.time {
                    time = previous.time
                }
                let queued = Due(time: time, identifier: region.identifier, crossing: crossing)
                due.insert(queued, at: due.firstIndex { time < $0.time } ?? due.endIndex)
                if time > now { actions.append(.schedule(.regionEventsDue, at: time)) }
            }
        }
    }

    /// Whether the OS misses the crossing it just accepted. Draws nothing at 0 or 1, so a
    /// replay that never misses (or always misses) leaves the generator where it was.
    private mutating func isMissed(_ probability: Double) -> Bool {
        guard probability > 0 else { return false }
        guard probability < 1 else { return true }
        return missRandom.uniform(0...1) < probability
    }

    /// The next queued crossing due at `now`, removed from the queue.
    mutating func nextDue(at now: SimInstant) -> (identifier: String, crossing: RegionCrossing)? {
        guard let first = due.first, !(now < first.time) else { return nil }
        due.removeFirst()
        return (first.identifier, first.crossing)
    }
}

/// A reported visit. Models `CLVisit`.
public struct VisitEvent: Sendable, Equatable {
    /// Whether the device arrived at or departed from the place.
    public enum Kind: String, Sendable {
        /// Models a `CLVisit` with a `departureDate` of `distantFuture`.
        case arrival
        /// Models a `CLVisit` with both dates.
        case departure
    }

    /// Arrival or departure.
    public var kind: Kind
    /// The place: the first position of the dwell, not an average of the fixes in it.
    public var coordinate: Coordinate
    /// When the device arrived.
    public var arrival: SimInstant
    /// When it left, for a departure.
    public var departure: SimInstant?
    /// Models `CLVisit.horizontalAccuracy` when it is reduced (a2 #8); `nil` for a precise visit,
    /// whose accuracy the device does not model.
    public var reducedHorizontalAccuracyMeters: Double?

    public init(
        kind: Kind, coordinate: Coordinate, arrival: SimInstant, departure: SimInstant? = nil,
        reducedHorizontalAccuracyMeters: Double? = nil
    ) {
        self.kind = kind
        self.coordinate = coordinate
        self.arrival = arrival
        self.departure = departure
        self.reducedHorizontalAccuracyMeters = reducedHorizontalAccuracyMeters
    }
}

/// The visit service (a5 #7): Apple documents no latency or radius (d 15), so both are
/// simulator parameters.
struct VisitMonitor: Sendable, Equatable {
    private(set) var isRunning = false
    private var place: Coordinate?
    private var since: SimInstant?
    private var isVisiting = false

    /// Starts the service; starting it while it runs keeps the visit in progress, as a
    /// relaunched app that starts visit monitoring again joins the service that woke it.
    mutating func start() {
        guard !isRunning else { return }
        isRunning = true
        place = nil
        since = nil
        isVisiting = false
    }

    mutating func stop() {
        isRunning = false
    }

    /// The visit event this position completes, if any.
    /// Inlined into the device's per-fix step, which otherwise copies all of `DeviceParameters`
    /// (some 300 bytes) to pass it.
    @inline(__always)
    mutating func observe(_ position: Coordinate, at now: SimInstant, parameters: DeviceParameters) -> VisitEvent? {
        guard isRunning else { return nil }
        guard let place, let since, DistanceCheck(place, position).isAtMost(parameters.visitRadiusMeters) else {
            let departed =
                isVisiting
                ? self.place.flatMap { place in
                    self.since.map { VisitEvent(kind: .departure, coordinate: place, arrival: $0, departure: now) }
                } : nil
            self.place = position
            self.since = now
            isVisiting = false
            return departed
        }
        guard !isVisiting, now.seconds(since: since) >= parameters.visitArrivalDwellSeconds else { return nil }
        isVisiting = true
        return VisitEvent(kind: .arrival, coordinate: place, arrival: since)
    }
}
