import Device
import Foundation
import Geometry
import SimulationCore
import Testing

/// `DistanceCheck` stands in front of `DistanceComparison` on the per-fix path: it must give
/// the exact rule's answer for every pair and threshold, including those within rounding of
/// the rule's own 99 % and 101 % bands, where it has to defer.
@Suite("DistanceCheck answers as DistanceComparison does")
struct DistanceCheckTests {
    /// Pairs from metres to beyond the flat rule's reach, at latitudes up to and past 70°.
    static func pairs(count: Int, seed: UInt64) -> [(Coordinate, Coordinate)] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { index in
            let latitude = random.uniform(-85...85)
            let from = Coordinate(latitude: latitude, longitude: random.uniform(-180...180))
            // A step of up to 10^-5 to 10^-0.5 degrees, so distances run from centimetres to tens of km.
            let scale = pow(10.0, -Double(index % 5) - 0.5)
            let to = Coordinate(
                latitude: max(-90, min(90, from.latitude + random.uniform(-1...1) * scale)),
                longitude: from.longitude + random.uniform(-1...1) * scale)
            return (from, to)
        }
    }

    @Test("isAtMost and isAtLeast agree with the exact rule, thresholds on and around the distance")
    func agreesWithDistanceComparison() {
        var unsettled = 0
        for (from, to) in Self.pairs(count: 20_000, seed: 19) {
            let distance = Geodesy.distanceMeters(from, to)
            // Thresholds at the rule's band edges (where rounding decides) and well away.
            let thresholds = [distance / 0.99, distance / 1.01, distance, distance * 0.5, distance * 2, 100, 500]
            for meters in thresholds {
                let exact = DistanceComparison(from, to)
                let check = DistanceCheck(from, to)
                #expect(check.isAtMost(meters) == exact.isAtMost(meters))
                #expect(check.isAtLeast(meters) == exact.isAtLeast(meters))
                if DistanceCheck.isFlatDistance(from, to, below: meters) == nil { unsettled += 1 }
            }
        }
        // Most answers come from the estimate: the thresholds at the distance itself and the
        // latitudes past 70° are all that it leaves to the exact rule.
        #expect(unsettled < 20_000 * 7 / 2)
    }

    @Test("the flat-distance answer, when given, is the exact flat distance's")
    func flatDistanceAnswerIsExact() {
        for (from, to) in Self.pairs(count: 20_000, seed: 7) {
            let radians = Double.pi / 180
            let x = (to.longitude - from.longitude) * radians * cos((from.latitude + to.latitude) / 2 * radians)
            let y = (to.latitude - from.latitude) * radians
            let flat = Geodesy.earthRadiusMeters * (x * x + y * y).squareRoot()
            for meters in [flat, flat * (1 + 1e-7), flat * (1 - 1e-7), flat * 1.5, flat / 1.5] {
                if let below = DistanceCheck.isFlatDistance(from, to, below: meters) {
                    #expect(below == (flat < meters))
                }
            }
            // At the distance itself the estimate cannot tell, so it must not answer.
            #expect(DistanceCheck.isFlatDistance(from, to, below: flat) == nil)
        }
    }
}
