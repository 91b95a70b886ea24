import Engine

extension Tuning {
    /// A value an engine setting takes: a number, a switch, or one of a setting's named choices.
    public enum SettingValue: Sendable, Equatable, CustomStringConvertible {
        case number(Double)
        case bool(Bool)
        case token(String)

        /// As the command line and the scenario JSON write it.
        public var description: String {
            switch self {
            case .number(let value): value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
            case .bool(let flag): flag ? "true" : "false"
            case .token(let token): token
            }
        }
    }

    /// An engine setting a scenario file holds and a sweep can vary. Its name is its key in a
    /// scenario file's `engine` object (`gate.maxAge` is `{"gate": {"maxAge": …}}`), so a
    /// swept value and a written one are spelled the same.
    public struct Parameter: Sendable {
        /// What values the setting takes.
        public enum Kind: Sendable {
            /// A number within the range.
            case number(ClosedRange<Double>)
            /// `true` or `false`.
            case bool
            /// One of these words.
            case tokens([String])
        }

        /// The name on the command line and the key path in a scenario file's `engine`.
        public var name: String
        /// The unit shown in tables (empty for switches and choices).
        public var unit: String
        /// The values it takes.
        public var kind: Kind
        /// One line for `--help` and the documentation.
        public var summary: String
        /// Whether only whole numbers are taken (a count).
        public var isWhole = false
        /// Whether a team's engine declared the setting (`EngineSetting`): it lives in the
        /// scenario's `engineSettings`, not in the built-in engine's configuration.
        public internal(set) var isDeclaredByEngine = false
        let apply: @Sendable (inout EngineConfiguration, SettingValue) -> Void
        let read: @Sendable (EngineConfiguration) -> SettingValue?

        /// The key path in a scenario file's `engine` object.
        public var keyPath: [String] { name.split(separator: ".").map(String.init) }

        /// Sets `value` (already checked against `kind`) on `configuration`.
        public func apply(_ value: SettingValue, to configuration: inout EngineConfiguration) {
            apply(&configuration, value)
        }

        /// Sets `value` (already checked against `kind`) on `scenario`: its engine settings, or
        /// its `engineSettings` for a setting an engine declared.
        public func apply(_ value: SettingValue, to scenario: inout Scenario) {
            guard isDeclaredByEngine else { return apply(value, to: &scenario.engine) }
            scenario.engineSettings.removeAll { $0.name == name }
            scenario.engineSettings.append((name, value))
        }

        /// The setting's value in `configuration`; `nil` when it is unset (no heartbeat).
        public func value(in configuration: EngineConfiguration) -> SettingValue? { read(configuration) }

        /// `value` when it is one this setting takes, or why not.
        public func check(_ value: SettingValue) -> String? {
            switch (kind, value) {
            case (.number(let range), .number(let number)):
                !range.contains(number)
                    ? "\(name) must be between \(SettingValue.number(range.lowerBound)) and "
                        + "\(SettingValue.number(range.upperBound)), not \(value)"
                    : isWhole && number != number.rounded() ? "\(name) takes whole numbers, not \(value)" : nil
            case (.bool, .bool): nil
            case (.tokens(let tokens), .token(let token)):
                tokens.contains(token) ? nil : "\(name) is one of: \(tokens.joined(separator: ", "))"
            case (.number, _): "\(name) takes numbers"
            case (.bool, _): "\(name) takes true or false"
            case (.tokens(let tokens), _): "\(name) is one of: \(tokens.joined(separator: ", "))"
            }
        }
    }

    /// The parameter named `name`.
    public static func parameter(named name: String) -> Parameter? { parameters.first { $0.name == name } }
}
