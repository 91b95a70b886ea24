import Engine
import Geometry
import SimulationCore
import Traces

/// Tuning the engine: here, the engine settings a scenario file holds (`parameters`) and how far
/// a run's fixes are from a truth. The `Fleet` module adds the parameter sweeps over many traces,
/// for engineers tuning filters on real traces: rows of (scenario, swept values) measured against
/// a fixed reference, objectives and constraints, and the Pareto front (`Documentation/TraceSim.docc/Tuning.md`).
public enum Tuning {
    /// Distances of accepted fixes from the truth interpolated at their times; fixes outside the
    /// truth's span, or inside a truth gap longer than `reachSeconds` (2 s: a truth is a dense
    /// recording), are skipped; a fix at the very instant of a truth fix is measured against it
    /// whatever the gaps around it.
    public static func errors(_ recorder: Recorder, against truth: Trace, reachSeconds: Double = 2) -> [Double] {
        let fixes = truth.fixes
        guard fixes.count >= 2 else { return [] }
        var result: [Double] = []
        var cursor = 0
        for (time, position) in zip(recorder.acceptedTimes, recorder.acceptedPositions) {
            while cursor + 1 < fixes.count && fixes[cursor + 1].timestamp < time { cursor += 1 }
            guard cursor + 1 < fixes.count, fixes[cursor].timestamp <= time else { continue }
            let (a, b) = (fixes[cursor], fixes[cursor + 1])
            let span = b.timestamp.seconds(since: a.timestamp)
            guard span > 0, span <= reachSeconds || time == a.timestamp || time == b.timestamp else { continue }
            let share = time.seconds(since: a.timestamp) / span
            let truthPosition = Coordinate(
                latitude: a.latitude + (b.latitude - a.latitude) * share,
                longitude: a.longitude + (b.longitude - a.longitude) * share)
            result.append(Geodesy.distanceMeters(truthPosition, position))
        }
        return result
    }

    package static func pathLength(_ fixes: [Fix], every seconds: Double) -> Double {
        var length = 0.0
        var last: Fix?
        for fix in fixes {
            guard let previous = last else {
                last = fix
                continue
            }
            guard fix.timestamp.seconds(since: previous.timestamp) >= seconds else { continue }
            length += Geodesy.distanceMeters(
                Coordinate(latitude: previous.latitude, longitude: previous.longitude),
                Coordinate(latitude: fix.latitude, longitude: fix.longitude))
            last = fix
        }
        return length
    }

    /// The value at `share` (0...1) of sorted values, nearest rank.
    public static func percentile(_ sorted: [Double], _ share: Double) -> Double? {
        guard !sorted.isEmpty else { return nil }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * share).rounded()))]
    }
}
