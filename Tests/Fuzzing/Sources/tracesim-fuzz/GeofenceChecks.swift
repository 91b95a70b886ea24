import Geometry

/// Accepted geofences must index without trouble, and the index must answer as GEOS does.
enum GeofenceChecks {
    /// Enough fences for the grid to matter, few enough to keep the fuzzer fast.
    static let maximumCheckedFences = 64

    static func check(_ fences: [Geofence]) {
        let context = GEOSContext()
        let index: GeofenceIndex
        do {
            index = try GeofenceIndex(fences, context: context)
        } catch {
            // The loader accepted the file; GEOS may still find a polygon invalid, which the
            // command line reports as exit 65. It must say which fence.
            if error.description.isEmpty { fatalError("a geometry error without a message") }
            return
        }
        for (position, fence) in fences.prefix(maximumCheckedFences).enumerated() {
            for point in probes(fence) {
                let expected: Bool
                switch fence.shape {
                case .circle(let center, let radius):
                    expected = Geodesy.distanceMeters(center, point) <= radius
                case .polygon(let shape):
                    guard let prepared = try? PreparedPolygon(shape, name: fence.identifier, context: context),
                        let answer = try? prepared.contains(point)
                    else { continue }
                    expected = answer
                }
                guard let found = try? index.fencesContaining(point) else { continue }
                if found.contains(position) != expected {
                    fatalError("\(fence.identifier) at \(point.latitude), \(point.longitude): GEOS \(expected), index differs")
                }
            }
        }
    }

    /// The shape's own points and their close neighbours, where a fast test is most tempted
    /// to round the wrong way.
    private static func probes(_ fence: Geofence) -> [Coordinate] {
        let anchors: [Coordinate]
        switch fence.shape {
        case .circle(let center, let radius):
            let north = Geodesy.destination(from: center, bearingDegrees: 0, distanceMeters: radius)
            anchors = [center, north]
        case .polygon(let shape):
            anchors = Array((shape.exterior + shape.holes.joined()).prefix(32))
        }
        var points: [Coordinate] = []
        for anchor in anchors {
            for nudge in [0.0, 1e-9, -1e-9, 1e-6, -1e-6] {
                points.append(Coordinate(latitude: anchor.latitude + nudge, longitude: anchor.longitude))
                points.append(Coordinate(latitude: anchor.latitude, longitude: anchor.longitude + nudge))
            }
        }
        return points
    }
}
