import ConfigJSON

extension ScenarioFile {
    /// A scenario file's `engineSettings`: values of a team's engine's own settings, in the
    /// file's order, each a number, `true`/`false` or a word. Which names and values the engine
    /// takes is known only when it runs, so the run checks them (`EngineSettingCheck`).
    static func engineSettings(_ node: JSONNode, _ reader: ConfigReader) throws(ConfigError)
        -> [(name: String, value: Tuning.SettingValue)]
    {
        _ = try reader.object(node, "$.engineSettings", allowed: nil)
        guard case .object(let members) = node.value else { return [] }
        var settings: [(name: String, value: Tuning.SettingValue)] = []
        for (name, value) in members {
            let path = "$.engineSettings.\(name)"
            switch value.value {
            case .number:
                settings.append((name, .number(try reader.number(value, path, in: -1e15...1e15))))
            case .bool(let flag): settings.append((name, .bool(flag)))
            case .string(let word):
                guard !word.isEmpty else { throw reader.fail(value, path, "a choice is a non-empty word") }
                settings.append((name, .token(word)))
            case .object, .array, .null:
                throw reader.fail(value, path, "expected a number, true or false, or a choice's word")
            }
        }
        return settings
    }
}
