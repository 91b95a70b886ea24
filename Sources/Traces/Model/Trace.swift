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

    /// Creates a trace from already sorted, de-duplicated fixes.
    public init(
        fixes: [Fix],
        motionSamples: [MotionSample] = [],
        provenance: TraceProvenance,
        diagnostics: ImportDiagnostics = ImportDiagnostics()
    ) {
        self.fixes = fixes
        self.motionSamples = motionSamples
        self.provenance = provenance
        self.diagnostics = diagnostics
    }
}
