import Engine
import Geometry
import SimulationCore
import Testing

@Suite("Implied speed shortcut")
struct ImpliedSpeedCheckTests {
    /// The rule the shortcut must reproduce exactly.
    private func haversineExceeds(_ from: Coordinate, _ to: Coordinate, _ seconds: Double, _ limit: Double) -> Bool {
        Geodesy.distanceMeters(from, to) / seconds > limit
    }

    @Test("agrees with the haversine on random steps at every latitude, short to very long")
    func randomSteps() {
        var random = SplitMix64(seed: 11)
        var check = ImpliedSpeedCheck()
        var disagreements = 0
        for _ in 0..<200_000 {
            let from = Coordinate(latitude: random.uniform(-89.9...89.9), longitude: random.uniform(-180...180))
            let meters = [random.uniform(0...200), random.uniform(0...20_000), random.uniform(0...3_000_000)][
                Int(random.next() % 3)]
            let to = Geodesy.destination(from: from, bearingDegrees: random.uniform(0...360), distanceMeters: meters)
            let seconds = random.uniform(0.5...30)
            let limit = 60.0
            if check.exceeds(from: from, to: to, seconds: seconds, limit: limit)
                != haversineExceeds(from, to, seconds, limit)
            {
                disagreements += 1
            }
        }
        #expect(disagreements == 0)
    }

    @Test("agrees within a hair of the limit, where the shortcut must fall back to the haversine")
    func nearTheLimit() {
        var random = SplitMix64(seed: 12)
        var check = ImpliedSpeedCheck()
        for _ in 0..<50_000 {
            let from = Coordinate(latitude: random.uniform(-75...75), longitude: random.uniform(-179...179))
            let seconds = random.uniform(1...5)
            let speed = 60 * random.uniform(0.985...1.015)
            let to = Geodesy.destination(
                from: from, bearingDegrees: random.uniform(0...360), distanceMeters: speed * seconds)
            #expect(
                check.exceeds(from: from, to: to, seconds: seconds, limit: 60)
                    == haversineExceeds(from, to, seconds, 60))
        }
    }

    @Test("a drive northwards refreshes the cached cosine and stays exact across the antimeridian")
    func driftAndAntimeridian() {
        var check = ImpliedSpeedCheck()
        var from = Coordinate(latitude: 30, longitude: 179.9995)
        for step in 0..<5_000 {
            let to = Geodesy.destination(from: from, bearingDegrees: 20, distanceMeters: 59.5 + Double(step % 3) * 0.5)
            #expect(check.exceeds(from: from, to: to, seconds: 1, limit: 60) == haversineExceeds(from, to, 1, 60))
            from = to
        }
    }
}
