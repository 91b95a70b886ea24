/// Collects an importer's fixes and bookkeeping, then applies the counting rules once for
/// every format: sort out-of-order records, merge duplicate epochs, tally what was dropped.
///
/// Formats with tracks and segments declare them (`beginSegment`); the builder keeps them as
/// runs of fixes, so `add` costs the same with or without them.
struct TraceBuilder {
    private(set) var fixes: [Fix] = []
    private var lines: [Int32] = []
    var motionSamples: [MotionSample] = []
    /// The latest timestamp read so far for each provider, indexed by `Provider.rawValue`.
    var latestByProvider = [Int64](repeating: .min, count: Provider.allCases.count)
    private var isSorted = true
    var diagnostics = ImportDiagnostics()
    /// How tracks become the trace (`TraceBuilder+Segments.swift`).
    let trackOrder: TrackOrder
    /// The segments declared so far, in file order.
    var declaredSegments: [DeclaredSegment] = []
    /// Where each run of consecutive fixes of one declared segment begins.
    var segmentRuns: [(start: Int, segment: UInt32)] = []

    /// - Parameters:
    ///   - expectedFixes: an upper estimate (file size over the smallest record the
    ///     format allows): reserving too much only costs untouched virtual memory, too little
    ///     copies every fix again when the array grows.
    ///   - trackOrder: how declared tracks are ordered and merged; irrelevant without them.
    init(expectedFixes: Int = 0, trackOrder: TrackOrder = .time) {
        fixes.reserveCapacity(expectedFixes)
        lines.reserveCapacity(expectedFixes)
        self.trackOrder = trackOrder
    }

    /// Adds a fix read from `line`. Its values must already be validated.
    mutating func add(_ fix: Fix, line: Int) {
        let time = fix.timestamp.nanosecondsSinceEpoch
        let slot = Int(fix.provider.rawValue)
        if time < latestByProvider[slot] {
            diagnostics.outOfOrder.record(line: line)
        } else {
            latestByProvider[slot] = time
        }
        if isSorted, let last = fixes.last, Self.precedes(fix, last) { isSorted = false }
        fixes.append(fix)
        lines.append(Int32(clamping: line))
    }

    /// Counts a record skipped for `reason`.
    mutating func skip(_ reason: SkipReason, line: Int) {
        diagnostics.skip(reason, line: line)
    }

    /// Counts a record that had a position but no timestamp.
    mutating func untimed(line: Int) {
        diagnostics.untimed.record(line: line)
    }

    /// Adds a motion sample.
    mutating func addMotion(_ sample: MotionSample) {
        motionSamples.append(sample)
    }

    /// The finished trace: sorted by (timestamp, provider), one fix per epoch and provider.
    /// Moves the fixes out rather than copying them (the builder is left empty), so merging
    /// duplicates in place never copies a million-fix array.
    mutating func build(provenance: TraceProvenance) throws(TraceFormatError) -> Trace {
        var fixes: [Fix] = []
        var lines: [Int32] = []
        swap(&fixes, &self.fixes)
        swap(&lines, &self.lines)
        // Untimed runs go first, so both the plain and the segmented build see their outcome.
        var segments = declaredSegments.count > 1 ? segmentOfEachFix(count: fixes.count) : []
        let trackOfSegment = trackOrder != .time && !segments.isEmpty ? declaredSegments.map(\.track) : nil
        if let sorted = try UntimedRuns.resolve(
            &fixes, lines: &lines, segments: &segments, diagnostics: &diagnostics, trackOfSegment: trackOfSegment)
        {
            isSorted = sorted
        }
        if declaredSegments.count > 1 {
            return try buildSegmented(fixes, lines: lines, segmentOf: segments, provenance: provenance)
        }
        if !isSorted {
            let order = fixes.indices.sorted { lhs, rhs in
                if Self.precedes(fixes[lhs], fixes[rhs]) { return true }
                if Self.precedes(fixes[rhs], fixes[lhs]) { return false }
                return lhs < rhs  // stable: the earlier record of an epoch stays first
            }
            fixes = order.map { fixes[$0] }
            lines = order.map { lines[$0] }
        }
        var kept = 0
        for index in fixes.indices {
            if kept > 0, Self.sameEpoch(fixes[kept - 1], fixes[index]) {
                fixes[kept - 1].fillAbsentFields(from: fixes[index])
                diagnostics.merged.record(line: Int(lines[index]))
                continue
            }
            fixes[kept] = fixes[index]
            kept += 1
        }
        fixes.removeLast(fixes.count - kept)
        let samples = sortedMotionSamples()
        return Trace(
            fixes: fixes, motionSamples: samples, provenance: provenance, diagnostics: diagnostics,
            segments: declaredSegments.first.flatMap { $0.whole(fixes) }.map { [$0] } ?? [])
    }

    /// The motion samples in time order, the earlier record first at a tie.
    func sortedMotionSamples() -> [MotionSample] {
        motionSamples.enumerated().sorted {
            ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset)
        }.map(\.element)
    }

    @inline(__always)
    static func precedes(_ lhs: Fix, _ rhs: Fix) -> Bool {
        lhs.timestamp < rhs.timestamp || (lhs.timestamp == rhs.timestamp && lhs.provider < rhs.provider)
    }

    @inline(__always)
    static func sameEpoch(_ lhs: Fix, _ rhs: Fix) -> Bool {
        lhs.timestamp == rhs.timestamp && lhs.provider == rhs.provider
    }
}
