/// How TraceSim reads a polygon whose edges jump across the antimeridian.
///
/// RFC 7946 draws edges straight in longitude and latitude, so an edge from 179.9° to −179.9°
/// would run west around the whole Earth, and the polygon would cover everything between. No
/// geofence means that: such an edge is read as the short way across ±180°. Each ring is
/// unwrapped (longitudes shifted by 360° so that no edge spans more than 180°) and the whole
/// polygon placed so its westernmost longitude lies in −180°..<180°; its eastern part may then
/// reach past 180°, and a point is tested at its longitude and at its longitude + 360°.
///
/// An edge between −180° and 180° exactly is kept as written: it runs along the antimeridian
/// or around a pole, as in RFC 7946's advice to cut polygons at ±180°. A ring that, unwrapped,
/// does not close goes around a pole, and one wider than 360° covers some longitudes twice:
/// both are refused.
extension PolygonShape {
    /// The rings (outer first) in the unwrapped plane, or why the polygon cannot be placed there.
    func planarRings() -> Result<[[Coordinate]], PolygonProblem> {
        var rings: [[Coordinate]] = []
        for (index, ring) in ([exterior] + holes).enumerated() {
            guard let unwrapped = Self.unwrap(ring) else {
                return .failure(PolygonProblem(ring: index, kind: .aroundPole))
            }
            rings.append(unwrapped)
        }
        guard let outer = rings.first, let west = outer.map(\.longitude).min(),
            let east = outer.map(\.longitude).max()
        else { return .success(rings) }
        // Holes are unwrapped on their own: move each next to the outer ring.
        let middle = (west + east) / 2
        for index in rings.indices.dropFirst() {
            guard let first = rings[index].first else { continue }
            let turns = ((middle - first.longitude) / 360).rounded()
            if turns != 0 { rings[index] = rings[index].map { Self.shifted($0, by: turns * 360) } }
        }
        // Western edge into -180..<180, so only `longitude + 360` ever needs a second look.
        let turns = -((west + 180) / 360).rounded(.down)
        if turns != 0 { rings = rings.map { $0.map { Self.shifted($0, by: turns * 360) } } }
        for (index, ring) in rings.enumerated() {
            let longitudes = ring.map(\.longitude)
            if let low = longitudes.min(), let high = longitudes.max(), high - low > 360 {
                return .failure(PolygonProblem(ring: index, kind: .wraps))
            }
        }
        return .success(rings)
    }

    /// A ring with each longitude shifted by whole turns so no edge spans more than 180°, or
    /// `nil` when the shifts do not cancel out around the ring (it encircles a pole).
    private static func unwrap(_ ring: [Coordinate]) -> [Coordinate]? {
        guard var previous = ring.first else { return ring }
        var offset = 0.0
        var result = [previous]
        result.reserveCapacity(ring.count)
        for point in ring.dropFirst() {
            offset += turn(from: previous.longitude, to: point.longitude)
            result.append(shifted(point, by: offset))
            previous = point
        }
        // An open ring closes with one more edge; a closed one already came back to its start.
        if let first = ring.first, let last = ring.last, first != last {
            offset += turn(from: last.longitude, to: first.longitude)
        }
        return offset == 0 ? result : nil
    }

    /// The shift an edge from `a` to `b` adds: ±360° when it spans more than 180°, unless both
    /// ends lie on the antimeridian.
    private static func turn(from a: Double, to b: Double) -> Double {
        let delta = b - a
        guard abs(delta) > 180, !(abs(a) == 180 && abs(b) == 180) else { return 0 }
        return delta > 0 ? -360 : 360
    }

    private static func shifted(_ point: Coordinate, by degrees: Double) -> Coordinate {
        Coordinate(latitude: point.latitude, longitude: point.longitude + degrees)
    }
}

/// Why a polygon's rings cannot be drawn in one longitude/latitude plane.
struct PolygonProblem: Error {
    enum Kind {
        /// The ring goes around a pole.
        case aroundPole
        /// The ring spans more than 360° of longitude.
        case wraps
    }

    /// The ring, 0 for the outer one.
    var ring: Int
    var kind: Kind

    /// The reason, naming the ring.
    var reason: String {
        let name = ring == 0 ? "the outer ring (ring 0)" : "hole \(ring) (ring \(ring))"
        switch kind {
        case .aroundPole:
            return "\(name) goes around a pole; cut it at ±180° into rings that do not, or use a circle"
        case .wraps:
            return "\(name) spans more than 360° of longitude"
        }
    }
}
