import Scenarios
import Traces

/// What every accepted trace must satisfy, whatever its source: the model's own promises,
/// a lossless JSON Lines round trip, and a replay that neither crashes nor invents fixes.
enum TraceChecks {
    static func check(_ trace: Trace) {
        for (earlier, later) in zip(trace.fixes, trace.fixes.dropFirst()) where later.timestamp < earlier.timestamp {
            fatalError("fixes out of time order: \(earlier.timestamp) then \(later.timestamp)")
        }
        for (earlier, later) in zip(trace.motionSamples, trace.motionSamples.dropFirst())
        where later.timestamp < earlier.timestamp {
            fatalError("motion samples out of time order")
        }
        for fix in trace.fixes {
            guard fix.latitude.isFinite, fix.longitude.isFinite, abs(fix.latitude) <= 90, abs(fix.longitude) <= 180
            else { fatalError("fix outside the globe: \(fix.latitude), \(fix.longitude)") }
        }
        roundTrip(trace)
        ReplayChecks.replay(trace, ReplayChecks.ideal)
    }

    /// JSON Lines carries every field a trace holds, so exporting and importing it again must
    /// give the same fixes and motion samples back. (`convert` refuses a trace holding
    /// neither, so that case has no file to read back.)
    private static func roundTrip(_ trace: Trace) {
        guard !trace.fixes.isEmpty || !trace.motionSamples.isEmpty else { return }
        let text = TraceExporter.export(trace, as: .jsonLines)
        let back: Trace
        do {
            back = try TraceImporter.read(Array(text.utf8), name: "round-trip.jsonl")
        } catch {
            fatalError("an accepted trace did not survive export to JSON Lines: \(error)")
        }
        guard back.fixes == trace.fixes else { fatalError("JSON Lines round trip changed the fixes") }
        guard back.motionSamples == trace.motionSamples else {
            fatalError("JSON Lines round trip changed the motion samples")
        }
    }
}
