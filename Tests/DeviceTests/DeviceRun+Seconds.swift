import Device
import Geometry
import SimulationCore
import Traces

/// The phone's run driven in seconds from a fixed start, as the rule tests write their
/// timelines: `at(3, event)` runs what is due by 3 s, then the event at 3 s.
extension DeviceRun {
    static let testStart = SimInstant(nanosecondsSinceEpoch: 1_700_000_000_000_000_000)
    static let origin = Coordinate(latitude: 37.7749, longitude: -122.4194)

    /// A phone set up as `configuration` with `user` holding it, opened at the test start,
    /// its Settings changes queued and its log kept.
    static func testing(
        _ configuration: Device.Configuration = Device.Configuration(), user: SimulatedUser = .agreeable
    ) -> DeviceRun {
        var run = DeviceRun(device: Device(configuration: configuration), user: user, keepsLog: true)
        run.open(at: testStart)
        run.scriptSettingsChanges(from: testStart)
        return run
    }

    var start: SimInstant { Self.testStart }

    func time(_ seconds: Double) -> SimInstant {
        Self.testStart.advanced(byNanoseconds: Int64((seconds * 1e9).rounded()))
    }

    /// Runs queued events due up to `seconds`, then `event` at `seconds`; returns the actions of `event`.
    @discardableResult
    mutating func at(_ seconds: Double, _ event: DeviceEvent) -> [DeviceAction] {
        advance(to: seconds)
        var actions: [DeviceAction] = []
        send(event, at: time(seconds), into: &actions)
        return actions
    }

    /// Runs queued events (timers, answers) due up to `seconds`.
    mutating func advance(to seconds: Double) {
        let limit = time(seconds)
        while let due = nextDue, due <= limit { runNext() }
    }

    /// A fix at `seconds`, at `meters` north of the origin.
    func fix(_ seconds: Double, north meters: Double = 0, speed: Float? = nil) -> Fix {
        let position = Geodesy.destination(from: Self.origin, bearingDegrees: 0, distanceMeters: meters)
        return Fix(
            timestamp: time(seconds), latitude: position.latitude, longitude: position.longitude,
            horizontalAccuracy: .meters(5), speedMetersPerSecond: speed, provider: .gps)
    }

    /// Records a fix at `seconds`; returns the actions.
    @discardableResult
    mutating func record(_ seconds: Double, north meters: Double = 0, speed: Float? = nil) -> [DeviceAction] {
        at(seconds, .sensor(.fixRecorded(fix(seconds, north: meters, speed: speed))))
    }

    /// The actions logged in a time window (seconds, inclusive).
    func actions(from: Double, to: Double) -> [DeviceAction] {
        log.filter { $0.time >= time(from) && $0.time <= time(to) }.map(\.action)
    }
}

extension Array where Element == DeviceAction {
    var deliveries: [Fix] {
        compactMap { if case .deliverLocation(let fix) = $0 { fix } else { nil } }
    }

    var drops: [DeviceRule] {
        compactMap { if case .dropLocation(let rule) = $0 { rule } else { nil } }
    }
}

/// Configurations used across the rule tests.
enum Setup {
    static func authorized(
        _ status: AuthorizationStatus, precise: Bool = true, infoPlist: InfoPlist = InfoPlist(),
        parameters: DeviceParameters = Setup.reliableRegions
    ) -> Device.Configuration {
        var configuration = Device.Configuration()
        configuration.authorization.storedStatus = status
        configuration.authorization.isPrecise = precise
        configuration.authorization.motionStatus = .authorized
        configuration.infoPlist = infoPlist
        configuration.parameters = parameters
        return configuration
    }

    /// The defaults, but the OS misses no region crossing: the rule tests say who gets an event,
    /// and `regionCrossingMissed` has tests of its own.
    static var reliableRegions: DeviceParameters {
        var parameters = DeviceParameters()
        parameters.regionMissProbability = 0
        return parameters
    }

    /// Parameters without region latency or misses, for tests about who gets a region event
    /// rather than when (`regionEventLatency` has its own test).
    static var immediateRegions: DeviceParameters {
        var parameters = reliableRegions
        parameters.regionLatencyMaximumSeconds = 0
        return parameters
    }

    /// Parameters whose significant changes come at Apple's 500 m every time (no drawn
    /// distance), for tests about who gets the event rather than how far it comes.
    static var fixedSignificantChanges: DeviceParameters {
        var parameters = DeviceParameters()
        parameters.significantChangeDistanceMedianMeters = 500
        parameters.significantChangeDistanceSpread = 0
        return parameters
    }

    /// Parameters under which a suspended app's running updates keep the receiver on and are
    /// queued (the band's optimistic end, Apple's background-updates guide).
    static var queuedSuspendedUpdates: DeviceParameters {
        var parameters = DeviceParameters()
        parameters.suspendedAppQueuesUpdates = true
        return parameters
    }

    static func user(_ responses: [SimulatedUser.PromptFamily: [SimulatedUser.Response]]) -> SimulatedUser {
        (try? SimulatedUser(responses: responses)) ?? .agreeable
    }
}
