import Traces

/// `--truth TRACE` of `replay` and `tune`: a reference path each accepted fix is measured
/// against, at the fix's time.
enum TruthLoading {
    /// Loads the truth; one of fewer than two timed fixes is an error (65).
    ///
    /// Under `--tracks each` the truth keeps its tracks apart: `TruthTracks` picks one per
    /// replayed track, for `replay` and `tune` alike.
    static func load(_ path: String, options: ImportOptions, console: Console) throws(CommandFailure) -> Trace {
        let reference = try TraceLoading.load(path, options: options, console: console)
        guard reference.fixes.count >= 2 else {
            throw CommandFailure(
                .dataError,
                "error: \(MessageText.path(path)): a truth trace needs at least two timed fixes (is --date needed?)"
            )
        }
        return reference
    }
}

/// What each track replayed on its own (`--tracks each`) is measured against, for `replay` and
/// `tune` alike: built once per truth, then one lookup per track.
///
/// Measuring walks the truth in time order, so a truth sorted track by track would put a
/// far-off track's points under this one's; sorted by time, overlapping tracks would interleave
/// (or merge) and pull it towards another track. A truth of several tracks therefore gives the
/// track of the same number (the usual case: the truth is the same file, or a recording with
/// the same tracks); failing that, all its fixes sorted by time.
///
/// Splitting and sorting the truth again for every track made 400 tracks against themselves
/// take 2.8 s, and 100 tracks against a 20,000-track truth more than 100 s.
struct TruthTracks {
    private let truth: Trace
    /// The truth's tracks by number (looked up, never iterated); empty for a truth of one track.
    private let byNumber: [Int: Trace]
    /// All the truth's fixes sorted by time, made the first time a track has no match.
    private var timeOrdered: Trace?
    /// Elementary steps taken so far: fixes, segments and samples visited while splitting,
    /// comparisons while sorting, one per lookup. Counted so a test can hold the work linear.
    private(set) var steps = 0

    /// Indexes `truth`.
    /// - Complexity: O(n + s) for n fixes and s segments (see `Trace.splitByTrack()`).
    init(_ truth: Trace) {
        self.truth = truth
        var byNumber: [Int: Trace] = [:]
        if truth.hasSeveralTracks {
            for (track, trace) in truth.splitByTrack(countingSteps: &steps) { byNumber[track] = trace }
        }
        self.byNumber = byNumber
    }

    /// The reference for `piece`: the truth itself when it has one track, its track of the
    /// same number (with at least two fixes), or else all its fixes in time order.
    /// - Complexity: O(1), except the first miss, which sorts the truth once.
    mutating func reference(for piece: Trace) -> Trace {
        steps += 1
        guard !byNumber.isEmpty else { return truth }
        if !piece.hasSeveralTracks, let track = piece.segments.first?.track, let own = byNumber[track],
            own.fixes.count >= 2
        {
            return own
        }
        if let timeOrdered { return timeOrdered }
        var comparisons = 0
        let sorted = truth.fixes.enumerated().sorted { lhs, rhs in
            comparisons += 1
            return (lhs.element.timestamp, lhs.offset) < (rhs.element.timestamp, rhs.offset)
        }
        steps += comparisons
        let ordered = Trace(fixes: sorted.map(\.element), provenance: truth.provenance, diagnostics: truth.diagnostics)
        timeOrdered = ordered
        return ordered
    }
}
