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

/// The OS side of region monitoring: the 20-region limit and the hysteresis (fact sheet
/// a6 #1, #4, #6). Whether an event may reach the app is `Device`'s decision.
struct RegionMonitor: Sendable, Equatable {
    private struct Tracked: Sendable, Equatable {
        var region: MonitoredRegion
        /// `nil` until the first position after registration (no event for the initial state, a6 #3).
        var isInside: Bool?
        /// Since when the position has been on the other side of the hysteresis band.
        var pendingSince: SimInstant?
    }

    private var tracked: [Tracked] = []

    var identifiers: [String] { tracked.map(\.region.identifier) }

    /// Registers a region, or returns the rule that refuses it.
    mutating func register(_ region: MonitoredRegion, limit: Int) -> DeviceRule? {
        if let index = tracked.firstIndex(where: { $0.region.identifier == region.identifier }) {
            tracked[index] = Tracked(region: region)
            return nil
        }
        guard tracked.count < limit else { return .regionLimit }
        tracked.append(Tracked(region: region))
        return nil
    }

    mutating func remove(_ identifier: String) {
        tracked.removeAll { $0.region.identifier == identifier }
    }

    mutating func removeAll() {
        tracked.removeAll()
    }

    /// Feeds the device's true position; returns the crossings the OS reports now.
    ///
    /// Entry: within the effective radius (at least the minimum effective radius) for the
    /// dwell time. Exit: beyond the radius plus the cushion for the dwell time.
    mutating func observe(
        _ position: Coordinate, at now: SimInstant, parameters: DeviceParameters
    ) -> [(identifier: String, crossing: RegionCrossing)] {
        var crossings: [(String, RegionCrossing)] = []
        for index in tracked.indices {
            let region = tracked[index].region
            let distance = DistanceComparison(region.center, position)
            let entryDistance = max(region.radiusMeters, parameters.regionMinimumEffectiveRadiusMeters)
            let exitDistance = region.radiusMeters + parameters.regionCushionMeters
            let isWellInside = distance.isAtMost(entryDistance)
            let isWellOutside = distance.isAtLeast(exitDistance)
            guard let isInside = tracked[index].isInside else {
                // The initial state uses the same effective radius as entry: a small region
                // registered just after the device moved a few metres still holds it.
                tracked[index].isInside = isWellInside
                continue
            }
            let wantsCrossing = isInside ? isWellOutside : isWellInside
            guard wantsCrossing else {
                tracked[index].pendingSince = nil
                continue
            }
            let since = tracked[index].pendingSince ?? now
            tracked[index].pendingSince = since
            if now.seconds(since: since) >= parameters.regionDwellSeconds {
                tracked[index].isInside = !isInside
                tracked[index].pendingSince = nil
                crossings.append((region.identifier, isInside ? .exit : .enter))
            }
        }
        return crossings
    }
}

/// The significant-change service: an event after moving far enough, not too often (a5 #5).
struct SignificantChangeMonitor: Sendable, Equatable {
    private(set) var isRunning = false
    private var lastEventPosition: Coordinate?
    private var lastEventTime: SimInstant?

    mutating func start() {
        isRunning = true
        lastEventPosition = nil
        lastEventTime = nil
    }

    mutating func stop() {
        isRunning = false
    }

    /// Whether this position makes an event. The first position after starting always does
    /// (the initial fix).
    mutating func observe(_ position: Coordinate, at now: SimInstant, parameters: DeviceParameters) -> Bool {
        guard isRunning else { return false }
        if let lastPosition = lastEventPosition, let lastTime = lastEventTime {
            guard DistanceComparison(lastPosition, position).isAtLeast(parameters.significantChangeDistanceMeters),
                now.seconds(since: lastTime) >= parameters.significantChangeIntervalSeconds
            else { return false }
        }
        lastEventPosition = position
        lastEventTime = now
        return true
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

    public init(kind: Kind, coordinate: Coordinate, arrival: SimInstant, departure: SimInstant? = nil) {
        self.kind = kind
        self.coordinate = coordinate
        self.arrival = arrival
        self.departure = departure
    }
}

/// The visit service (a5 #7): Apple documents no latency or radius (d 15), so both are
/// simulator parameters.
struct VisitMonitor: Sendable, Equatable {
    private(set) var isRunning = false
    private var place: Coordinate?
    private var since: SimInstant?
    private var isVisiting = false

    mutating func start() {
        isRunning = true
        place = nil
        since = nil
        isVisiting = false
    }

    mutating func stop() {
        isRunning = false
    }

    /// The visit event this position completes, if any.
    mutating func observe(_ position: Coordinate, at now: SimInstant, parameters: DeviceParameters) -> VisitEvent? {
        guard isRunning else { return nil }
        guard let place, let since, DistanceComparison(place, position).isAtMost(parameters.visitRadiusMeters) else {
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
