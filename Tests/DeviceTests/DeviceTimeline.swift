import Device
import Geometry
import SimulationCore
import Traces

/// A tiny run loop for device tests on the simulation's `EventQueue`: feeds events in time
/// order, fires the timers the device schedules, and lets a `SimulatedUser` answer prompts
/// after their delays.
struct DeviceTimeline {
    var device: Device
    var user: SimulatedUser
    let start = SimInstant(nanosecondsSinceEpoch: 1_700_000_000_000_000_000)
    private var queue = EventQueue<DeviceEvent>()
    /// Every action the device returned, with its time.
    private(set) var log: [(time: SimInstant, action: DeviceAction)] = []

    init(_ configuration: Device.Configuration = Device.Configuration(), user: SimulatedUser = .agreeable) {
        device = Device(configuration: configuration)
        self.user = user
        for scheduled in user.settingsChanges {
            enqueue(.user(.changedSettings(scheduled.change)), at: time(scheduled.atSeconds))
        }
    }

    func time(_ seconds: Double) -> SimInstant { start.advanced(byNanoseconds: Int64((seconds * 1e9).rounded())) }

    /// Runs queued events due up to `seconds`, then `event` at `seconds`; returns the actions of `event`.
    @discardableResult
    mutating func at(_ seconds: Double, _ event: DeviceEvent) -> [DeviceAction] {
        advance(to: seconds)
        return run(event, at: time(seconds))
    }

    /// Runs queued events (timers, answers) due up to `seconds`.
    mutating func advance(to seconds: Double) {
        let limit = time(seconds)
        while let next = queue.next, next.time <= limit {
            _ = queue.popNext()
            _ = run(next.payload, at: next.time)
        }
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

    static let origin = Coordinate(latitude: 37.7749, longitude: -122.4194)

    private mutating func run(_ event: DeviceEvent, at now: SimInstant) -> [DeviceAction] {
        let actions = device.handle(event, at: now)
        for action in actions {
            log.append((now, action))
            switch action {
            case .schedule(let timer, let due):
                enqueue(.system(.timerFired(timer)), at: due)
            case .promptShown(let kind):
                if case .answer(let answer, let delay) = user.respond(to: kind) {
                    enqueue(.user(.answeredPrompt(answer)), at: now.advanced(byNanoseconds: Int64(delay * 1e9)))
                }
            case .deliverLocation, .dropLocation, .locationUpdatesFailed, .locationUpdatesPaused,
                .promptSuppressed, .authorizationChanged, .temporaryFullAccuracyCompleted,
                .motionAuthorizationChanged, .bluetoothAuthorizationChanged, .regionEvent, .regionEventDropped,
                .regionMonitoringFailed, .significantChange, .significantChangeDropped, .visit, .visitDropped,
                .deliverMotion, .dropMotion, .appLaunched, .appTerminated:
                // Only timers and prompts make the timeline queue a follow-up event.
                break
            }
        }
        return actions
    }

    private mutating func enqueue(_ event: DeviceEvent, at time: SimInstant) {
        queue.push(event, at: time)
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
        parameters: DeviceParameters = DeviceParameters()
    ) -> Device.Configuration {
        var configuration = Device.Configuration()
        configuration.authorization.storedStatus = status
        configuration.authorization.isPrecise = precise
        configuration.authorization.motionStatus = .authorized
        configuration.infoPlist = infoPlist
        configuration.parameters = parameters
        return configuration
    }

    /// Parameters without region latency, for tests about who gets a region event rather
    /// than when (`regionEventLatency` has its own test).
    static var immediateRegions: DeviceParameters {
        var parameters = DeviceParameters()
        parameters.regionLatencyMaximumSeconds = 0
        return parameters
    }

    static func user(_ responses: [SimulatedUser.PromptFamily: [SimulatedUser.Response]]) -> SimulatedUser {
        (try? SimulatedUser(responses: responses)) ?? .agreeable
    }
}
