import Engine
import Geometry
import SimulationCore
import Testing
import Traces

/// Closes a mutation-testing gap: no odometer step reached the great-circle fallback for steps
/// of 5 km or more, so dropping it went unnoticed.
@Suite("Odometer great-circle fallback")
struct OdometerFallbackTests {
    private func fix(_ seconds: Int64, latitude: Double, longitude: Double) -> Fix {
        Fix(
            timestamp: SimInstant(nanosecondsSinceEpoch: seconds * 1_000_000_000), latitude: latitude,
            longitude: longitude, horizontalAccuracy: .meters(5), provider: .gps)
    }

    @Test("a step across ±180° counts its great-circle length, not the flat one around the world")
    func antimeridianStep() {
        var odometer = Odometer()
        odometer.add(fix(0, latitude: 0, longitude: 179.99), accuracyMeters: 5)
        odometer.add(fix(1, latitude: 0, longitude: -179.99), accuracyMeters: 5)
        let expected = Geodesy.distanceMeters(
            Coordinate(latitude: 0, longitude: 179.99), Coordinate(latitude: 0, longitude: -179.99))
        #expect(abs(expected - 2224) < 1, "\(expected)")
        #expect(abs(odometer.meters - expected) < 1e-6, "\(odometer.meters) m")
    }

    @Test("a step of 5 km or more at high latitude is the great-circle distance exactly")
    func longStep() {
        let start = Coordinate(latitude: 69, longitude: 20)
        let end = Geodesy.destination(from: start, bearingDegrees: 60, distanceMeters: 80_000)
        var odometer = Odometer()
        odometer.add(fix(0, latitude: start.latitude, longitude: start.longitude), accuracyMeters: 5)
        odometer.add(fix(1, latitude: end.latitude, longitude: end.longitude), accuracyMeters: 5)
        let flat = LocalDistance.meters(start, end)
        let exact = Geodesy.distanceMeters(start, end)
        // The flat figure is measurably off here, so the test tells the two apart.
        #expect(abs(flat - exact) > 1)
        #expect(odometer.meters == exact)
    }
}
