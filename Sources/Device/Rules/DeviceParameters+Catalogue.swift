/// One parameter's entry in `tracesim rules`.
public struct DeviceParameterInfo: Sendable {
    /// The property name in `DeviceParameters` and in `device.parameters` of DEVICE.json and
    /// scenario files.
    public var name: String
    /// The value, as text.
    public var value: String
    /// The unit (`s`, `m`, `per hour`, ...), or empty.
    public var unit: String
    /// What it controls.
    public var summary: String
    /// The fact-sheet row.
    public var source: String
    /// How strong that source is.
    public var evidence: Evidence
    /// The values DEVICE.json accepts, as text (`0...1`, `true, false, "profile"`).
    public var values: String
}

/// How one `DeviceParameters` property is described, printed, validated and set. The table
/// `DeviceParameters.descriptors` is the only list of parameters: `tracesim rules` prints it
/// and DEVICE.json's `parameters` object is read through it, so neither can miss one.
public struct DeviceParameterDescriptor: Sendable {
    /// A parameter's value, typed.
    public enum Value: Sendable, Equatable {
        case number(Double)
        case integer(Int)
        case flag(Bool)
        /// A flag that may be left to the OS profile (`nil`, printed `profile`).
        case optionalFlag(Bool?)
        case profile(OSBehaviourProfile)
    }

    /// What values the parameter takes.
    public enum Kind: Sendable, Equatable {
        /// A real number within the range.
        case number(ClosedRange<Double>)
        /// A whole number within the range.
        case integer(ClosedRange<Int>)
        /// `true` or `false`.
        case flag
        /// `true`, `false`, or `"profile"` to follow `osProfile`.
        case optionalFlag
        /// An `OSBehaviourProfile` name.
        case profile
    }

    /// The property name.
    public let name: String
    /// The unit, or empty.
    public let unit: String
    /// What it controls.
    public let summary: String
    /// The fact-sheet row or document it comes from.
    public let source: String
    /// How strong that source is.
    public let evidence: Evidence
    /// The values it accepts.
    public let kind: Kind
    private let read: @Sendable (DeviceParameters) -> Value
    private let write: @Sendable (inout DeviceParameters, Value) -> Void

    /// The parameter's value in `parameters`.
    public func value(in parameters: DeviceParameters) -> Value { read(parameters) }

    /// Sets the parameter in `parameters`; a value of another kind, or outside the range, is
    /// refused with the reason.
    public func set(_ value: Value, in parameters: inout DeviceParameters) throws(DeviceParameterError) {
        switch (kind, value) {
        case (.number(let range), .number(let number)):
            guard range.contains(number) else {
                throw DeviceParameterError(name: name, reason: "must be \(kind.rangeText), not \(value.text)")
            }
        case (.integer(let range), .integer(let integer)):
            guard range.contains(integer) else {
                throw DeviceParameterError(name: name, reason: "must be \(kind.rangeText), not \(value.text)")
            }
        case (.flag, .flag), (.optionalFlag, .optionalFlag), (.profile, .profile):
            break
        case (.number, _), (.integer, _), (.flag, _), (.optionalFlag, _), (.profile, _):
            throw DeviceParameterError(name: name, reason: "wrong kind of value")
        }
        write(&parameters, value)
    }

    /// The longest time a parameter in seconds may take: one year. Longer values mean nothing
    /// for a replay and would overflow the nanosecond clock (SimInstant) when added to it.
    public static let maximumSeconds = 31_536_000.0
    /// The longest distance a parameter in metres may take: about the Earth's circumference.
    public static let maximumMeters = 40_000_000.0

    /// A number parameter; without an explicit range, times are bounded by `maximumSeconds`,
    /// distances by `maximumMeters`, anything else only below by 0.
    static func number(
        _ name: String, _ keyPath: WritableKeyPath<DeviceParameters, Double> & Sendable, unit: String,
        in range: ClosedRange<Double>? = nil, _ summary: String, source: String, _ evidence: Evidence
    ) -> DeviceParameterDescriptor {
        let bounds: ClosedRange<Double>
        switch (range, unit) {
        case (let range?, _): bounds = range
        case (nil, "s"): bounds = 0...maximumSeconds
        case (nil, "m"): bounds = 0...maximumMeters
        case (nil, _): bounds = 0...Double.greatestFiniteMagnitude
        }
        return DeviceParameterDescriptor(
            name: name, unit: unit, summary: summary, source: source, evidence: evidence, kind: .number(bounds),
            read: { .number($0[keyPath: keyPath]) },
            write: { parameters, value in if case .number(let number) = value { parameters[keyPath: keyPath] = number }
            })
    }

    static func integer(
        _ name: String, _ keyPath: WritableKeyPath<DeviceParameters, Int> & Sendable, unit: String,
        in range: ClosedRange<Int>, _ summary: String, source: String, _ evidence: Evidence
    ) -> DeviceParameterDescriptor {
        DeviceParameterDescriptor(
            name: name, unit: unit, summary: summary, source: source, evidence: evidence, kind: .integer(range),
            read: { .integer($0[keyPath: keyPath]) },
            write: { parameters, value in
                if case .integer(let integer) = value { parameters[keyPath: keyPath] = integer }
            })
    }

    static func flag(
        _ name: String, _ keyPath: WritableKeyPath<DeviceParameters, Bool> & Sendable, _ summary: String,
        source: String, _ evidence: Evidence
    ) -> DeviceParameterDescriptor {
        DeviceParameterDescriptor(
            name: name, unit: "", summary: summary, source: source, evidence: evidence, kind: .flag,
            read: { .flag($0[keyPath: keyPath]) },
            write: { parameters, value in if case .flag(let flag) = value { parameters[keyPath: keyPath] = flag } })
    }

    static func optionalFlag(
        _ name: String, _ keyPath: WritableKeyPath<DeviceParameters, Bool?> & Sendable, _ summary: String,
        source: String, _ evidence: Evidence
    ) -> DeviceParameterDescriptor {
        DeviceParameterDescriptor(
            name: name, unit: "", summary: summary, source: source, evidence: evidence, kind: .optionalFlag,
            read: { .optionalFlag($0[keyPath: keyPath]) },
            write: { parameters, value in
                if case .optionalFlag(let flag) = value { parameters[keyPath: keyPath] = flag }
            })
    }

    static func profile(
        _ name: String, _ keyPath: WritableKeyPath<DeviceParameters, OSBehaviourProfile> & Sendable, _ summary: String,
        source: String, _ evidence: Evidence
    ) -> DeviceParameterDescriptor {
        DeviceParameterDescriptor(
            name: name, unit: "", summary: summary, source: source, evidence: evidence, kind: .profile,
            read: { .profile($0[keyPath: keyPath]) },
            write: { parameters, value in
                if case .profile(let profile) = value { parameters[keyPath: keyPath] = profile }
            })
    }
}

/// A parameter value `DeviceParameterDescriptor.set` refused.
public struct DeviceParameterError: Error, Sendable, Equatable {
    /// The parameter.
    public var name: String
    /// Why: out of range, or the wrong kind of value.
    public var reason: String
}

extension DeviceParameterDescriptor.Value {
    /// How an optional flag left to the OS profile is written in DEVICE.json and printed.
    public static let followsProfile = "profile"

    /// The value as `tracesim rules` prints it: whole numbers without a fraction.
    public var text: String {
        switch self {
        case .number(let value):
            value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .integer(let value): String(value)
        case .flag(let value): String(value)
        case .optionalFlag(let value): value.map { String($0) } ?? Self.followsProfile
        case .profile(let profile): profile.rawValue
        }
    }
}

extension DeviceParameters {
    /// The descriptor of the parameter called `name`, if there is one.
    public static func descriptor(named name: String) -> DeviceParameterDescriptor? {
        descriptors.first { $0.name == name }
    }

    /// Every parameter with its current value, in declaration order.
    public var catalogue: [DeviceParameterInfo] {
        Self.descriptors.map { descriptor in
            DeviceParameterInfo(
                name: descriptor.name, value: descriptor.value(in: self).text, unit: descriptor.unit,
                summary: descriptor.summary, source: descriptor.source, evidence: descriptor.evidence,
                values: descriptor.kind.valuesText)
        }
    }
}

extension DeviceParameterDescriptor.Kind {
    /// A number's accepted range in words, for error messages ("between 0 and 31536000",
    /// "≥ 0"); the values list for other kinds.
    var rangeText: String {
        func text(_ value: Double) -> String { DeviceParameterDescriptor.Value.number(value).text }
        switch self {
        case .number(let range):
            return range.upperBound == .greatestFiniteMagnitude
                ? "≥ \(text(range.lowerBound))" : "between \(text(range.lowerBound)) and \(text(range.upperBound))"
        case .integer(let range): return "between \(range.lowerBound) and \(range.upperBound)"
        case .flag, .optionalFlag, .profile: return "one of \(valuesText)"
        }
    }

    /// The accepted values as `tracesim rules --format json` prints them.
    public var valuesText: String {
        switch self {
        case .number(let range):
            range.upperBound == .greatestFiniteMagnitude
                ? "≥ \(DeviceParameterDescriptor.Value.number(range.lowerBound).text)"
                : "\(DeviceParameterDescriptor.Value.number(range.lowerBound).text)..."
                    + DeviceParameterDescriptor.Value.number(range.upperBound).text
        case .integer(let range): "\(range.lowerBound)...\(range.upperBound)"
        case .flag: "true, false"
        case .optionalFlag: "true, false, \"\(DeviceParameterDescriptor.Value.followsProfile)\""
        case .profile: OSBehaviourProfile.names.map(\.0).joined(separator: ", ")
        }
    }
}
