import Traces

/// `--truth TRACE` of `replay` and `tune`: a reference path each accepted fix is measured
/// against, at the fix's time.
enum TruthLoading {
    /// Loads the truth; one of fewer than two timed fixes is an error (65).
    ///
    /// Under `--tracks each` the truth keeps its tracks apart: `reference(for:in:)` picks one
    /// per replayed track, for `replay` and `tune` alike.
    static func load(_ path: String, options: ImportOptions, console: Console) throws(CommandFailure) -> Trace {
        let reference = try TraceLoading.load(path, options: options, console: console)
        guard reference.fixes.count >= 2 else {
            throw CommandFailure(
                .dataError,
                "error: \(TraceFile.displayName(forPath: path)): a truth trace needs at least two timed fixes (is --date needed?)"
            )
        }
        return reference
    }

    /// What one track replayed on its own (`--tracks each`) is measured against. Measuring
    /// walks the truth in time order, so a truth sorted track by track would put a far-off
    /// track's points under this one's; sorted by time, overlapping tracks would interleave
    /// (or merge) and pull it towards another track. A truth of several tracks therefore gives
    /// the track of the same number (the usual case: the truth is the same file, or a
    /// recording with the same tracks); failing that, all its fixes sorted by time.
    static func reference(for piece: Trace, in truth: Trace) -> Trace {
        guard truth.hasSeveralTracks else { return truth }
        if !piece.hasSeveralTracks, let track = piece.segments.first?.track,
            let own = truth.splitByTrack().first(where: { $0.track == track }), own.trace.fixes.count >= 2
        {
            return own.trace
        }
        let sorted = truth.fixes.enumerated().sorted { lhs, rhs in
            (lhs.element.timestamp, lhs.offset) < (rhs.element.timestamp, rhs.offset)
        }
        return Trace(fixes: sorted.map(\.element), provenance: truth.provenance, diagnostics: truth.diagnostics)
    }
}
