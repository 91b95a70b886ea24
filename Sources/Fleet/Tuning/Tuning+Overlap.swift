import Geometry
import Scenarios
import SimulationCore
import Traces

extension Tuning {
    /// How far apart in space two traces' bounding boxes may be and still count as the same
    /// trip. A truth and a phone recording of one drive overlap outright; the slack only
    /// forgives a truth that starts or ends a little away, and is far below the distance of a
    /// recording of another place.
    public static let overlapSlackMeters = 500.0

    /// Why a truth cannot be measured against a trace: it shares no time with it, or lies
    /// elsewhere. Either means every error would be missing, so it is refused rather than
    /// printed as "no error".
    public struct OverlapProblem: Sendable, Equatable, CustomStringConvertible {
        /// The trace's and the truth's first and last fix times.
        public var traceSpan: ClosedRange<SimInstant>
        public var truthSpan: ClosedRange<SimInstant>
        /// The distance between the two bounding boxes, metres (0 when they overlap).
        public var boxDistanceMeters: Double

        /// Whether the time spans share any instant.
        public var overlapsInTime: Bool { traceSpan.overlaps(truthSpan) }
        /// Whether the boxes are within `overlapSlackMeters`.
        public var overlapsInSpace: Bool { boxDistanceMeters <= overlapSlackMeters }

        /// What does not overlap, with both time spans and the distance between the places
        /// (no coordinates: they are personal data).
        public var description: String {
            var parts: [String] = []
            if !overlapsInTime {
                parts.append(
                    "no common time (trace \(ISO8601.format(traceSpan.lowerBound, minimumFractionDigits: 0)) to "
                        + "\(ISO8601.format(traceSpan.upperBound, minimumFractionDigits: 0)), truth "
                        + "\(ISO8601.format(truthSpan.lowerBound, minimumFractionDigits: 0)) to "
                        + "\(ISO8601.format(truthSpan.upperBound, minimumFractionDigits: 0)))")
            }
            if !overlapsInSpace {
                let kilometres = (boxDistanceMeters / 100).rounded() / 10
                parts.append(
                    "no common place (the bounding boxes are \(kilometres) km apart; at most "
                        + "\(Int(overlapSlackMeters)) m allowed)")
            }
            return parts.joined(separator: "; ")
        }
    }

    /// What keeps `truth` from being measured against `trace`; `nil` when they share time and
    /// place. Both need a fix.
    public static func overlapProblem(truth: Trace, trace: Trace) -> OverlapProblem? {
        guard let traceBox = Box(trace.fixes), let truthBox = Box(truth.fixes) else { return nil }
        let problem = OverlapProblem(
            traceSpan: traceBox.span, truthSpan: truthBox.span, boxDistanceMeters: traceBox.distanceMeters(to: truthBox)
        )
        return problem.overlapsInTime && problem.overlapsInSpace ? nil : problem
    }

    /// A trace's extent in time and space.
    private struct Box {
        var span: ClosedRange<SimInstant>
        var latitudes: ClosedRange<Double>
        var longitudes: ClosedRange<Double>

        init?(_ fixes: [Fix]) {
            guard let first = fixes.first else { return nil }
            var (start, end) = (first.timestamp, first.timestamp)
            var (south, north, west, east) = (first.latitude, first.latitude, first.longitude, first.longitude)
            for fix in fixes {
                start = min(start, fix.timestamp)
                end = max(end, fix.timestamp)
                south = min(south, fix.latitude)
                north = max(north, fix.latitude)
                west = min(west, fix.longitude)
                east = max(east, fix.longitude)
            }
            span = start...end
            latitudes = south...north
            longitudes = west...east
        }

        /// The great-circle distance between the closest points of the two boxes, taking each
        /// coordinate of one clamped into the other's range (boxes across the antimeridian
        /// are rare for a drive and would only make the distance larger than it is).
        func distanceMeters(to other: Box) -> Double {
            func nearest(_ range: ClosedRange<Double>, _ to: ClosedRange<Double>) -> (Double, Double) {
                if range.upperBound < to.lowerBound { return (range.upperBound, to.lowerBound) }
                if to.upperBound < range.lowerBound { return (range.lowerBound, to.upperBound) }
                let shared = max(range.lowerBound, to.lowerBound)
                return (shared, shared)
            }
            let (latitude, otherLatitude) = nearest(latitudes, other.latitudes)
            let (longitude, otherLongitude) = nearest(longitudes, other.longitudes)
            return Geodesy.distanceMeters(
                Coordinate(latitude: latitude, longitude: longitude),
                Coordinate(latitude: otherLatitude, longitude: otherLongitude))
        }
    }
}
