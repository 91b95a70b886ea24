import SimulationCore

extension PhoneNoise {
    /// One tunable number of an effect, as `--noise EFFECT:NAME=VALUE` sets it.
    public struct Parameter: Sendable {
        /// The key, as typed.
        public let name: String
        /// What it means, with its unit.
        public let meaning: String
        /// The values accepted.
        public let range: ClosedRange<Double>
        fileprivate let set: @Sendable (inout PhoneNoise, Double) -> Void
        fileprivate let get: @Sendable (PhoneNoise) -> Double
    }

    /// The parameters of `effect`, in the order help lists them.
    public static func parameters(of effect: Effect) -> [Parameter] {
        switch effect {
        case .multipath:
            [
                Parameter(
                    name: "rate", meaning: "episodes per hour", range: 0...3600,
                    set: { $0.multipath?.ratePerHour = $1 }, get: { $0.multipath?.ratePerHour ?? .nan }),
                Parameter(
                    name: "duration", meaning: "mean episode length, seconds", range: 1...86_400,
                    set: { $0.multipath?.meanDurationSeconds = $1 },
                    get: { $0.multipath?.meanDurationSeconds ?? .nan }),
                Parameter(
                    name: "sigma", meaning: "offset standard deviation per axis, metres", range: 0...1000,
                    set: { $0.multipath?.sigmaMeters = $1 }, get: { $0.multipath?.sigmaMeters ?? .nan }),
                Parameter(
                    name: "correlation", meaning: "offset correlation time, seconds", range: 0.1...86_400,
                    set: { $0.multipath?.correlationSeconds = $1 }, get: { $0.multipath?.correlationSeconds ?? .nan }),
                Parameter(
                    name: "share", meaning: "share of the offset added to the reported accuracy", range: 0...1,
                    set: { $0.multipath?.accuracyShare = $1 }, get: { $0.multipath?.accuracyShare ?? .nan }),
            ]
        case .staleFirstFix:
            [
                Parameter(
                    name: "gap", meaning: "a gap longer than this, seconds, ends with a cached fix", range: 1...86_400,
                    set: { $0.staleFirstFix?.gapSeconds = $1 }, get: { $0.staleFirstFix?.gapSeconds ?? .nan }),
                Parameter(
                    name: "distance", meaning: "how far the cached fix before the start is, metres",
                    range: 0...100_000, set: { $0.staleFirstFix?.startDistanceMeters = $1 },
                    get: { $0.staleFirstFix?.startDistanceMeters ?? .nan }),
            ]
        case .jumps:
            [
                Parameter(
                    name: "rate", meaning: "jumps per hour", range: 0...3600,
                    set: { $0.jumps?.ratePerHour = $1 }, get: { $0.jumps?.ratePerHour ?? .nan }),
                Parameter(
                    name: "distance", meaning: "typical displacement, metres (±20 %)", range: 1...100_000,
                    set: { $0.jumps?.distanceMeters = $1 }, get: { $0.jumps?.distanceMeters ?? .nan }),
            ]
        case .accuracyUnderReporting:
            [
                Parameter(
                    name: "factor", meaning: "what the reported accuracy is multiplied by", range: 0.01...1,
                    set: { $0.accuracyUnderReporting?.factor = $1 },
                    get: { $0.accuracyUnderReporting?.factor ?? .nan }),
                Parameter(
                    name: "share", meaning: "share of fixes affected", range: 0...1,
                    set: { $0.accuracyUnderReporting?.share = $1 },
                    get: { $0.accuracyUnderReporting?.share ?? .nan }),
            ]
        }
    }

    /// The default of each parameter of `effect`, as `phone` has it.
    public static func defaultValue(of parameter: Parameter) -> Double { parameter.get(.phone) }

    /// Noise from `--noise` values: `phone` (every effect at its defaults) or
    /// `EFFECT[:NAME=VALUE,...]`, one effect per value. An effect named after `phone` replaces
    /// phone's version of it; naming anything twice is an error.
    /// - Throws: `NoiseSpecificationError` naming the value and what is wrong with it.
    public init(specifications: [String]) throws(NoiseSpecificationError) {
        self.init()
        var named: Set<String> = []
        for specification in specifications {
            guard !specification.isEmpty else {
                throw NoiseSpecificationError("--noise needs a value: 'phone' or EFFECT[:NAME=VALUE,...]")
            }
            let head = specification.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(head[0])
            guard !named.contains(name) else {
                throw NoiseSpecificationError("--noise names '\(NoiseSpecificationError.shown(name))' twice")
            }
            named.insert(name)
            if name == "phone" {
                guard head.count == 1 else {
                    throw NoiseSpecificationError("--noise phone takes no parameters; name an effect to tune it")
                }
                // Effects named earlier keep their settings.
                self = Self.phone.merging(self, named: named)
                continue
            }
            guard let effect = Effect(rawValue: name) else {
                throw NoiseSpecificationError(
                    "unknown --noise effect '\(NoiseSpecificationError.shown(name))'; use phone, "
                        + Effect.allCases.map(\.rawValue).joined(separator: ", "))
            }
            switch effect {
            case .multipath: multipath = Multipath()
            case .staleFirstFix: staleFirstFix = StaleFirstFix()
            case .jumps: jumps = Jumps()
            case .accuracyUnderReporting: accuracyUnderReporting = AccuracyUnderReporting()
            }
            guard head.count == 2 else { continue }
            try setParameters(String(head[1]), of: effect)
        }
    }

    /// `self` with each effect `named` explicitly taken from `explicit`.
    private func merging(_ explicit: PhoneNoise, named: Set<String>) -> PhoneNoise {
        var merged = self
        if named.contains(Effect.multipath.rawValue) { merged.multipath = explicit.multipath }
        if named.contains(Effect.staleFirstFix.rawValue) { merged.staleFirstFix = explicit.staleFirstFix }
        if named.contains(Effect.jumps.rawValue) { merged.jumps = explicit.jumps }
        if named.contains(Effect.accuracyUnderReporting.rawValue) {
            merged.accuracyUnderReporting = explicit.accuracyUnderReporting
        }
        return merged
    }

    private mutating func setParameters(_ list: String, of effect: Effect) throws(NoiseSpecificationError) {
        let parameters = Self.parameters(of: effect)
        let keys = parameters.map(\.name).joined(separator: ", ")
        guard !list.isEmpty else {
            throw NoiseSpecificationError("--noise \(effect.rawValue): nothing after ':'; give NAME=VALUE (\(keys))")
        }
        var seen: Set<String> = []
        for pair in list.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let shownPair = NoiseSpecificationError.shown(String(pair))
            guard parts.count == 2, !parts[0].isEmpty else {
                throw NoiseSpecificationError(
                    "--noise \(effect.rawValue): '\(shownPair)' is not NAME=VALUE (names: \(keys))")
            }
            let key = String(parts[0])
            guard let parameter = parameters.first(where: { $0.name == key }) else {
                throw NoiseSpecificationError(
                    "--noise \(effect.rawValue): unknown parameter '\(NoiseSpecificationError.shown(key))' "
                        + "(names: \(keys))")
            }
            guard seen.insert(key).inserted else {
                throw NoiseSpecificationError("--noise \(effect.rawValue): '\(key)' given twice")
            }
            let text = String(parts[1])
            guard let value = DecimalNumber.decimal(text, allowsNegative: parameter.range.lowerBound < 0),
                value.isFinite
            else {
                let sign = parameter.range.lowerBound < 0 ? "" : "; no sign"
                throw NoiseSpecificationError(
                    "--noise \(effect.rawValue): \(key) must be a decimal number (\(DecimalNumber.decimalForm)\(sign)), "
                        + "not '\(NoiseSpecificationError.shown(text))'")
            }
            guard parameter.range.contains(value) else {
                throw NoiseSpecificationError(
                    "--noise \(effect.rawValue): \(key) must be within \(Self.format(parameter.range.lowerBound))..."
                        + "\(Self.format(parameter.range.upperBound)) (\(parameter.meaning)), not \(text)")
            }
            parameter.set(&self, value)
        }
    }

    /// A bound as typed: no trailing `.0`.
    package static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

/// A `--noise` value that cannot be used; the CLI exits 64 with the message.
public struct NoiseSpecificationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, naming the value.
    public var message: String

    init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }

    /// Part of a typed value fit to quote: at most 40 characters, anything unprintable as `?`.
    static func shown(_ text: String) -> String {
        let printable = text.unicodeScalars.map { scalar -> Character in
            scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format
                || scalar.properties.generalCategory == .lineSeparator
                || scalar.properties.generalCategory == .paragraphSeparator
                ? "?" : Character(scalar)
        }
        return printable.count > 40 ? String(printable.prefix(40)) + "…" : String(printable)
    }
}
