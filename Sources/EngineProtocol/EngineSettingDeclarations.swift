import ConfigJSON
import Engine
import Scenarios
import SimulationCore
import Traces

/// The settings an engine declares in its `hello` (protocol version 2, capability `settings`)
/// and the values each `reset` then carries, so `tracesim tune` sweeps an engine in any
/// language:
///
///     {"type":"hello","protocolVersion":2,"name":"…","capabilities":["settings"],
///      "settings":[{"name":"accuracyThreshold","kind":"number","min":5,"max":500,"default":50},
///                  {"name":"mode","kind":"choice","choices":["walk","drive"],"default":"drive"}]}
///     {"type":"reset",…,"settings":{"accuracyThreshold":50,"mode":"drive"}}
package enum EngineSettingDeclarations {
    /// The largest magnitude of an integer setting's bounds: 2^53 - 1, the largest whole number
    /// a JSON reader holding numbers as doubles (JavaScript, Python's json for floats) keeps exact.
    static let largestInteger: Int64 = 9_007_199_254_740_991

    /// The kinds a declaration names.
    static let kinds = ["number", "integer", "bool", "choice"]

    /// A hello's `settings`, or `nil` when it has none; each element checked for its members
    /// and the list for its names, ranges and defaults (`EngineSetting.problem(in:)`).
    static func parse(_ fields: inout MessageFields) throws(ProtocolMessageError) -> [EngineSetting]? {
        guard fields.has("settings") else { return nil }
        var settings: [EngineSetting] = []
        for (index, element) in try fields.array("settings").enumerated() {
            settings.append(try setting(element.value, context: "hello: settings[\(index)]"))
        }
        if let problem = EngineSetting.problem(in: settings) { throw ProtocolMessageError("hello: \(problem)") }
        return settings
    }

    private static func setting(_ value: JSONValue, context: String) throws(ProtocolMessageError) -> EngineSetting {
        var fields = try MessageFields(value, context: context)
        let name = try fields.string("name")
        let kindName = try fields.token("kind", kinds.map { ($0, $0) })
        let summary = try fields.optionalString("summary") ?? ""
        let setting: EngineSetting
        switch kindName {
        case "number":
            let (low, high) = (try fields.double("min"), try fields.double("max"))
            guard low <= high else { throw ProtocolMessageError("\(fields.context): \"min\" is above \"max\"") }
            setting = EngineSetting(
                name: name, kind: .number(low...high), defaultValue: .number(try fields.double("default")),
                summary: summary)
        case "integer":
            let (low, high) = (try fields.integer("min"), try fields.integer("max"))
            let limit = largestInteger
            guard low <= high, -limit...limit ~= low, -limit...limit ~= high else {
                throw ProtocolMessageError(
                    "\(fields.context): \"min\" and \"max\" must be whole numbers from -\(limit) to \(limit), "
                        + "\"min\" not above \"max\"")
            }
            setting = EngineSetting(
                name: name, kind: .integer(Int(low)...Int(high)),
                defaultValue: .number(Double(try fields.integer("default"))), summary: summary)
        case "bool":
            setting = EngineSetting(
                name: name, kind: .bool, defaultValue: .bool(try fields.bool("default")), summary: summary)
        default:
            var choices: [String] = []
            for element in try fields.array("choices") {
                guard case .string(let choice) = element.value else {
                    throw ProtocolMessageError("\(fields.context): \"choices\" must be an array of strings")
                }
                choices.append(choice)
            }
            setting = EngineSetting(
                name: name, kind: .choice(choices), defaultValue: .token(try fields.string("default")),
                summary: summary)
        }
        try fields.finish()
        return setting
    }

    /// The declarations as a hello writes them (`tracesim`'s own tests and harness engines).
    static func json(_ settings: [EngineSetting]) -> String {
        "["
            + settings.map { setting in
                var object = ProtocolLine()
                object.string("name", setting.name)
                switch setting.kind {
                case .number(let range):
                    object.string("kind", "number")
                    object.number("min", range.lowerBound)
                    object.number("max", range.upperBound)
                case .integer(let range):
                    object.string("kind", "integer")
                    object.integer("min", range.lowerBound)
                    object.integer("max", range.upperBound)
                case .bool:
                    object.string("kind", "bool")
                case .choice(let choices):
                    object.string("kind", "choice")
                    object.raw("choices", "[" + choices.map(quoted).joined(separator: ",") + "]")
                }
                object.raw("default", value(setting.defaultValue, setting.kind))
                if !setting.summary.isEmpty { object.string("summary", setting.summary) }
                return object.line
            }.joined(separator: ",") + "]"
    }

    /// The `reset`'s `settings`: every declared setting's value for the run.
    static func valuesObject(_ values: EngineSettingValues, declared: [EngineSetting]) -> String {
        var object = ProtocolLine()
        for (name, settingValue) in values.values {
            let kind = declared.first { $0.name == name }?.kind ?? .bool
            object.raw(name, value(settingValue, kind))
        }
        return object.line
    }

    private static func value(_ value: Tuning.SettingValue, _ kind: EngineSetting.Kind) -> String {
        switch value {
        case .number(let number):
            if case .integer = kind { return String(Int64(number)) }
            return ProtocolLine.text(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .token(let token): return quoted(token)
        }
    }

    private static func quoted(_ text: String) -> String {
        var literal = ""
        JSONStringLiteral.append(text, to: &literal)
        return literal
    }
}

extension EngineSettingDeclarations {
    /// The run's `reset`: `RunMessages.resetLine`, and for an engine that declared the
    /// capability `settings` the value of each setting it declared.
    /// - Throws: `ProtocolMessageError` when the scenario's `engineSettings` name a setting the
    ///   engine did not declare, or a value it does not take.
    static func resetLine(_ context: EngineContext, session: EngineSession) throws(ProtocolMessageError) -> String {
        let line = RunMessages.resetLine(context)
        guard session.has(.settings) else {
            if let setting = context.scenario.engineSettings.first {
                throw ProtocolMessageError(
                    "scenario \(context.scenario.name): engineSettings names '\(setting.name)', but the engine "
                        + "declared no settings (capability 'settings' in its hello)")
            }
            return line
        }
        if let problem = EngineSettingCheck.problem(context.scenario, declared: session.settings, engine: "the engine")
        {
            throw ProtocolMessageError(problem)
        }
        let values = EngineSettingValues(session.settings, chosen: context.scenario.engineSettings)
        // The reset is one object: its closing brace gives way to the settings member.
        return String(line.dropLast()) + ",\"settings\":" + valuesObject(values, declared: session.settings) + "}"
    }
}
