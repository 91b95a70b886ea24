import Engine
import Geometry
import SimulationCore

/// The app code a scenario replays: the built-in `TrackingEngine`, or a team's own engine
/// made fresh for every run (through the Core Location facade, a subprocess, or a
/// `RecordingClient` written directly).
///
/// A custom engine gets the scenario's engine settings in its `EngineContext` and may honour
/// them or not; everything else about a run (the phone, the person, the permission flow, the
/// ideal run it is compared with) is the same for every engine.
public struct EngineUnderTest: Sendable {
    /// Makes the client for one run.
    public typealias Factory = @Sendable (EngineContext) throws(EngineFailure) -> any RecordingClient

    enum Kind: Sendable {
        case builtIn
        case custom(Factory)
    }

    let kind: Kind
    /// How reports and errors name the engine: "built-in", or the name a custom engine was given.
    public let name: String
    /// Whether the engine applies the built-in engine's settings it is handed
    /// (`EngineContext.scenario.engine`), so sweeping them (`tune`) means something.
    public let honoursEngineSettings: Bool

    /// The built-in `TrackingEngine`, configured by each scenario's engine settings.
    public static let builtIn = EngineUnderTest(kind: .builtIn, name: "built-in", honoursEngineSettings: true)

    /// A team's engine, made by `make` for every run (ideal runs included). Say
    /// `honoursEngineSettings` when it applies `EngineContext.scenario.engine` (an adapter of
    /// the built-in engine does; a team's own engine usually has settings of its own).
    public static func custom(named name: String, honoursEngineSettings: Bool = false, _ make: @escaping Factory)
        -> EngineUnderTest
    {
        EngineUnderTest(kind: .custom(make), name: name, honoursEngineSettings: honoursEngineSettings)
    }

    /// Whether this is the built-in engine.
    public var isBuiltIn: Bool {
        switch kind {
        case .builtIn: true
        case .custom: false
        }
    }
}

/// What a custom engine is told when it is made for one run.
public struct EngineContext: Sendable {
    /// The scenario being replayed (its name, seed and the built-in engine's settings).
    public var scenario: Scenario
    /// The geofences of the run.
    public var fences: [Geofence]
    /// How the run's trace is named in reports (a path, `FILE#N`), empty when unnamed.
    public var traceName: String
    /// How many fixes the trace holds, for reserving capacity.
    public var expectedFixCount: Int

    /// The context of one run.
    public init(scenario: Scenario, fences: [Geofence], traceName: String, expectedFixCount: Int) {
        self.scenario = scenario
        self.fences = fences
        self.traceName = traceName
        self.expectedFixCount = expectedFixCount
    }
}

/// Why a run could not be made.
public enum RunFailure: Error, Sendable, CustomStringConvertible {
    /// A geofence is invalid (the built-in engine validates them with GEOS).
    case geometry(GeometryError)
    /// The engine under test failed.
    case engine(EngineFailure)

    public var description: String {
        switch self {
        case .geometry(let error): "\(error)"
        case .engine(let failure): failure.message
        }
    }
}
