import SimulationCore

extension Trace {
    /// The file's track numbers that hold a fix's segment, in file order.
    public var trackNumbers: [Int] {
        var seen = Set<Int>()
        return segments.map(\.track).filter { seen.insert($0).inserted }
    }

    /// Whether the trace holds more than one track.
    public var hasSeveralTracks: Bool { trackNumbers.count > 1 }

    /// The segment a fix belongs to, or `nil` when the trace records no segments.
    /// - Parameter index: an index into `fixes`.
    public func segment(ofFix index: Int) -> TraceSegment? {
        if fixSegments.isEmpty { return segments.first }
        return segments[Int(fixSegments[index])]
    }

    /// Pairs of tracks whose time spans (as the file gives them, before any shift) overlap:
    /// each track that starts before an earlier-starting one has ended, with the one it
    /// overlaps most recently ending. Tracks that only touch (one ends as the next starts) do
    /// not overlap.
    /// - Complexity: O(t log t) in the number of tracks.
    public func trackOverlaps() -> [TrackOverlap] {
        var spans: [Int: (first: SimInstant, last: SimInstant)] = [:]
        for segment in segments {
            if let span = spans[segment.track] {
                spans[segment.track] = (min(span.first, segment.firstTime), max(span.last, segment.lastTime))
            } else {
                spans[segment.track] = (segment.firstTime, segment.lastTime)
            }
        }
        guard spans.count > 1 else { return [] }
        let ordered = spans.sorted { ($0.value.first, $0.key) < ($1.value.first, $1.key) }
        var overlaps: [TrackOverlap] = []
        var latest = ordered[0]
        for track in ordered.dropFirst() {
            if track.value.first < latest.value.last {
                overlaps.append(
                    TrackOverlap(
                        track: latest.key, otherTrack: track.key, start: track.value.first,
                        end: min(track.value.last, latest.value.last)))
            }
            if track.value.last > latest.value.last { latest = track }
        }
        return overlaps
    }

    /// One trace per track, in file order, each with the track's own fixes at the times the
    /// file gives them (any `TrackOrder.file` shift undone), its segments, the motion samples
    /// within its span, and the whole file's diagnostics. A trace of one track is returned whole.
    public func splitByTrack() -> [(track: Int, trace: Trace)] {
        let tracks = trackNumbers
        guard tracks.count > 1, fixSegments.count == fixes.count else { return [(segments.first?.track ?? 1, self)] }
        return tracks.map { track in
            let members = segments.indices.filter { segments[$0].track == track }
            var newIndex = [UInt32](repeating: .max, count: segments.count)
            for (position, index) in members.enumerated() { newIndex[index] = UInt32(position) }
            var ownFixes: [Fix] = []
            var ownSegments: [UInt32] = []
            for index in fixes.indices where newIndex[Int(fixSegments[index])] != .max {
                let segment = segments[Int(fixSegments[index])]
                var fix = fixes[index]
                fix.timestamp = fix.timestamp.advanced(byNanoseconds: -segment.shiftNanoseconds)
                ownFixes.append(fix)
                ownSegments.append(newIndex[Int(fixSegments[index])])
            }
            let own = members.map { index in
                var segment = segments[index]
                segment.shiftNanoseconds = 0
                return segment
            }
            let first = ownFixes.first?.timestamp
            let last = ownFixes.last?.timestamp
            let samples = motionSamples.filter { sample in
                guard let first, let last else { return false }
                return sample.timestamp >= first && sample.timestamp <= last
            }
            return (
                track,
                Trace(
                    fixes: ownFixes, motionSamples: samples, provenance: provenance, diagnostics: diagnostics,
                    segments: own, fixSegments: own.count > 1 ? ownSegments : [])
            )
        }
    }
}
