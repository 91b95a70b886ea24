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
    /// - Complexity: O(n + s + t log m) for n fixes, s segments, t tracks and m motion samples
    ///   in time order (O(t × m) when they are not). Splitting track by track, each a pass over
    ///   every fix, made a 20,000-track truth take minutes.
    public func splitByTrack() -> [(track: Int, trace: Trace)] {
        var steps = 0
        return splitByTrack(countingSteps: &steps)
    }

    /// `splitByTrack()`, adding to `steps` each segment, fix and motion sample it visits and
    /// each probe of a binary search, so a test can hold the work linear without a clock.
    package func splitByTrack(countingSteps steps: inout Int) -> [(track: Int, trace: Trace)] {
        let tracks = trackNumbers
        steps += segments.count
        guard tracks.count > 1, fixSegments.count == fixes.count else { return [(segments.first?.track ?? 1, self)] }
        var slotOfTrack: [Int: Int] = [:]
        for (slot, track) in tracks.enumerated() { slotOfTrack[track] = slot }
        // Each segment's track slot and its position among that track's segments.
        var slotOfSegment = [Int](repeating: 0, count: segments.count)
        var positionInTrack = [UInt32](repeating: 0, count: segments.count)
        var ownSegments = [[TraceSegment]](repeating: [], count: tracks.count)
        steps += segments.count
        for (index, segment) in segments.enumerated() {
            let slot = slotOfTrack[segment.track] ?? 0
            slotOfSegment[index] = slot
            positionInTrack[index] = UInt32(ownSegments[slot].count)
            var unshifted = segment
            unshifted.shiftNanoseconds = 0
            ownSegments[slot].append(unshifted)
        }
        var ownFixes = [[Fix]](repeating: [], count: tracks.count)
        var ownFixSegments = [[UInt32]](repeating: [], count: tracks.count)
        steps += fixes.count + motionSamples.count
        for (fix, segmentIndex) in zip(fixes, fixSegments) {
            let segment = Int(segmentIndex)
            let slot = slotOfSegment[segment]
            var fix = fix
            fix.timestamp = fix.timestamp.advanced(byNanoseconds: -segments[segment].shiftNanoseconds)
            ownFixes[slot].append(fix)
            ownFixSegments[slot].append(positionInTrack[segment])
        }
        let samplesInOrder = zip(motionSamples, motionSamples.dropFirst()).allSatisfy { $0.timestamp <= $1.timestamp }
        return tracks.indices.map { slot in
            let trackFixes = ownFixes[slot]
            var samples: [MotionSample] = []
            if let first = trackFixes.first?.timestamp, let last = trackFixes.last?.timestamp, first <= last {
                if samplesInOrder {
                    let lower = motionSamples.partitioningIndex(steps: &steps) { $0.timestamp >= first }
                    let upper = motionSamples.partitioningIndex(steps: &steps) { $0.timestamp > last }
                    samples = Array(motionSamples[lower..<max(lower, upper)])
                    steps += samples.count
                } else {
                    steps += motionSamples.count
                    samples = motionSamples.filter { $0.timestamp >= first && $0.timestamp <= last }
                }
            }
            let own = ownSegments[slot]
            return (
                tracks[slot],
                Trace(
                    fixes: trackFixes, motionSamples: samples, provenance: provenance, diagnostics: diagnostics,
                    segments: own, fixSegments: own.count > 1 ? ownFixSegments[slot] : [])
            )
        }
    }
}

extension Array {
    /// The first index whose element satisfies `predicate`, which must be false for a prefix
    /// and true for the rest (binary search); `endIndex` when none does.
    fileprivate func partitioningIndex(steps: inout Int, where predicate: (Element) -> Bool) -> Int {
        var (low, high) = (startIndex, endIndex)
        while low < high {
            steps += 1
            let middle = low + (high - low) / 2
            if predicate(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
