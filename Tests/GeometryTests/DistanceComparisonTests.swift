import Geometry
import SimulationCore
import Testing

@Suite("Distance comparisons")
struct DistanceComparisonTests {
    @Test("isAtMost and isAtLeast answer exactly as the haversine, at every latitude and distance")
    func randomPairs() {
        var random = SplitMix64(seed: 21)
        var wrong = 0
        for _ in 0..<200_000 {
            let from = Coordinate(latitude: random.uniform(-89.9...89.9), longitude: random.uniform(-180...180))
            let meters = [random.uniform(0...300), random.uniform(0...15_000), random.uniform(0...2_000_000)][
                Int(random.next() % 3)]
            let to = Geodesy.destination(from: from, bearingDegrees: random.uniform(0...360), distanceMeters: meters)
            let threshold = [20.0, 100, 200, 500, 5_000][Int(random.next() % 5)]
            let exact = Geodesy.distanceMeters(from, to)
            let comparison = DistanceComparison(from, to)
            if comparison.isAtMost(threshold) != (exact <= threshold) { wrong += 1 }
            if comparison.isAtLeast(threshold) != (exact >= threshold) { wrong += 1 }
        }
        #expect(wrong == 0)
    }

    @Test("within a hair of the threshold the haversine decides: equal counts as both at most and at least")
    func atTheThreshold() {
        var random = SplitMix64(seed: 22)
        for _ in 0..<20_000 {
            let from = Coordinate(latitude: random.uniform(-69...69), longitude: random.uniform(-179...179))
            let to = Geodesy.destination(
                from: from, bearingDegrees: random.uniform(0...360), distanceMeters: 500 * random.uniform(0.98...1.02))
            let exact = Geodesy.distanceMeters(from, to)
            #expect(DistanceComparison(from, to).isAtMost(500) == (exact <= 500))
            #expect(DistanceComparison(from, to).isAtLeast(500) == (exact >= 500))
            #expect(DistanceComparison(from, to).isAtMost(exact) && DistanceComparison(from, to).isAtLeast(exact))
        }
    }

    @Test("the antimeridian and the poles take the exact path")
    func edges() {
        let east = Coordinate(latitude: 10, longitude: 179.9999)
        let west = Coordinate(latitude: 10, longitude: -179.9999)
        #expect(DistanceComparison(east, west).isAtMost(30) && !DistanceComparison(east, west).isAtLeast(30))
        let nearPole = Coordinate(latitude: 89.99, longitude: 0)
        let acrossPole = Coordinate(latitude: 89.99, longitude: 180)
        let exact = Geodesy.distanceMeters(nearPole, acrossPole)
        #expect(DistanceComparison(nearPole, acrossPole).isAtMost(exact + 0.001))
        #expect(!DistanceComparison(nearPole, acrossPole).isAtMost(exact - 0.001))
    }
}
