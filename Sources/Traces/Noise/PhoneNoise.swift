import SimulationCore

/// Phone-grade errors laid over a clean recording, so a survey-grade trace (a u-blox or SPAN
/// log, a GPX from a dedicated logger) can stand in for what an iPhone would have reported.
///
/// Four effects, each optional and each with documented defaults (`Documentation/TraceSim.docc/PhoneNoise.md`
/// lists the sources): urban-canyon multipath episodes, a stale (cached) first fix after the
/// start and after each long gap, rare outliers about 5 km away, and under-reported horizontal
/// accuracy. `phone` turns all four on at their defaults.
///
/// Deterministic: the same trace, effects and seed give the same fixes, bit for bit, on every
/// platform. Each effect draws from its own `SplitMix64` stream derived from the seed, so
/// turning one effect on or off does not change what another does.
public struct PhoneNoise: Sendable, Equatable {
    /// Correlated offsets of tens of metres during urban-canyon episodes; `nil` for none.
    public var multipath: Multipath?
    /// A cached position handed over first after the start and after long gaps; `nil` for none.
    public var staleFirstFix: StaleFirstFix?
    /// Rare single-fix outliers displaced about 5 km; `nil` for none.
    public var jumps: Jumps?
    /// Horizontal accuracy reported smaller than it is; `nil` for none.
    public var accuracyUnderReporting: AccuracyUnderReporting?

    /// Noise made of the given effects; with no argument, none at all.
    public init(
        multipath: Multipath? = nil, staleFirstFix: StaleFirstFix? = nil, jumps: Jumps? = nil,
        accuracyUnderReporting: AccuracyUnderReporting? = nil
    ) {
        self.multipath = multipath
        self.staleFirstFix = staleFirstFix
        self.jumps = jumps
        self.accuracyUnderReporting = accuracyUnderReporting
    }

    /// Every effect at its defaults.
    public static let phone = PhoneNoise(
        multipath: Multipath(), staleFirstFix: StaleFirstFix(), jumps: Jumps(),
        accuracyUnderReporting: AccuracyUnderReporting())

    /// Whether no effect is on, so applying it returns the trace unchanged.
    public var isEmpty: Bool {
        multipath == nil && staleFirstFix == nil && jumps == nil && accuracyUnderReporting == nil
    }

    /// The trace as a phone would have reported it.
    ///
    /// Effects apply in a fixed order: multipath, jumps, accuracy under-reporting, then the
    /// stale first fixes, which copy an already noisy fix. Motion samples, provenance and
    /// diagnostics pass through; an inserted cached fix joins the segment of the fix it precedes.
    /// - Parameters:
    ///   - trace: the clean recording.
    ///   - seed: the randomness; commands pass their `--seed` (0 without one).
    /// - Returns: the noisy trace, still sorted by time.
    /// - Complexity: O(n) in the number of fixes.
    public func apply(to trace: Trace, seed: UInt64) -> Trace {
        guard !isEmpty, !trace.fixes.isEmpty else { return trace }
        var fixes = trace.fixes
        if let multipath {
            var random = Self.stream(seed, .multipath)
            multipath.apply(to: &fixes, random: &random)
        }
        if let jumps {
            var random = Self.stream(seed, .jumps)
            jumps.apply(to: &fixes, random: &random)
        }
        if let accuracyUnderReporting {
            var random = Self.stream(seed, .accuracyUnderReporting)
            accuracyUnderReporting.apply(to: &fixes, random: &random)
        }
        var segments = trace.segments
        var fixSegments = trace.fixSegments
        if let staleFirstFix {
            var random = Self.stream(seed, .staleFirstFix)
            staleFirstFix.apply(to: &fixes, fixSegments: &fixSegments, segments: &segments, random: &random)
        }
        return Trace(
            fixes: fixes, motionSamples: trace.motionSamples, provenance: trace.provenance,
            diagnostics: trace.diagnostics, segments: segments, fixSegments: fixSegments)
    }

    /// The effects' names, as `--noise` spells them.
    public enum Effect: String, Sendable, CaseIterable {
        /// `Multipath`.
        case multipath
        /// `StaleFirstFix`.
        case staleFirstFix = "stale-first-fix"
        /// `Jumps`.
        case jumps
        /// `AccuracyUnderReporting`.
        case accuracyUnderReporting = "accuracy"

        /// A fixed tag per effect, so each draws from a stream of its own.
        fileprivate var streamTag: UInt64 {
            switch self {
            case .multipath: 0x6D75_6C74
            case .staleFirstFix: 0x7374_616C
            case .jumps: 0x6A75_6D70
            case .accuracyUnderReporting: 0x6163_6375
            }
        }
    }

    private static func stream(_ seed: UInt64, _ effect: Effect) -> SplitMix64 {
        var mixer = SplitMix64(seed: seed ^ effect.streamTag)
        return SplitMix64(seed: mixer.next())
    }
}
