/// Names the edges of a polygon that pass through a point, so a validity error can say where
/// it is by position in the file (`ring 0, edges 1-2 and 3-4`) rather than by coordinates.
enum PolygonEdges {
    /// "edges 1-2 and 3-4 of the outer ring (ring 0)", or `nil` when no edge passes near `point`.
    /// Positions are those of the rings as given: edge `i-(i+1)` joins positions `i` and `i + 1`.
    static func describe(near point: Coordinate, in rings: [[Coordinate]]) -> String? {
        var parts: [String] = []
        for (ringIndex, ring) in rings.enumerated() {
            var edges: [String] = []
            for index in ring.indices.dropLast() where isNear(point, ring[index], ring[index + 1]) {
                edges.append("\(index)-\(index + 1)")
            }
            // An open ring's closing edge.
            if let first = ring.first, let last = ring.last, first != last, isNear(point, last, first) {
                edges.append("\(ring.count - 1)-0")
            }
            guard !edges.isEmpty else { continue }
            let listed =
                edges.count == 1
                ? "edge \(edges[0])"
                : "edges " + edges.dropLast().joined(separator: ", ") + " and " + (edges.last ?? "")
            let name = ringIndex == 0 ? "the outer ring (ring 0)" : "hole \(ringIndex) (ring \(ringIndex))"
            parts.append("\(listed) of \(name)")
        }
        return parts.isEmpty ? nil : parts.joined(separator: ", and ")
    }

    /// Whether `point` lies on the segment from `a` to `b`, to within rounding of the
    /// intersection GEOS computed.
    private static func isNear(_ point: Coordinate, _ a: Coordinate, _ b: Coordinate) -> Bool {
        let (px, py) = (point.longitude, point.latitude)
        let (ax, ay, bx, by) = (a.longitude, a.latitude, b.longitude, b.latitude)
        let (dx, dy) = (bx - ax, by - ay)
        let lengthSquared = dx * dx + dy * dy
        let scale = max(abs(ax), abs(ay), abs(bx), abs(by), abs(px), abs(py), 1)
        let tolerance = 1e-9 * scale
        guard lengthSquared > 0 else { return abs(px - ax) <= tolerance && abs(py - ay) <= tolerance }
        let share = min(1, max(0, ((px - ax) * dx + (py - ay) * dy) / lengthSquared))
        let (cx, cy) = (ax + share * dx - px, ay + share * dy - py)
        return (cx * cx + cy * cy).squareRoot() <= tolerance
    }
}
