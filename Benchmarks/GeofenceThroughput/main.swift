// Rough point-in-geofence throughput: 10,000 polygons over a city, random points, one core.
// The peer in the same run is GEOS prepared `contains` behind the same bounding-box test,
// which is what a straightforward GEOS integration would do.
//
//     swift run -c release geofence-throughput [points]
import Dispatch
import Geometry
import SimulationCore

let polygonCount = 10_000
let pointCount = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 2_000_000
var random = SplitMix64(seed: 2026)
let context = GEOSContext()

// Star-shaped polygons with 8 to 24 vertices, 100 to 400 m across, in a 20 km square.
var fences: [Geofence] = []
for index in 0..<polygonCount {
    let center = Coordinate(latitude: random.uniform(37.3...37.48), longitude: random.uniform((-122.2)...(-121.97)))
    let vertices = 8 + index % 17
    var ring: [Coordinate] = []
    for step in 0..<vertices {
        let angle = Double(step) / Double(vertices) * 2 * Double.pi
        let radius = random.uniform(0.0005...0.002)
        ring.append(
            Coordinate(
                latitude: center.latitude + radius * sin(angle), longitude: center.longitude + radius * cos(angle)))
    }
    ring.append(ring[0])
    fences.append(Geofence(identifier: "p\(index)", shape: .polygon(PolygonShape(exterior: ring))))
}
let points = (0..<pointCount).map { _ in
    Coordinate(latitude: random.uniform(37.3...37.48), longitude: random.uniform((-122.2)...(-121.97)))
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

do {
    var built: GeofenceIndex?
    let buildSeconds = try seconds { built = try GeofenceIndex(fences, context: context) }
    guard let index = built else { fatalError("the index was not built") }
    var hits = 0
    let swiftSeconds = try seconds {
        for point in points { try index.forEachFence(containing: point) { _ in hits += 1 } }
    }
    // The same points in rows of about 55 m, as a trace visits them: consecutive queries share
    // cells, so the index stays in cache. Random order measures memory latency as much as geometry.
    let ordered = points.sorted {
        let (rowA, rowB) = (($0.latitude * 2000).rounded(.down), ($1.latitude * 2000).rounded(.down))
        return rowA == rowB ? $0.longitude < $1.longitude : rowA < rowB
    }
    var orderedHits = 0
    let orderedSeconds = try seconds {
        for point in ordered { try index.forEachFence(containing: point) { _ in orderedHits += 1 } }
    }
    // The peer: every fence's box, then GEOS prepared contains.
    let prepared = try fences.map { fence throws(GeometryError) -> PreparedPolygon in
        guard case .polygon(let shape) = fence.shape else { fatalError("polygons only") }
        return try PreparedPolygon(shape, name: fence.identifier, context: context)
    }
    let peerPoints = min(points.count, 20_000)
    var peerHits = 0
    let peerSeconds = try seconds {
        for point in points.prefix(peerPoints) {
            for polygon in prepared {
                let box = polygon.bounds
                guard point.longitude >= box.minLongitude, point.longitude <= box.maxLongitude,
                    point.latitude >= box.minLatitude, point.latitude <= box.maxLatitude
                else { continue }
                if try polygon.contains(point) { peerHits += 1 }
            }
        }
    }
    let swiftRate = Double(points.count) / swiftSeconds
    let peerRate = Double(peerPoints) / peerSeconds
    print("polygons: \(polygonCount), points: \(points.count), hits: \(hits), GEOS fallbacks: \(index.geosFallbacks)")
    print("index build (validation, preparation, cell classification): \(Int(buildSeconds * 1000)) ms")
    print("GeofenceIndex, random order: \(Int(swiftRate)) points/s")
    print(
        "GeofenceIndex, trace-like order: \(Int(Double(ordered.count) / orderedSeconds)) points/s (hits \(orderedHits))"
    )
    print("peer (box scan + GEOS prepared contains, \(peerPoints) points): \(Int(peerRate)) points/s")
} catch {
    print("error: \(error)")
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
