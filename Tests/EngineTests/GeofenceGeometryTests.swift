import Foundation
import Geometry
import SimulationCore
import Testing

/// The pure-Swift geofence index must answer exactly as GEOS's prepared `contains`.
@Suite("Geofence geometry against GEOS")
struct GeofenceGeometryTests {
    /// A star-shaped polygon around `center` with `vertices` points and an optional square hole.
    private func star(_ random: inout SplitMix64, center: Coordinate, vertices: Int, hole: Bool) -> PolygonShape {
        var ring: [Coordinate] = []
        for step in 0..<vertices {
            let angle = Double(step) / Double(vertices) * 2 * .pi
            let radius = random.uniform(0.004...0.01)
            ring.append(Coordinate(latitude: center.latitude + radius * sin(angle), longitude: center.longitude + radius * cos(angle)))
        }
        ring.append(ring[0])
        guard hole else { return PolygonShape(exterior: ring) }
        let h = 0.0015
        let square = [(-h, -h), (h, -h), (h, h), (-h, h), (-h, -h)].map {
            Coordinate(latitude: center.latitude + $0.1, longitude: center.longitude + $0.0)
        }
        return PolygonShape(exterior: ring, holes: [square])
    }

    /// Points on, just inside and just outside edges and vertices, plus random ones nearby.
    private func probes(_ shape: PolygonShape, _ random: inout SplitMix64) -> [Coordinate] {
        var points: [Coordinate] = []
        for ring in [shape.exterior] + shape.holes {
            for (a, b) in zip(ring, ring.dropFirst()) {
                points.append(a)
                for t in [0.0, 0.5, random.uniform(0...1)] {
                    let x = a.longitude + (b.longitude - a.longitude) * t
                    let y = a.latitude + (b.latitude - a.latitude) * t
                    for nudge in [0.0, 1e-12, -1e-12, 1e-9, -1e-9, 1e-6, -1e-6] {
                        points.append(Coordinate(latitude: y + nudge, longitude: x))
                        points.append(Coordinate(latitude: y, longitude: x + nudge))
                    }
                }
            }
        }
        let minX = shape.exterior.map(\.longitude).min()!
        let maxX = shape.exterior.map(\.longitude).max()!
        let minY = shape.exterior.map(\.latitude).min()!
        let maxY = shape.exterior.map(\.latitude).max()!
        for _ in 0..<200 {
            points.append(Coordinate(latitude: random.uniform(minY...maxY), longitude: random.uniform(minX...maxX)))
        }
        return points
    }

    @Test("the index equals GEOS prepared contains near edges, holes and vertices")
    func propertyAgainstGEOS() throws {
        let context = GEOSContext()
        var random = SplitMix64(seed: 42)
        var fences: [Geofence] = []
        for index in 0..<40 {
            let center = Coordinate(
                latitude: 37.4 + Double(index % 8) * 0.015, longitude: -122.1 + Double(index / 8) * 0.015)
            let shape = star(&random, center: center, vertices: 5 + index % 9, hole: index % 2 == 0)
            fences.append(Geofence(identifier: "p\(index)", shape: .polygon(shape)))
        }
        // Axis-aligned edges and vertices shared by neighbours are the classic crossing-test traps.
        let box = PolygonShape(exterior: [
            Coordinate(latitude: 37.3, longitude: -122.2), Coordinate(latitude: 37.3, longitude: -122.19),
            Coordinate(latitude: 37.31, longitude: -122.19), Coordinate(latitude: 37.31, longitude: -122.2),
            Coordinate(latitude: 37.3, longitude: -122.2),
        ])
        fences.append(Geofence(identifier: "box", shape: .polygon(box)))
        let index = try GeofenceIndex(fences, context: context)
        var compared = 0
        var insideCount = 0
        for (position, fence) in fences.enumerated() {
            guard case .polygon(let shape) = fence.shape else { continue }
            let reference = try PreparedPolygon(shape, name: fence.identifier, context: context)
            for point in probes(shape, &random) {
                let expected = try reference.contains(point)
                let actual = try index.contains(position, point)
                if expected != actual {
                    Issue.record("\(fence.identifier) at \(point.latitude), \(point.longitude): GEOS \(expected), index \(actual)")
                }
                let viaGrid = try index.fencesContaining(point).contains(position)
                if viaGrid != expected { Issue.record("\(fence.identifier): grid lookup disagrees at \(point)") }
                compared += 1
                if expected { insideCount += 1 }
            }
        }
        #expect(compared > 20_000)
        // Both answers occur often, so the comparison is not one-sided.
        #expect(insideCount > compared / 5 && insideCount < compared * 4 / 5, "\(insideCount) of \(compared) inside")
        // The cells' own edges decide most grid lookups, so the comparison tests that path.
        #expect(index.cellDecisions > compared / 4, "\(index.cellDecisions) cell decisions")
        #expect(index.cellFallbacks < index.cellDecisions, "\(index.cellFallbacks) cell fallbacks")
        // The fast path decides most points; GEOS only breaks near-edge ties.
        #expect(index.geosFallbacks > 0 && index.geosFallbacks < compared / 2, "\(index.geosFallbacks) fallbacks")
    }

    @Test("on generated fence sets, every grid answer equals GEOS, or the haversine for circles")
    func generatedFenceSets() throws {
        // A few sets by default, many more with TRACESIM_LONG_TESTS=1.
        let isLong = ProcessInfo.processInfo.environment["TRACESIM_LONG_TESTS"] != nil
        for seed in 0..<UInt64(isLong ? 60 : 5) {
            var random = SplitMix64(seed: 1_000 + seed)
            let context = GEOSContext()
            let origin = Coordinate(latitude: random.uniform(-60...60), longitude: random.uniform(-170...170))
            var fences: [Geofence] = []
            for index in 0..<Int(random.uniform(5...40)) {
                // Close enough to overlap, so cells hold several fences.
                let center = Coordinate(
                    latitude: origin.latitude + random.uniform(-0.03...0.03),
                    longitude: origin.longitude + random.uniform(-0.03...0.03))
                if random.next() % 4 == 0 {
                    fences.append(
                        Geofence(identifier: "c\(index)", shape: .circle(center: center, radiusMeters: random.uniform(20...2_000))))
                } else {
                    let vertices = Int(random.uniform(3...30))
                    let shape = star(&random, center: center, vertices: vertices, hole: random.next() % 3 == 0)
                    fences.append(Geofence(identifier: "p\(index)", shape: .polygon(shape)))
                }
            }
            let index = try GeofenceIndex(fences, context: context)
            for (position, fence) in fences.enumerated() {
                let points: [Coordinate]
                let expected: (Coordinate) throws -> Bool
                switch fence.shape {
                case .polygon(let shape):
                    let reference = try PreparedPolygon(shape, name: fence.identifier, context: context)
                    points = probes(shape, &random)
                    expected = { try reference.contains($0) }
                case .circle(let center, let radius):
                    points = (0..<60).map { step in
                        Geodesy.destination(
                            from: center, bearingDegrees: Double(step) * 6,
                            distanceMeters: radius * (1 + [-1e-9, 0, 1e-9, -1e-3, 1e-3][step % 5]))
                    }
                    expected = { Geodesy.distanceMeters(center, $0) <= radius }
                }
                for point in points {
                    let found = try index.fencesContaining(point).contains(position)
                    if try found != expected(point) {
                        Issue.record("seed \(seed), \(fence.identifier) at \(point.latitude), \(point.longitude)")
                    }
                }
            }
        }
    }

    @Test("a self-intersecting polygon is an error naming the fence")
    func invalidPolygonNamesFence() {
        let bowtie = PolygonShape(exterior: [
            Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 1, longitude: 1),
            Coordinate(latitude: 0, longitude: 1), Coordinate(latitude: 1, longitude: 0),
            Coordinate(latitude: 0, longitude: 0),
        ])
        #expect {
            _ = try GeofenceIndex([Geofence(identifier: "depot-7", shape: .polygon(bowtie))], context: GEOSContext())
        } throws: { error in
            guard case GeometryError.invalidPolygon(let name, let reason) = error else { return false }
            return name == "depot-7" && reason.lowercased().contains("self")
                && "\(error)".hasPrefix("geofence 'depot-7': invalid polygon")
        }
    }

    @Test("a polygon's minimum bounding circle covers every vertex, and barely")
    func boundingCircle() throws {
        let square = PolygonShape(exterior: [
            Coordinate(latitude: 37.0, longitude: -122.0), Coordinate(latitude: 37.0, longitude: -121.99),
            Coordinate(latitude: 37.01, longitude: -121.99), Coordinate(latitude: 37.01, longitude: -122.0),
            Coordinate(latitude: 37.0, longitude: -122.0),
        ])
        let circle = try PreparedPolygon(square, name: "sq", context: GEOSContext()).minimumBoundingCircle()
        let farthest = square.exterior.map { Geodesy.distanceMeters(circle.center, $0) }.max()!
        #expect(circle.radiusMeters >= farthest - 0.5)
        #expect(circle.radiusMeters < farthest * 1.01, "\(circle.radiusMeters) m vs \(farthest) m")
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
