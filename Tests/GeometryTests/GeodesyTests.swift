import Geometry
import Testing

@Suite("Geodesy")
struct GeodesyTests {
    @Test("one degree of latitude is about 111.2 km; a point is 0 m from itself")
    func distances() {
        let origin = Coordinate(latitude: 37.0, longitude: -122.0)
        #expect(abs(Geodesy.distanceMeters(origin, Coordinate(latitude: 38.0, longitude: -122.0)) - 111_195) < 1)
        #expect(Geodesy.distanceMeters(origin, origin) == 0)
        // Across the antimeridian the short way round.
        let east = Coordinate(latitude: 0, longitude: 179.999)
        let west = Coordinate(latitude: 0, longitude: -179.999)
        #expect(Geodesy.distanceMeters(east, west) < 250)
    }

    @Test("destination then distance returns the distance travelled", arguments: [0.0, 45, 90, 180, 270, 359])
    func destination(bearing: Double) {
        let origin = Coordinate(latitude: 46.84, longitude: 29.46)
        let target = Geodesy.destination(from: origin, bearingDegrees: bearing, distanceMeters: 12_345)
        #expect(abs(Geodesy.distanceMeters(origin, target) - 12_345) < 0.01)
    }
}
