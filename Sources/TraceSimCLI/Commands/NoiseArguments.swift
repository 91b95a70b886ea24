import Traces

/// `--noise`: phone-grade errors laid over each trace before it is replayed (`PhoneNoise`,
/// Documentation/TraceSim.docc/PhoneNoise.md). Declared once here; a command lists `declared` among its options
/// and calls `noise(_:command:)` once, then `apply(_:to:seed:)` per trace.
enum NoiseArguments {
    static let declared = CommandDeclaration.Option(
        name: "noise", value: "<spec>",
        help: """
            Make a clean trace look like a phone's before replaying it (repeatable):
            phone (every effect at its defaults), or EFFECT[:NAME=VALUE,...], one of
            \(effectList)
            Seeded by --seed (0 without), so runs repeat exactly. Sources:
            Documentation/TraceSim.docc/PhoneNoise.md. Example: --noise phone --noise jumps:rate=2
            """, isRepeatable: true)

    private static var effectList: String {
        PhoneNoise.Effect.allCases.map { effect in
            "  " + effect.rawValue + " ("
                + PhoneNoise.parameters(of: effect).map {
                    "\($0.name)=\(PhoneNoise.format(PhoneNoise.defaultValue(of: $0)))"
                }.joined(separator: ",") + ")"
        }.joined(separator: "\n")
    }

    /// The noise the `--noise` values ask for, or `nil` without any.
    /// - Throws: `UsageError` (exit 64) naming the bad value.
    static func noise(_ parsed: ParsedArguments, command: String) throws(UsageError) -> PhoneNoise? {
        let specifications = parsed.values("noise")
        guard !specifications.isEmpty else { return nil }
        do {
            return try PhoneNoise(specifications: specifications)
        } catch {
            throw UsageError(error.message, command: command)
        }
    }

    /// `trace` with `noise` applied (unchanged when `noise` is `nil`).
    static func apply(_ noise: PhoneNoise?, to trace: Trace, seed: UInt64?) -> Trace {
        guard let noise else { return trace }
        return noise.apply(to: trace, seed: seed ?? 0)
    }
}
