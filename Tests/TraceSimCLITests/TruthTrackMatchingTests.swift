import SimulationCore
import Testing
import Traces

@testable import TraceSimCLI

/// `--tracks each --truth` pairs each replayed track with the truth's track of the same number
/// through an index built once (`TruthTracks`), and `Trace.splitByTrack()` makes one pass over
/// the fixes. Both give what the per-track rule gave before, and their work is counted, not
/// timed: 400 tracks against a 20,000-track truth used to split the truth 400 times, each split
/// a pass over every fix per track.
@Suite("Truth track matching through an index")
struct TruthTrackMatchingTests {
    // MARK: Generated traces

    /// A trace of `tracks` tracks (numbers drawn from 1...3 × tracks, in a random file order),
    /// each of one to `maxSegments` segments with a random shift, some segments empty, fixes
    /// of every segment interleaved in one list, and motion samples in or out of time order.
    static func makeTrace(
        seed: UInt64, tracks: Int, maxSegments: Int = 3, maxFixes: Int = 6, samples: Int = 8, samplesInOrder: Bool = true,
        interleaved: Bool = true
    ) -> Trace {
        var random = SplitMix64(seed: seed)
        func draw(_ range: ClosedRange<Int>) -> Int {
            range.lowerBound + Int(random.next() % UInt64(range.count))
        }
        var numbers: [Int] = []
        var taken = Set<Int>()
        while numbers.count < tracks {
            let number = draw(1...(3 * tracks))
            if taken.insert(number).inserted { numbers.append(number) }
        }
        let base = SimInstant(nanosecondsSinceEpoch: 1_600_000_000_000_000_000)
        var segments: [TraceSegment] = []
        for number in numbers {
            for ordinal in 1...draw(1...maxSegments) {
                segments.append(
                    TraceSegment(
                        track: number, segment: ordinal, line: segments.count + 1, fixCount: 0, firstTime: base,
                        lastTime: base, shiftNanoseconds: draw(0...2) == 0 ? 0 : Int64(draw(1...5)) * 1_000_000_000))
            }
        }
        // Interleaved, each fix goes to a random segment and a few segments stay empty; else
        // each segment holds one stretch of time, as a recording of trip after trip does.
        let fixCount = draw((segments.count * maxFixes / 2)...(segments.count * maxFixes))
        var fixes: [Fix] = []
        var fixSegments: [UInt32] = []
        for index in 0..<fixCount {
            let segment = interleaved ? draw(0...(segments.count - 1)) : index * segments.count / fixCount
            fixes.append(
                Fix(
                    timestamp: base.advanced(byNanoseconds: Int64(index) * 1_000_000_000 + Int64(draw(0...999))),
                    latitude: Double(draw(-80_000...80_000)) / 1000, longitude: Double(draw(-170_000...170_000)) / 1000))
            fixSegments.append(UInt32(segment))
        }
        var motion: [MotionSample] = []
        for index in 0..<samples {
            let seconds = samplesInOrder ? index * fixCount / max(1, samples) : draw(0...max(0, fixCount))
            motion.append(
                MotionSample(
                    timestamp: base.advanced(byNanoseconds: Int64(seconds) * 1_000_000_000), activity: .walking,
                    confidence: .high))
        }
        return Trace(
            fixes: fixes, motionSamples: motion, provenance: TraceProvenance(format: .gpx11), segments: segments,
            fixSegments: segments.count > 1 ? fixSegments : [])
    }

    /// What a test compares of two traces: everything but the fixes' unused fields.
    static func same(_ lhs: Trace, _ rhs: Trace) -> Bool {
        lhs.fixes.map { [Double($0.timestamp.nanosecondsSinceEpoch), $0.latitude, $0.longitude] }
            == rhs.fixes.map { [Double($0.timestamp.nanosecondsSinceEpoch), $0.latitude, $0.longitude] }
            && lhs.segments == rhs.segments && lhs.fixSegments == rhs.fixSegments
            && lhs.motionSamples == rhs.motionSamples && lhs.provenance == rhs.provenance
            && lhs.diagnostics == rhs.diagnostics
    }

    // MARK: The rules as they were, kept as the reference

    /// `Trace.splitByTrack()` before the index: one pass over every segment and fix per track.
    static func splitAsBefore(_ trace: Trace, steps: inout Int) -> [(track: Int, trace: Trace)] {
        let tracks = trace.trackNumbers
        let (fixes, segments, fixSegments) = (trace.fixes, trace.segments, trace.fixSegments)
        guard tracks.count > 1, fixSegments.count == fixes.count else { return [(segments.first?.track ?? 1, trace)] }
        return tracks.map { track in
            steps += segments.count + fixes.count + trace.motionSamples.count
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
            let samples = trace.motionSamples.filter { sample in
                guard let first, let last else { return false }
                return sample.timestamp >= first && sample.timestamp <= last
            }
            return (
                track,
                Trace(
                    fixes: ownFixes, motionSamples: samples, provenance: trace.provenance,
                    diagnostics: trace.diagnostics, segments: own, fixSegments: own.count > 1 ? ownSegments : [])
            )
        }
    }

    /// `TruthLoading.reference(for:in:)` before the index: split (and maybe sort) per track.
    static func referenceAsBefore(for piece: Trace, in truth: Trace) -> Trace {
        guard truth.hasSeveralTracks else { return truth }
        var steps = 0
        if !piece.hasSeveralTracks, let track = piece.segments.first?.track,
            let own = splitAsBefore(truth, steps: &steps).first(where: { $0.track == track }), own.trace.fixes.count >= 2
        {
            return own.trace
        }
        let sorted = truth.fixes.enumerated().sorted { lhs, rhs in
            (lhs.element.timestamp, lhs.offset) < (rhs.element.timestamp, rhs.offset)
        }
        return Trace(fixes: sorted.map(\.element), provenance: truth.provenance, diagnostics: truth.diagnostics)
    }

    // MARK: Same results

    @Test("splitByTrack gives what the per-track passes gave, on 300 generated traces", arguments: [true, false])
    func splitMatchesTheOldRule(samplesInOrder: Bool) {
        for seed in UInt64(0)..<150 {
            let trace = Self.makeTrace(seed: seed, tracks: 1 + Int(seed % 7), samplesInOrder: samplesInOrder)
            var ignored = 0
            let old = Self.splitAsBefore(trace, steps: &ignored)
            let new = trace.splitByTrack()
            #expect(old.map(\.track) == new.map(\.track), "seed \(seed)")
            #expect(
                zip(old, new).allSatisfy { Self.same($0.trace, $1.trace) } && old.count == new.count, "seed \(seed)")
        }
    }

    @Test("each replayed track gets the reference the old rule gave: its own track, or the truth in time order")
    func referenceMatchesTheOldRule() {
        var checked = (own: 0, timeOrdered: 0, whole: 0)
        for seed in UInt64(0)..<120 {
            let truth = Self.makeTrace(seed: seed &+ 1000, tracks: 1 + Int(seed % 6), maxFixes: 3)
            let replayed = Self.makeTrace(seed: seed, tracks: 1 + Int(seed % 5))
            var index = TruthTracks(truth)
            // Pieces as --tracks each makes them, the whole replayed trace, and the same
            // pieces again (the second miss must give the same time-ordered truth).
            let pieces = replayed.splitByTrack().map(\.trace) + [replayed] + replayed.splitByTrack().map(\.trace)
            for piece in pieces {
                let expected = Self.referenceAsBefore(for: piece, in: truth)
                let got = index.reference(for: piece)
                #expect(Self.same(expected, got), "seed \(seed)")
                if !truth.hasSeveralTracks {
                    checked.whole += 1
                } else if got.segments.isEmpty {
                    checked.timeOrdered += 1
                } else {
                    checked.own += 1
                }
            }
        }
        // The generated cases reach every branch of the rule.
        #expect(checked.own > 50 && checked.timeOrdered > 50 && checked.whole > 50, "\(checked)")
    }

    // MARK: Work, counted

    @Test("400 tracks against a 20,000-track truth: one linear split, then one step per track")
    func fourHundredAgainstTwentyThousand() {
        let truth = Self.makeTrace(
            seed: 7, tracks: 20_000, maxSegments: 1, maxFixes: 10, samples: 2_000, interleaved: false)
        let size = truth.fixes.count + truth.segments.count + truth.motionSamples.count
        var index = TruthTracks(truth)
        let built = index.steps
        // Every fix, segment and sample a few times, and two binary searches per track.
        #expect(built <= 4 * size + 20_000 * 2 * 12, "\(built) steps to index \(size) items")
        // 400 tracks of the truth replayed on their own, each found by its number.
        let pieces = truth.splitByTrack().prefix(400)
        var matched = 0
        for (track, piece) in pieces {
            let reference = index.reference(for: piece)
            if piece.fixes.count >= 2 {
                #expect(reference.segments.first?.track == track && reference.fixes.count == piece.fixes.count)
                matched += 1
            }
        }
        #expect(matched > 390)
        // A track with no match sorts the truth once (n log n comparisons); the 400 lookups add
        // one step each. The old rule split the whole truth for every track, each split a pass
        // over every item per truth track: 20,000 × size steps per replayed track.
        #expect(index.steps - built <= 400 + 2 * truth.fixes.count * 18, "\(index.steps - built) steps for 400 tracks")
        #expect(index.steps < 50 * size)
    }

    @Test("splitByTrack's work grows with the trace, not with tracks × fixes")
    func splitIsLinear() {
        for tracks in [100, 1_000, 10_000] {
            let trace = Self.makeTrace(
                seed: UInt64(tracks), tracks: tracks, maxSegments: 2, maxFixes: 5, samples: 500, interleaved: false)
            var steps = 0
            let pieces = trace.splitByTrack(countingSteps: &steps)
            #expect(pieces.count == trace.trackNumbers.count)
            let size = trace.fixes.count + trace.segments.count + trace.motionSamples.count
            let budget = 4 * size + tracks * 2 * 10
            #expect(steps <= budget, "\(tracks) tracks: \(steps) steps for \(size) items")
            // The budget tells the rule as it was apart: a pass over everything per track.
            if tracks <= 1_000 {
                var before = 0
                _ = Self.splitAsBefore(trace, steps: &before)
                #expect(before > 10 * budget, "\(tracks) tracks: the old rule took \(before) steps")
            }
        }
    }
}
