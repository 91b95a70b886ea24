/// An imported recording: fixes in time order, motion samples, provenance, and what the
/// importer dropped or merged on the way.
///
/// A `Trace` is immutable once built and is shared read-only by every replay of it.
public struct Trace: Sendable {
    /// Fixes sorted by timestamp (then by provider), one per distinct epoch and provider.
    public let fixes: [Fix]
    /// Motion samples sorted by timestamp.
    public let motionSamples: [MotionSample]
    /// The source format and device.
    public let provenance: TraceProvenance
    /// What the importer skipped, merged and re-sorted.
    public let diagnostics: ImportDiagnostics
    /// The file's tracks and segments with a timed fix, in file order; empty when the
    /// format has no such boundaries (the whole trace is then one segment).
    public let segments: [TraceSegment]
    /// For each fix, the index in `segments` of the segment it belongs to; empty when there
    /// are fewer than two segments, so a trace of one segment carries nothing per fix.
    public let fixSegments: [UInt32]

    /// Creates a trace from already sorted, de-duplicated fixes.
    ///
    /// `fixSegments`, when given, holds one index into `segments` per fix.
    public init(
        fixes: [Fix],
        motionSamples: [MotionSample] = [],
        provenance: TraceProvenance,
        diagnostics: ImportDiagnostics = ImportDiagnostics(),
        segments: [TraceSegment] = [],
        fixSegments: [UInt32] = []
    ) {
        precondition(fixSegments.isEmpty || fixSegments.count == fixes.count, "one segment index per fix")
        self.fixes = fixes
        self.motionSamples = motionSamples
        self.provenance = provenance
        self.diagnostics = diagnostics
        self.segments = segments
        self.fixSegments = fixSegments
    }
}
