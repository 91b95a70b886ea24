import Engine

/// A setting a team's own engine declares, so `tracesim tune` can sweep it: its name, the
/// values it takes and its default. A Swift engine declares its settings with
/// `EngineUnderTest.custom(named:settings:_:)`; an engine run as a command declares them in its
/// `hello` (protocol version 2, capability `settings`). Either way the engine receives every
/// declared setting's value for each run (`EngineContext.settings`, or the `reset`'s
/// `settings`), the default unless the scenario or the sweep chose another.
public struct EngineSetting: Sendable, Equatable {
    /// The values a setting takes.
    public enum Kind: Sendable, Equatable {
        /// A decimal number within the range.
        case number(ClosedRange<Double>)
        /// A whole number within the range.
        case integer(ClosedRange<Int>)
        /// `true` or `false`.
        case bool
        /// One of these words.
        case choice([String])
    }

    /// The name `--sweep` and a scenario file's `engineSettings` use: letters, digits, `_`,
    /// `-` and `.`, starting with a letter.
    public var name: String
    /// The values it takes.
    public var kind: Kind
    /// The value the engine uses unless told otherwise.
    public var defaultValue: Tuning.SettingValue
    /// One line for `tracesim tune --help`-style listings and the tune report.
    public var summary: String

    /// A setting, checked by `problem(in:)` when an engine declares it.
    /// - Parameters:
    ///   - name: the name `--sweep NAME=…` and the scenario file use.
    ///   - kind: the values it takes.
    ///   - defaultValue: the value the engine uses when no sweep or scenario sets it.
    ///   - summary: what it does, in one line.
    public init(name: String, kind: Kind, defaultValue: Tuning.SettingValue, summary: String = "") {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.summary = summary
    }

    /// What is wrong with `value` for this setting, or `nil` when it is one it takes.
    /// - Parameter value: a value to check.
    /// - Returns: the problem in words, or `nil`.
    public func problem(with value: Tuning.SettingValue) -> String? { parameter.check(value) }

    /// What is wrong with a list of declared settings, or `nil` when each is well formed: a
    /// name that is empty, malformed, listed twice or taken by the built-in engine's settings
    /// (`Tuning.parameters`, when `reservingBuiltInNames`); a range that is empty or not
    /// finite; no choices, or one listed twice; a default the setting does not take.
    /// - Parameters:
    ///   - settings: the declared settings, in order.
    ///   - reservingBuiltInNames: refuse names of the built-in engine's settings (for an engine
    ///     that also honours those, so a sweep's name means one thing).
    /// - Returns: the first problem, naming the setting, or `nil`.
    public static func problem(in settings: [EngineSetting], reservingBuiltInNames: Bool = false) -> String? {
        var seen: [String] = []
        for setting in settings {
            let name = setting.name
            guard let first = name.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII,
                name.unicodeScalars.allSatisfy({
                    $0.isASCII
                        && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0))
                }), name.count <= 64
            else {
                return
                    "setting name '\(name)' is not 1 to 64 ASCII letters, digits, '_', '-' and '.', starting with a letter"
            }
            guard !seen.contains(name) else { return "setting '\(name)' is declared twice" }
            seen.append(name)
            if reservingBuiltInNames, Tuning.parameter(named: name) != nil {
                return "setting '\(name)' is the name of a built-in engine setting"
            }
            switch setting.kind {
            case .number(let range):
                guard range.lowerBound.isFinite, range.upperBound.isFinite else {
                    return "setting '\(name)': the range must be finite numbers"
                }
            case .integer, .bool: break
            case .choice(let choices):
                guard !choices.isEmpty else { return "setting '\(name)' has no choices" }
                for (index, choice) in choices.enumerated() {
                    guard !choice.isEmpty, !choice.contains(","), !choice.contains(where: \.isWhitespace) else {
                        return "setting '\(name)': choice '\(choice)' is empty or holds a comma or a space"
                    }
                    guard !choices[..<index].contains(choice) else {
                        return "setting '\(name)': choice '\(choice)' is listed twice"
                    }
                }
            }
            if let problem = setting.problem(with: setting.defaultValue) {
                return "setting '\(name)': the default \(setting.defaultValue) is wrong: \(problem)"
            }
        }
        return nil
    }

    /// The setting as a tuning parameter: sweeping it sets the scenario's `engineSettings`.
    var parameter: Tuning.Parameter {
        let kind: Tuning.Parameter.Kind
        var isWhole = false
        switch self.kind {
        case .number(let range): kind = .number(range)
        case .integer(let range):
            kind = .number(Double(range.lowerBound)...Double(range.upperBound))
            isWhole = true
        case .bool: kind = .bool
        case .choice(let choices): kind = .tokens(choices)
        }
        let name = self.name
        var parameter = Tuning.Parameter(
            name: name, unit: "", kind: kind, summary: summary, apply: { _, _ in }, read: { _ in nil })
        parameter.isWhole = isWhole
        parameter.isDeclaredByEngine = true
        return parameter
    }
}

/// The value of every setting an engine declared, for one run: what the scenario (and the
/// sweep) chose, else the setting's default.
public struct EngineSettingValues: Sendable, Equatable {
    /// Each declared setting's name and value, in the order declared.
    public private(set) var values: [(name: String, value: Tuning.SettingValue)]

    /// The values of `settings`: `chosen`'s where it names one, the default otherwise.
    /// - Parameters:
    ///   - settings: the settings the engine declared.
    ///   - chosen: values a scenario or a sweep chose, by name.
    public init(_ settings: [EngineSetting], chosen: [(name: String, value: Tuning.SettingValue)] = []) {
        values = settings.map { setting in
            (setting.name, chosen.last { $0.name == setting.name }?.value ?? setting.defaultValue)
        }
    }

    /// The value of the setting named `name`; `nil` when no such setting was declared.
    public subscript(name: String) -> Tuning.SettingValue? { values.first { $0.name == name }?.value }

    /// The number setting `name` (integer settings included); `nil` when it is not one.
    /// - Parameter name: a declared setting's name.
    public func number(_ name: String) -> Double? {
        if case .number(let value) = self[name] { value } else { nil }
    }

    /// The switch `name`; `nil` when it is not one.
    /// - Parameter name: a declared setting's name.
    public func bool(_ name: String) -> Bool? {
        if case .bool(let value) = self[name] { value } else { nil }
    }

    /// The choice `name`; `nil` when it is not one.
    /// - Parameter name: a declared setting's name.
    public func choice(_ name: String) -> String? {
        if case .token(let value) = self[name] { value } else { nil }
    }

    public static func == (lhs: EngineSettingValues, rhs: EngineSettingValues) -> Bool {
        lhs.values.elementsEqual(rhs.values) { $0.name == $1.name && $0.value == $1.value }
    }
}

extension Tuning {
    /// The settings `tracesim tune` can sweep on `engine`: the built-in engine's
    /// (`parameters`) when the engine honours them, then the settings it declares of its own.
    /// - Parameter engine: the engine under test.
    /// - Returns: every sweepable setting, in that order.
    /// - Throws: `EngineFailure` when the engine cannot be asked, declares a malformed setting,
    ///   or, honouring the built-in settings, declares one under a built-in name.
    public static func parameters(for engine: EngineUnderTest) throws(EngineFailure) -> [Parameter] {
        guard !engine.isBuiltIn else { return parameters }
        let declared = try engine.declaredSettings()
        if engine.honoursEngineSettings,
            let problem = EngineSetting.problem(in: declared, reservingBuiltInNames: true)
        {
            throw EngineFailure("its hello or declaration has a malformed setting: \(problem)")
        }
        return (engine.honoursEngineSettings ? parameters : []) + declared.map(\.parameter)
    }
}
