import Geometry
import SimulationCore

/// Seeded geofences and a trace-like walk through them, shared with the Python peers as
/// GeoJSON and raw little-endian doubles so both sides test exactly the same coordinates.
public struct FenceWorkload: Sendable {
    /// The polygons, identifiers `p0`, `p1`, ...
    public var fences: [Geofence]
    /// The points, in the order a drive visits them.
    public var points: [Coordinate]

    /// Star-shaped polygons with 8 to 24 vertices and 100 to 400 m across, scattered over a
    /// square that grows with their number so the share of points inside stays comparable;
    /// then a walk of 15 m steps that turns gently and bounces off the square's edges.
    public init(polygons: Int, points pointCount: Int, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        // 10,000 polygons cover a 0.18° (about 20 km) square, as in a city-wide deployment.
        let side = 0.18 * (Double(polygons) / 10_000).squareRoot()
        let south = 37.3
        let west = -122.2
        fences = (0..<polygons).map { index in
            let center = Coordinate(
                latitude: random.uniform(south...(south + side)), longitude: random.uniform(west...(west + side)))
            let vertices = 8 + index % 17
            var ring: [Coordinate] = []
            for step in 0..<vertices {
                let angle = Double(step) / Double(vertices) * 2 * Double.pi
                let radius = random.uniform(0.0005...0.002)
                ring.append(
                    Coordinate(
                        latitude: center.latitude + radius * sin(angle),
                        longitude: center.longitude + radius * cos(angle)))
            }
            ring.append(ring[0])
            return Geofence(identifier: "p\(index)", shape: .polygon(PolygonShape(exterior: ring)))
        }
        var latitude = south + side / 2
        var longitude = west + side / 2
        var heading = random.uniform(0...(2 * Double.pi))
        let step = 15.0 / 111_195
        var walk: [Coordinate] = []
        walk.reserveCapacity(pointCount)
        for _ in 0..<pointCount {
            heading += random.uniform(-0.15...0.15)
            latitude += step * cos(heading)
            longitude += step * sin(heading) * 1.26
            if latitude < south || latitude > south + side || longitude < west || longitude > west + side {
                heading += Double.pi
                latitude = min(max(latitude, south), south + side)
                longitude = min(max(longitude, west), west + side)
            }
            walk.append(Coordinate(latitude: latitude, longitude: longitude))
        }
        points = walk
    }

    /// The polygons as a GeoJSON FeatureCollection, coordinates in shortest round-trip form.
    public var geoJSON: String {
        var text = "{\"type\":\"FeatureCollection\",\"features\":[\n"
        for (index, fence) in fences.enumerated() {
            guard case .polygon(let shape) = fence.shape else { continue }
            let ring = shape.exterior.map { "[\($0.longitude),\($0.latitude)]" }.joined(separator: ",")
            text += index == 0 ? "" : ",\n"
            text += "{\"type\":\"Feature\",\"id\":\"\(fence.identifier)\",\"properties\":{},"
            text += "\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[\(ring)]]}}"
        }
        return text + "\n]}\n"
    }

    /// The points as little-endian float64 pairs, longitude first (NumPy's `fromfile`).
    public var pointBytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(points.count * 16)
        for point in points {
            for value in [point.longitude, point.latitude] {
                withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
            }
        }
        return bytes
    }
}

/// What both sides report for a geofence run: how many (point, fence) pairs are inside, and
/// a checksum of which ones, so a fast wrong answer cannot pass.
public struct ContainmentAnswer: Sendable, Equatable, Codable {
    /// Inside pairs.
    public var hits: Int
    /// The sum over inside pairs of (point index + 1) × (fence index + 1).
    public var checksum: Int

    /// No pairs yet.
    public init(hits: Int = 0, checksum: Int = 0) {
        self.hits = hits
        self.checksum = checksum
    }

    /// Adds the pair (`point`, `fence`).
    @inlinable
    public mutating func add(point: Int, fence: Int) {
        hits += 1
        checksum &+= (point + 1) * (fence + 1)
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
