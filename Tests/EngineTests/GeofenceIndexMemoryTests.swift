import Geometry
import SimulationCore
import Testing

/// Dense, overlapping fences must not blow the grid up: its entries stay within the documented
/// bound, and the answers stay those of the sphere.
@Suite("Geofence index memory bound")
struct GeofenceIndexMemoryTests {
    @Test("10,000 overlapping 50 m circles 1e-4° apart: entries within the bound, answers unchanged")
    func denseCircles() throws {
        var fences: [Geofence] = []
        var centers: [Coordinate] = []
        for row in 0..<100 {
            for column in 0..<100 {
                let center = Coordinate(latitude: 40.7767 + Double(row) * 1e-4, longitude: -73.9659 + Double(column) * 1e-4)
                centers.append(center)
                fences.append(Geofence(identifier: "c\(row)-\(column)", shape: .circle(center: center, radiusMeters: 50)))
            }
        }
        let index = try GeofenceIndex(fences, context: GEOSContext())
        // The finest grid would hold about 44 million entries (about 4,400 cells per fence).
        #expect(index.cellEntryCount <= GeofenceIndex.maximumCellEntries)
        #expect(index.cellEntryCount >= fences.count)
        var random = SplitMix64(seed: 3)
        for _ in 0..<50 {
            let point = Coordinate(
                latitude: random.uniform(40.7760...40.7873), longitude: random.uniform(-73.9666...(-73.9553)))
            let expected = centers.indices.filter { Geodesy.distanceMeters(centers[$0], point) <= 50 }
            #expect(try index.fencesContaining(point) == expected)
        }
    }
}
