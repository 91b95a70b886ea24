import Geometry
import SimulationCore
import Traces

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The significant-change service: an event after moving far enough, not too often (a5 #5).
///
/// How far is "far enough" is drawn anew after every event (issue 31 §3). Apple documents a
/// floor: an event comes "as soon as the device moves 500 meters or more from its previous
/// notification" (`startMonitoringSignificantLocationChanges()`). The field measured more: Long
/// Weekend Mobile (2010; 8 phones, 12 days, three cities) found a 750 m move triggers half the
/// time and a 2,500 m move 95 % of the time. A log-normal with median 750 m and
/// σ = ln(2500 / 750) / 1.645 goes through both points; Apple's 500 m is its floor. The draws
/// come from a generator of the service's own, seeded from the device seed, so they never move
/// another rule's draw (region latency, derived motion, reduced accuracy, memory pressure).
struct SignificantChangeMonitor: Sendable {
    private(set) var isRunning = false
    private var lastEventPosition: Coordinate?
    private var lastEventTime: SimInstant?
    /// How far from the last event the next one comes, drawn at that event.
    private(set) var triggerDistanceMeters = 0.0
    /// The service's own generator: trigger distances and the coarse fix's displacement.
    private var random: SplitMix64

    /// Mixed into the device seed for the service's generator (ASCII "signchng").
    static let seedMix: UInt64 = 0x7369_676E_6368_6E67

    init(seed: UInt64) {
        random = SplitMix64(seed: seed ^ Self.seedMix)
    }

    /// Starts the service; starting it while it runs changes nothing. A relaunched app calls
    /// `startMonitoringSignificantLocationChanges()` again to keep receiving events (Apple's
    /// page for it; intuit/LocationManager#86), and the service it re-subscribes to is the
    /// one that relaunched it, not a new one whose first position would be an event at once.
    mutating func start() {
        guard !isRunning else { return }
        isRunning = true
        lastEventPosition = nil
        lastEventTime = nil
    }

    mutating func stop() {
        isRunning = false
    }

    /// Whether this position makes an event. The first position after starting always does
    /// (the initial fix); each event draws the distance of the next.
    /// Inlined into the device's per-fix step, which otherwise copies all of `DeviceParameters`
    /// (some 300 bytes) to pass it.
    @inline(__always)
    mutating func observe(_ position: Coordinate, at now: SimInstant, parameters: DeviceParameters) -> Bool {
        guard isRunning else { return false }
        if let lastPosition = lastEventPosition, let lastTime = lastEventTime {
            guard DistanceCheck(lastPosition, position).isAtLeast(triggerDistanceMeters),
                now.seconds(since: lastTime) >= parameters.significantChangeIntervalSeconds
            else { return false }
        }
        lastEventPosition = position
        lastEventTime = now
        triggerDistanceMeters = Self.triggerDistance(parameters: parameters, random: &random)
        return true
    }

    /// A trigger distance: log-normal with the median and spread of `parameters`, never below
    /// Apple's floor (`significantChangeDistanceMeters`). A spread of 0 draws nothing and gives
    /// the median (or the floor, if above it), so a replay can pin every trigger to one distance.
    static func triggerDistance(parameters: DeviceParameters, random: inout SplitMix64) -> Double {
        let floor = parameters.significantChangeDistanceMeters
        let median = parameters.significantChangeDistanceMedianMeters
        let spread = parameters.significantChangeDistanceSpread
        guard spread > 0, median > 0 else { return max(floor, median) }
        return max(floor, median * exp(spread * standardNormal(&random)))
    }

    /// A standard normal draw (Box-Muller), the same on every platform.
    static func standardNormal(_ random: inout SplitMix64) -> Double {
        // 1 - u lies in (0, 1], so the logarithm is finite.
        let radius = (-2 * log(1 - random.uniform(0...1))).squareRoot()
        return radius * cos(2 * Double.pi * random.uniform(0...1))
    }

    /// The event's location as the cell and Wi-Fi positioning behind the service reports it:
    /// with `significantChangeHorizontalAccuracyMeters` as its accuracy, displaced so that the
    /// true position falls inside that circle 68 % of the time, and without speed, course or
    /// altitude, which network positioning does not measure.
    ///
    /// Apple's page for the service ties its timeliness to Wi-Fi and cell networks rather than
    /// GPS (a5 #5), and Long Weekend Mobile's fixes were cell or Wi-Fi grade, "accurate to 500 m". Apple documents `horizontalAccuracy` as the radius of a circle of
    /// uncertainty without a confidence level; 68 % is Android's documented level
    /// (`Location.getAccuracy()`), an assumption here. The displacement is a circular normal
    /// error whose radius, Rayleigh-distributed, is within the accuracy with probability 0.68.
    mutating func coarsen(_ fix: Fix, parameters: DeviceParameters) -> Fix {
        let accuracy = parameters.significantChangeHorizontalAccuracyMeters
        let position = Coordinate(latitude: fix.latitude, longitude: fix.longitude)
        let sigma = accuracy / Self.rayleighRadiusAt68Percent
        // The radius of a circular normal error: Rayleigh, drawn by its inverse distribution.
        let radius = sigma * (-2 * log(1 - random.uniform(0...1))).squareRoot()
        let bearing = random.uniform(0...360)
        let displaced = Geodesy.destination(from: position, bearingDegrees: bearing, distanceMeters: radius)
        return Fix(
            timestamp: fix.timestamp, latitude: displaced.latitude, longitude: displaced.longitude,
            horizontalAccuracy: .meters(accuracy), provider: .network)
    }

    /// The 68th percentile of a Rayleigh radius in units of σ: √(−2 ln 0.32).
    static let rayleighRadiusAt68Percent = (-2 * log(0.32)).squareRoot()
}
