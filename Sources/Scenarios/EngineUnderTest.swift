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

    /// Where an engine's declared settings come from: given with it, or asked of it (an
    /// engine run as a command says them in its `hello`).
    enum SettingsSource: Sendable {
        case given([EngineSetting])
        case asked(@Sendable () throws(EngineFailure) -> [EngineSetting])
    }

    let kind: Kind
    var settingsSource = SettingsSource.given([])
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

    /// A team's engine that declares `settings` (its own, not the built-in engine's), so
    /// `tracesim tune` can sweep them: every run's `EngineContext.settings` holds their values.
    /// - Parameters:
    ///   - name: how reports and errors name the engine.
    ///   - settings: the settings it takes; `tune` checks them (`EngineSetting.problem(in:)`).
    ///   - make: makes the client for one run (ideal runs included).
    public static func custom(named name: String, settings: [EngineSetting], _ make: @escaping Factory)
        -> EngineUnderTest
    {
        var engine = EngineUnderTest(kind: .custom(make), name: name, honoursEngineSettings: false)
        engine.settingsSource = .given(settings)
        return engine
    }

    /// This engine, its declared settings asked of it by `settings` when first needed.
    package func asking(settings: @escaping @Sendable () throws(EngineFailure) -> [EngineSetting]) -> EngineUnderTest {
        var engine = self
        engine.settingsSource = .asked(settings)
        return engine
    }

    /// The settings the engine declares (none for the built-in engine, whose settings are
    /// `Tuning.parameters`). An engine run as a command is started to be asked.
    /// - Throws: `EngineFailure` when the engine cannot be asked or declares malformed settings.
    public func declaredSettings() throws(EngineFailure) -> [EngineSetting] {
        let settings: [EngineSetting]
        switch settingsSource {
        case .given(let given): settings = given
        case .asked(let ask): settings = try ask()
        }
        if let problem = EngineSetting.problem(in: settings) {
            throw EngineFailure("its hello or declaration has a malformed setting: \(problem)")
        }
        return settings
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
    /// The value of every setting the engine declared (`EngineUnderTest.custom(named:settings:_:)`):
    /// the scenario's `engineSettings` (a tune row's swept values), else each default.
    public var settings = EngineSettingValues([])

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
