import SimulationCore

/// A segment as an importer declares it, before its fixes are counted.
struct DeclaredSegment {
    var track: Int
    var segment: Int
    var kind: String?
    var name: String?
    var line: Int

    /// The segment covering every fix of a single-segment trace; `nil` without fixes.
    func whole(_ fixes: [Fix]) -> TraceSegment? {
        guard let first = fixes.first, let last = fixes.last else { return nil }
        return TraceSegment(
            track: track, segment: segment, kind: kind, name: name, line: line, fixCount: fixes.count,
            firstTime: first.timestamp, lastTime: last.timestamp)
    }
}

extension TraceBuilder {
    /// Declares a new segment; the fixes added from now on belong to it.
    ///
    /// Under `TrackOrder.file` and `.each` a new track restarts the out-of-order count, since
    /// each track is sorted on its own.
    /// - Parameter replacingEmpty: when the segment declared last got no fix, take its place:
    ///   formats that number their own segments (the XML ones) lose nothing by it, and a file of
    ///   millions of empty `<trkseg/>` then costs no memory.
    /// - Returns: the segment's index, for `continueSegment`.
    @discardableResult
    mutating func beginSegment(
        track: Int, segment: Int, kind: String?, name: String?, line: Int, replacingEmpty: Bool = false
    ) -> Int {
        if trackOrder != .time, let previous = declaredSegments.last, previous.track != track {
            latestByProvider = [Int64](repeating: .min, count: Provider.allCases.count)
        }
        let declared = DeclaredSegment(track: track, segment: segment, kind: kind, name: name, line: line)
        if replacingEmpty, let last = segmentRuns.last, last.start == fixes.count,
            Int(last.segment) == declaredSegments.count - 1
        {
            declaredSegments[declaredSegments.count - 1] = declared
            return declaredSegments.count - 1
        }
        declaredSegments.append(declared)
        continueSegment(declaredSegments.count - 1)
        return declaredSegments.count - 1
    }

    /// Makes a declared segment current again (TraceSim's CSV interleaves segments by time).
    mutating func continueSegment(_ index: Int) {
        let segment = UInt32(index)
        if let last = segmentRuns.last {
            if last.segment == segment { return }
            if last.start == fixes.count {
                segmentRuns[segmentRuns.count - 1].segment = segment
                return
            }
        }
        segmentRuns.append((fixes.count, segment))
    }

    /// Each fix's segment, expanded from the runs `add` kept. Fixes before the first declared
    /// run belong to the first segment.
    func segmentOfEachFix(count: Int) -> [UInt32] {
        var segmentOf = [UInt32](repeating: segmentRuns.first?.segment ?? 0, count: count)
        for (position, run) in segmentRuns.enumerated() where run.start < count {
            let end = position + 1 < segmentRuns.count ? segmentRuns[position + 1].start : count
            for index in run.start..<min(end, count) { segmentOf[index] = run.segment }
        }
        return segmentOf
    }

    /// `build` for a file of several segments: the same counting rules, applied across the whole
    /// file (`TrackOrder.time`) or within each track (`.file`, `.each`), keeping each fix's segment.
    mutating func buildSegmented(
        _ fixes: [Fix], lines: [Int32], segmentOf: [UInt32], provenance: TraceProvenance
    ) throws(TraceFormatError) -> Trace {
        var fixes = fixes
        var lines = lines
        var segmentOf = segmentOf
        // The file's own time span of each segment, before merging or shifting.
        var spans = [(first: SimInstant, last: SimInstant)?](repeating: nil, count: declaredSegments.count)
        for index in fixes.indices {
            let time = fixes[index].timestamp
            let slot = Int(segmentOf[index])
            if let span = spans[slot] {
                spans[slot] = (min(span.first, time), max(span.last, time))
            } else {
                spans[slot] = (time, time)
            }
        }
        // Tracks in file order: the position of each declared segment's track.
        var trackPosition: [Int: Int] = [:]
        let trackOfSegment = declaredSegments.map { declared in
            if let known = trackPosition[declared.track] { return known }
            trackPosition[declared.track] = trackPosition.count
            return trackPosition.count - 1
        }
        let byTrack = trackOrder != .time
        let order = fixes.indices.sorted { lhs, rhs in
            if byTrack {
                let (left, right) = (trackOfSegment[Int(segmentOf[lhs])], trackOfSegment[Int(segmentOf[rhs])])
                if left != right { return left < right }
            }
            if Self.precedes(fixes[lhs], fixes[rhs]) { return true }
            if Self.precedes(fixes[rhs], fixes[lhs]) { return false }
            return lhs < rhs  // stable: the earlier record of an epoch stays first
        }
        fixes = order.map { fixes[$0] }
        lines = order.map { lines[$0] }
        segmentOf = order.map { segmentOf[$0] }
        var kept = 0
        for index in fixes.indices {
            if kept > 0, Self.sameEpoch(fixes[kept - 1], fixes[index]),
                !byTrack || trackOfSegment[Int(segmentOf[kept - 1])] == trackOfSegment[Int(segmentOf[index])]
            {
                fixes[kept - 1].fillAbsentFields(from: fixes[index])
                diagnostics.merged.record(line: Int(lines[index]))
                if trackOfSegment[Int(segmentOf[kept - 1])] != trackOfSegment[Int(segmentOf[index])] {
                    diagnostics.mergedAcrossTracks.record(line: Int(lines[index]))
                }
                continue
            }
            fixes[kept] = fixes[index]
            segmentOf[kept] = segmentOf[index]
            lines[kept] = lines[index]
            kept += 1
        }
        fixes.removeLast(fixes.count - kept)
        segmentOf.removeLast(segmentOf.count - kept)
        lines.removeLast(lines.count - kept)
        // Only `file` moves tracks: under `each` every track is replayed at its own times, so a
        // shift past the clock's end must not refuse a file that `each` never moves.
        let shifts =
            trackOrder == .file
            ? try shiftTracks(&fixes, lines: lines, segmentOf: segmentOf, trackOfSegment: trackOfSegment) : [:]

        // Segments without a timed fix are left out; the rest are renumbered densely.
        var newIndex = [UInt32](repeating: .max, count: declaredSegments.count)
        var segments: [TraceSegment] = []
        for (index, declared) in declaredSegments.enumerated() {
            guard let span = spans[index] else { continue }
            newIndex[index] = UInt32(segments.count)
            segments.append(
                TraceSegment(
                    track: declared.track, segment: declared.segment, kind: declared.kind, name: declared.name,
                    line: declared.line, fixCount: 0, firstTime: span.first, lastTime: span.last,
                    shiftNanoseconds: shifts[trackOfSegment[index]] ?? 0))
        }
        for index in segmentOf.indices {
            segmentOf[index] = newIndex[Int(segmentOf[index])]
            segments[Int(segmentOf[index])].fixCount += 1
        }
        return Trace(
            fixes: fixes, motionSamples: sortedMotionSamples(), provenance: provenance, diagnostics: diagnostics,
            segments: segments, fixSegments: segments.count > 1 ? segmentOf : [])
    }

    /// Moves each track that starts no later than the previous one ended to one second after
    /// that end, so fixes kept in file order are still in time order.
    /// - Returns: the shift of each moved track, in nanoseconds, by track position.
    /// - Throws: when a shifted fix would pass the clock's end (2262): a shift never saturates.
    private func shiftTracks(
        _ fixes: inout [Fix], lines: [Int32], segmentOf: [UInt32], trackOfSegment: [Int]
    ) throws(TraceFormatError) -> [Int: Int64] {
        var shifts: [Int: Int64] = [:]
        var previousEnd: SimInstant?
        var start = 0
        while start < fixes.count {
            let track = trackOfSegment[Int(segmentOf[start])]
            var end = start
            while end < fixes.count, trackOfSegment[Int(segmentOf[end])] == track { end += 1 }
            if let previousEnd, fixes[start].timestamp <= previousEnd {
                let (target, late) = previousEnd.nanosecondsSinceEpoch.addingReportingOverflow(1_000_000_000)
                let (shift, early) = target.subtractingReportingOverflow(fixes[start].timestamp.nanosecondsSinceEpoch)
                let overflow = late || early
                let last = fixes[end - 1].timestamp.nanosecondsSinceEpoch
                guard !overflow, !last.addingReportingOverflow(shift).overflow else {
                    throw TraceFormatError(
                        file: UntimedRuns.timing.file, line: Int(lines[start]),
                        problem: .unexpectedContent("--tracks file would move this track past 2262"))
                }
                for index in start..<end {
                    fixes[index].timestamp = fixes[index].timestamp.advanced(byNanoseconds: shift)
                }
                shifts[track] = shift
            }
            previousEnd = fixes[end - 1].timestamp
            start = end
        }
        return shifts
    }
}
