import Device
import Geometry
import SimulationCore
import Traces

/// A geofence event the SDK reports.
public struct GeofenceEvent: Sendable, Equatable {
    /// What happened.
    public enum Action: String, Sendable {
        /// The device came inside (Transistorsoft's `ENTER`).
        case enter
        /// The device left.
        case exit
        /// The device stayed inside for the loitering delay.
        case dwell
    }

    /// The fence.
    public var identifier: String
    /// Enter, exit or dwell.
    public var action: Action
    public var time: SimInstant

    /// An event of `action` on the fence `identifier` at `time`.
    public init(identifier: String, action: Action, time: SimInstant) {
        self.identifier = identifier
        self.action = action
        self.time = time
    }
}

/// The SDK side of geofencing, the way the anchor SDK works (Transistorsoft, fact sheet b1):
/// any number of fences, of which only the nearest within `proximityRadiusMeters` are
/// registered with the OS (a circle for a circular fence, the GEOS minimum bounding circle
/// for a polygon), re-ranked as the device moves. Circle fences follow the OS region
/// events; inside a polygon's circle the SDK hit-tests the polygon on delivered fixes.
public final class GeofenceManager {
    /// The settings.
    public struct Configuration: Sendable, Equatable {
        /// Fences further than this are not registered: 1000 m (`geofenceProximityRadius`, b1).
        public var proximityRadiusMeters = 1000.0
        /// The most fences registered with the OS (iOS allows 20 regions).
        public var maximumRegisteredFences = 20
        /// Re-rank at most this often while moving (≈ once a minute, b1).
        public var rerankIntervalSeconds = 60.0
        /// Fire ENTER at once when the first fix is already inside (`geofenceInitialTriggerEntry`, b1).
        public var initialTriggerEntry = true

        public init() {}
    }

    /// The OS regions the manager wants, by identifier.
    public private(set) var registered: [String: MonitoredRegion] = [:]
    /// The settings.
    public let configuration: Configuration
    private let index: GeofenceIndex
    private let positions: [String: Int]
    private let circles: [(center: Coordinate, radiusMeters: Double)]
    private var inside: [Int: SimInstant] = [:]
    private var dwelled: Set<Int> = []
    private var hitTesting: Set<Int> = []
    private var lastRank: (time: SimInstant, position: Coordinate)?
    private var sawFirstFix = false

    /// Validates the fences with GEOS and prepares them.
    /// - Throws: `GeometryError` naming the first invalid fence.
    public init(fences: [Geofence], configuration: Configuration = Configuration(), context: GEOSContext)
        throws(GeometryError)
    {
        self.configuration = configuration
        index = try GeofenceIndex(fences, context: context)
        positions = Dictionary(fences.enumerated().map { ($1.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        var circles: [(Coordinate, Double)] = []
        for (position, fence) in fences.enumerated() {
            switch fence.shape {
            case .circle(let center, let radius): circles.append((center, radius))
            case .polygon: circles.append(try Self.boundingCircle(index, position, context))
            }
        }
        self.circles = circles
    }

    private static func boundingCircle(_ index: GeofenceIndex, _ position: Int, _ context: GEOSContext)
        throws(GeometryError) -> (Coordinate, Double)
    {
        guard case .polygon(let shape) = index.fences[position].shape else {
            return (Coordinate(latitude: 0, longitude: 0), 0)
        }
        let circle = try PreparedPolygon(shape, name: index.fences[position].identifier, context: context)
            .minimumBoundingCircle()
        return (circle.center, circle.radiusMeters)
    }

    public var fences: [Geofence] { index.fences }

    /// The OS region a fence registers (its circle, or its polygon's bounding circle).
    public func region(for position: Int) -> MonitoredRegion {
        MonitoredRegion(
            identifier: index.fences[position].identifier, center: circles[position].center,
            radiusMeters: circles[position].radiusMeters)
    }

    /// Re-ranks when due; returns the regions to add and the identifiers to remove.
    public func rerank(at position: Coordinate, time: SimInstant, force: Bool = false, reserve: Int = 0) -> (
        add: [MonitoredRegion], remove: [String]
    ) {
        if !force, let last = lastRank, time.seconds(since: last.time) < configuration.rerankIntervalSeconds {
            return ([], [])
        }
        lastRank = (time, position)
        var nearby: [(distance: Double, position: Int)] = []
        for (fencePosition, circle) in circles.enumerated() {
            let distance = max(0, Geodesy.distanceMeters(position, circle.center) - circle.radiusMeters)
            if distance <= configuration.proximityRadiusMeters { nearby.append((distance, fencePosition)) }
        }
        nearby.sort { ($0.distance, $0.position) < ($1.distance, $1.position) }
        let limit = max(0, configuration.maximumRegisteredFences - reserve)
        let wanted = Dictionary(
            uniqueKeysWithValues: nearby.prefix(limit).map {
                (index.fences[$0.position].identifier, region(for: $0.position))
            })
        let remove = registered.keys.filter { wanted[$0] == nil }.sorted()
        for identifier in remove {
            // The OS will not report an exit for a region it no longer monitors: forget the
            // state so a later return enters again (the missed exit is the cost users see).
            if let position = positions[identifier] {
                inside[position] = nil
                dwelled.remove(position)
                hitTesting.remove(position)
            }
        }
        let add = wanted.filter { registered[$0.key] == nil }.map(\.value).sorted { $0.identifier < $1.identifier }
        registered = wanted
        return (add, remove)
    }

    /// An OS region crossing for a registered fence.
    public func regionEvent(_ identifier: String, _ crossing: RegionCrossing, at time: SimInstant) -> [GeofenceEvent] {
        guard let position = positions[identifier] else { return [] }
        if case .polygon = index.fences[position].shape {
            // The bounding circle only switches polygon hit-testing on and off.
            if crossing == .enter {
                hitTesting.insert(position)
            } else {
                hitTesting.remove(position)
                if inside[position] != nil { return leave(position, at: time) }
            }
            return []
        }
        return crossing == .enter ? enter(position, at: time) : leave(position, at: time)
    }

    /// A delivered fix: the initial trigger, polygon hit-testing and dwell.
    public func fixDelivered(_ fix: Fix) throws(GeometryError) -> [GeofenceEvent] {
        let point = Coordinate(latitude: fix.latitude, longitude: fix.longitude)
        var events: [GeofenceEvent] = []
        if !sawFirstFix {
            sawFirstFix = true
            if configuration.initialTriggerEntry {
                for position in try index.fencesContaining(point) {
                    if case .polygon = index.fences[position].shape { hitTesting.insert(position) }
                    events += enter(position, at: fix.timestamp)
                }
            }
        }
        for position in hitTesting.sorted() {
            let isInside = try index.contains(position, point)
            if isInside && inside[position] == nil { events += enter(position, at: fix.timestamp) }
            if !isInside && inside[position] != nil { events += leave(position, at: fix.timestamp) }
        }
        for (position, since) in inside.sorted(by: { $0.key < $1.key }) where !dwelled.contains(position) {
            let fence = index.fences[position]
            if fence.notifyOnDwell, fix.timestamp.seconds(since: since) >= fence.loiteringDelaySeconds {
                dwelled.insert(position)
                events.append(GeofenceEvent(identifier: fence.identifier, action: .dwell, time: fix.timestamp))
            }
        }
        return events
    }

    private func enter(_ position: Int, at time: SimInstant) -> [GeofenceEvent] {
        guard inside[position] == nil else { return [] }
        inside[position] = time
        return [GeofenceEvent(identifier: index.fences[position].identifier, action: .enter, time: time)]
    }

    private func leave(_ position: Int, at time: SimInstant) -> [GeofenceEvent] {
        guard inside[position] != nil else { return [] }
        inside[position] = nil
        dwelled.remove(position)
        return [GeofenceEvent(identifier: index.fences[position].identifier, action: .exit, time: time)]
    }
}
