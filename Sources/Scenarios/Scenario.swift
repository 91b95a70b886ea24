import Device
import Engine
import Permissions
import SimulationCore

/// One permission situation to replay a trace through: the phone, how authorization is
/// reached, what the user does over time, and how the engine is configured.
public struct Scenario: Sendable {
    /// How the app comes to its authorization.
    public enum Authorization: Sendable {
        /// The phone starts in `Device.Configuration.authorization`; no flow runs.
        case fixed
        /// A permission layer runs at the trace's start with the scenario's person
        /// (`Scenario.user`) answering; tracking begins when the flow returns.
        case flow(PermissionLayer)
    }

    /// When a timeline event happens.
    public enum When: Sendable, Equatable {
        /// Seconds after the trace's first fix.
        case seconds(Double)
        /// A share of the trace's duration, 0...1.
        case fraction(Double)

        /// The instant in a trace spanning `start...end`.
        public func instant(start: SimInstant, end: SimInstant) -> SimInstant {
            let seconds: Double
            switch self {
            case .seconds(let value): seconds = value
            case .fraction(let share): seconds = end.seconds(since: start) * share
            }
            return start.advanced(bySeconds: seconds)
        }
    }

    /// Something the person or the system does at a time.
    public struct TimelineEvent: Sendable, Equatable {
        public var when: When
        public var event: DeviceEvent

        /// Creates a timeline event.
        public init(_ when: When, _ event: DeviceEvent) {
            self.when = when
            self.event = event
        }
    }

    /// The name reports use.
    public var name: String
    /// One line for `tracesim scenarios`.
    public var summary: String
    /// The fact-sheet rows the scenario rests on.
    public var factRows: [String]
    /// The phone at the start.
    public var device: Device.Configuration
    /// How authorization is reached.
    public var authorization: Authorization
    /// What happens over time.
    public var timeline: [TimelineEvent]
    /// The engine's settings.
    public var engine: EngineConfiguration
    /// Values of settings a team's own engine declares (`EngineSetting`), by name: what a
    /// scenario file's `engineSettings` holds and `tracesim tune` sweeps.
    public var engineSettings: [(name: String, value: Tuning.SettingValue)] = []
    /// The one person holding the phone for the whole run: they answer the permission flow's
    /// prompts, every prompt the app raises while tracking (an Always request, the deferred
    /// upgrade, temporary full accuracy), and make their Settings changes at their times.
    public var user: SimulatedUser
    /// Seeds the phone's randomness.
    public var seed: UInt64
    /// The location status the scenario's name promises the run ends with
    /// (`authorizedWhenInUse` for `wheninuse-locked`), or `nil` when the scenario does not say.
    /// A run that ends elsewhere is marked (`ScenarioRun.authorizationDrift`).
    public var expectedAuthorization: AuthorizationStatus?

    /// Creates a scenario; by default the ideal phone (Always + Precise, motion authorized,
    /// app in the foreground) with the default engine and the agreeable person.
    /// - Parameters:
    ///   - name: the name reports use.
    ///   - summary: one line for `tracesim scenarios`.
    ///   - factRows: the fact-sheet rows the scenario rests on.
    ///   - device: the phone at the start.
    ///   - authorization: how authorization is reached.
    ///   - timeline: what happens over time.
    ///   - engine: the built-in engine's settings.
    ///   - user: the person for the whole run.
    ///   - seed: seeds the phone's randomness.
    ///   - expectedAuthorization: the status the name promises the run ends with, if it says.
    public init(
        name: String, summary: String, factRows: [String] = [], device: Device.Configuration = Scenario.idealDevice,
        authorization: Authorization = .fixed, timeline: [TimelineEvent] = [],
        engine: EngineConfiguration = EngineConfiguration(), user: SimulatedUser = .agreeable, seed: UInt64 = 0,
        expectedAuthorization: AuthorizationStatus? = nil
    ) {
        self.name = name
        self.summary = summary
        self.factRows = factRows
        self.device = device
        self.authorization = authorization
        self.timeline = timeline
        self.engine = engine
        self.user = user
        self.seed = seed
        self.expectedAuthorization = expectedAuthorization
    }

    /// Always + Precise, motion authorized, a complete Info.plist.
    public static var idealDevice: Device.Configuration {
        var configuration = Device.Configuration()
        configuration.authorization.storedStatus = .authorizedAlways
        configuration.authorization.motionStatus = .authorized
        return configuration
    }
}
