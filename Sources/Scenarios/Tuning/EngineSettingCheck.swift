import Engine

/// Checks a scenario's `engineSettings` against the settings an engine declared, for the run
/// that hands them over: a name the engine does not declare, or a value it does not take, fails
/// the run rather than being dropped or invented.
package enum EngineSettingCheck {
    /// The values the run's engine receives: the scenario's, else each declared default.
    /// - Throws: `RunFailure.engine` naming the scenario and the setting.
    package static func values(_ scenario: Scenario, declared: [EngineSetting], engine: String) throws(RunFailure)
        -> EngineSettingValues
    {
        if let problem = problem(scenario, declared: declared, engine: engine) {
            throw .engine(EngineFailure(problem))
        }
        return EngineSettingValues(declared, chosen: scenario.engineSettings)
    }

    /// What is wrong with `scenario.engineSettings` for an engine declaring `declared`, or `nil`;
    /// `engine` names it in the message ("engine 'x'", "the engine").
    package static func problem(_ scenario: Scenario, declared: [EngineSetting], engine: String) -> String? {
        for (name, value) in scenario.engineSettings {
            guard let setting = declared.first(where: { $0.name == name }) else {
                let known =
                    declared.isEmpty
                    ? "it declares none" : "it declares " + declared.map(\.name).joined(separator: ", ")
                return "scenario \(scenario.name): engineSettings names '\(name)', which \(engine) does not "
                    + "declare (\(known))"
            }
            if let problem = setting.problem(with: value) {
                return "scenario \(scenario.name): engineSettings: \(problem)"
            }
        }
        return nil
    }
}
