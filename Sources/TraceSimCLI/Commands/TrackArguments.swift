import Reports
import SimulationCore
import Traces

/// `--tracks time|file|each`: how a file's tracks (GPX `<trk>`, TCX activities, KML
/// Placemarks, TraceSim's `segment` column) are replayed, and the one line each file with
/// overlapping or shifted tracks earns on standard error.
enum TrackArguments {
    static let declared = CommandDeclaration.Option.choice(
        "tracks", ["time", "file", "each"],
        help: """
            For files with several tracks. time (default): every fix sorted by
            time, epochs repeated across tracks merged; tracks that overlap in
            time interleave (a warning says so). file: tracks one after another
            in file order, a track starting before the previous one ended
            shifted to 1 s after it. each: every track its own trace, named
            FILE#N (N the track's number in the file).
            """)

    /// The `--tracks` value; `time` when absent.
    static func order(from arguments: ParsedArguments, command: String) throws(UsageError) -> TrackOrder {
        TrackOrder(rawValue: try arguments.choice("tracks")) ?? .time
    }

    /// Refuses `--tracks each` where the output holds one trace.
    static func refuseEach(_ options: ImportOptions, command: String, because reason: String) throws(UsageError) {
        if options.trackOrder == .each {
            throw UsageError("--tracks each is not available here: \(reason); use time or file", command: command)
        }
    }

    /// The traces to replay from one file: the trace itself, or under `each` one per track,
    /// named `path#N` when the file has several. A track with no timed fix has nothing to
    /// replay: it is left out with a note on standard error, so its missing row is explained.
    static func pieces(of trace: Trace, path: String, options: ImportOptions, console: Console)
        -> [(name: String, trace: Trace)]
    {
        // Reports name standard input as messages do.
        let path = TraceFile.displayName(forPath: path)
        guard options.trackOrder == .each else { return [(path, trace)] }
        var empty = Set(untimedTracks(of: trace))
        var pieces: [(name: String, trace: Trace)] = []
        if trace.hasSeveralTracks {
            for (track, part) in trace.splitByTrack() {
                if part.fixes.isEmpty { empty.insert(track) } else { pieces.append(("\(path)#\(track)", part)) }
            }
        } else {
            pieces = [(path, trace)]
        }
        for track in empty.sorted() {
            console.warn("note: \(MessageText.path(path)): track \(track) has no timed fix; left out")
        }
        return pieces
    }

    /// The tracks the importer dropped for want of a timed fix. GPX, TCX and KML number their
    /// tracks 1, 2, 3... in file order, so a number missing up to the last one kept is such a
    /// track (one after the last kept leaves no trace in the import); other formats' numbers
    /// are the file's own labels, where a gap means nothing.
    private static func untimedTracks(of trace: Trace) -> [Int] {
        guard [.gpx10, .gpx11, .tcx, .kml].contains(trace.provenance.format),
            let last = trace.trackNumbers.max()
        else { return [] }
        let kept = Set(trace.trackNumbers)
        return (1...max(last, 1)).filter { !kept.contains($0) }
    }

    /// One line on standard error when the file's tracks overlap in time: which tracks, by
    /// how much, and what the chosen order did about it. Under `file`, tracks moved without
    /// overlapping (a file listing the afternoon before the morning) get a line too.
    static func warnAboutOverlaps(_ trace: Trace, path: String, options: ImportOptions, console: Console) {
        let name = MessageText.path(path)
        let overlaps = trace.trackOverlaps()
        let acrossTracks = trace.diagnostics.mergedAcrossTracks
        if !overlaps.isEmpty {
            console.warn(
                "warning: \(name): " + InspectReport.overlapText(overlaps) + "; " + outcome(trace, options.trackOrder))
        } else if acrossTracks.count > 0 {
            // Tracks that only touch (one ends on the second the next begins) still lose a point.
            // Only `--tracks time` merges across tracks, so only it gets here.
            let count = acrossTracks.count
            console.warn(
                "warning: \(name): one track ends at the time the next begins; \(count) point\(count == 1 ? "" : "s") "
                    + "merged into another track's point of the same time (--tracks time); "
                    + "--tracks file or each keeps them apart")
        } else if options.trackOrder == .file, !shiftedTracks(trace).isEmpty {
            console.warn("note: \(name): " + outcome(trace, .file))
        }
    }

    private static func outcome(_ trace: Trace, _ order: TrackOrder) -> String {
        switch order {
        case .time:
            let merged = trace.diagnostics.mergedAcrossTracks.count
            let lost =
                merged == 0
                ? ""
                : ", and \(merged) point\(merged == 1 ? "" : "s") at a time both tracks have merged into the other track's"
            return "merged by time (--tracks time) they interleave\(lost); --tracks file or each keeps them apart"
        case .each:
            return "each track replayed on its own (--tracks each)"
        case .file:
            let shifts = shiftedTracks(trace)
            guard !shifts.isEmpty else { return "kept in file order (--tracks file)" }
            let shown = shifts.prefix(3).map { "track \($0.track) by +\(Formatting.compactDuration($0.seconds))" }
            let more = shifts.count > 3 ? " and \(shifts.count - 3) more" : ""
            return "kept in file order (--tracks file), shifted later: " + shown.joined(separator: ", ") + more
        }
    }

    /// Each shifted track once, in file order, with its shift in seconds.
    static func shiftedTracks(_ trace: Trace) -> [(track: Int, seconds: Double)] {
        var seen = Set<Int>()
        return trace.segments.filter { $0.shiftNanoseconds != 0 && seen.insert($0.track).inserted }.map {
            ($0.track, Double($0.shiftNanoseconds) / 1e9)
        }
    }
}
