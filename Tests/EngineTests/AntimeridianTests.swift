import Engine
import Foundation
import Geometry
import SimulationCore
import Testing
import Traces

/// Fences near ±180° and at the poles: the index must agree with the sphere (circles) and with
/// GEOS on the polygon read the short way across the antimeridian.
@Suite("Geofences across the antimeridian and at the poles")
struct AntimeridianTests {
    /// A 0.2° by 2° box from 179.9° east to 179.9° west, as a user writes it.
    static let dateline = """
        {"type": "Feature", "id": "dateline", "geometry": {"type": "Polygon",
         "coordinates": [[[179.9, -1], [-179.9, -1], [-179.9, 1], [179.9, 1], [179.9, -1]]]}}
        """

    private func load(_ text: String) throws -> [Geofence] {
        try GeofenceLoader.load(Array(text.utf8), file: "fences.geojson")
    }

    private func fix(_ seconds: Int64, _ latitude: Double, _ longitude: Double) -> Fix {
        Fix(
            timestamp: SimInstant(nanosecondsSinceEpoch: 1_700_000_000_000_000_000 + seconds * 1_000_000_000),
            latitude: latitude, longitude: longitude, horizontalAccuracy: .meters(5), provider: .gps)
    }

    @Test("a polygon across ±180° covers the thin strip there, not the world: a fix at longitude 0 is outside")
    func polygonAcrossAntimeridian() throws {
        let fences = try load(Self.dateline)
        let index = try GeofenceIndex(fences, context: GEOSContext())
        #expect(try index.fencesContaining(Coordinate(latitude: 0, longitude: 0)).isEmpty)
        #expect(try index.fencesContaining(Coordinate(latitude: 0.5, longitude: -100)).isEmpty)
        for longitude in [179.95, -179.95, 180, -180, 179.9001, -179.9001] {
            #expect(try index.fencesContaining(Coordinate(latitude: 0.5, longitude: longitude)) == [0], "\(longitude)")
        }
        for longitude in [179.85, -179.85] {
            #expect(try index.fencesContaining(Coordinate(latitude: 0.5, longitude: longitude)).isEmpty, "\(longitude)")
        }
        #expect(try index.fencesContaining(Coordinate(latitude: 1.5, longitude: 179.95)).isEmpty)
    }

    @Test("the index answers as GEOS on the same polygon drawn east of 180°, near every edge and across the line")
    func polygonAgainstShiftedGEOS() throws {
        let context = GEOSContext()
        let fences = try load(Self.dateline)
        let index = try GeofenceIndex(fences, context: context)
        // The same polygon written without the jump: GEOS reads it flat, as the reference.
        let shifted = PolygonShape(exterior: [
            Coordinate(latitude: -1, longitude: 179.9), Coordinate(latitude: -1, longitude: 180.1),
            Coordinate(latitude: 1, longitude: 180.1), Coordinate(latitude: 1, longitude: 179.9),
            Coordinate(latitude: -1, longitude: 179.9),
        ])
        let reference = try PreparedPolygon(shifted, name: "reference", context: context)
        var random = SplitMix64(seed: 180)
        var checked = 0
        for _ in 0..<3000 {
            let latitude = random.uniform(-1.2...1.2)
            var longitude = random.uniform(179.8...180.2)
            // Some probes exactly on the edges and on the antimeridian itself.
            let edge = random.uniform(0...1)
            if edge < 0.1 { longitude = edge < 0.033 ? 179.9 : edge < 0.066 ? 180.1 : 180 }
            let point = Coordinate(latitude: latitude, longitude: longitude > 180 ? longitude - 360 : longitude)
            let expected = try reference.contains(Coordinate(latitude: latitude, longitude: longitude))
            #expect(try index.fencesContaining(point) == (expected ? [0] : []), "\(latitude), \(longitude)")
            checked += 1
        }
        #expect(checked == 3000)
    }

    @Test("a prepared polygon across ±180° answers for points written on either side of the line")
    func preparedPolygonWraps() throws {
        let fences = try load(Self.dateline)
        guard case .polygon(let shape) = fences.first?.shape else {
            Issue.record("not a polygon")
            return
        }
        let polygon = try PreparedPolygon(shape, name: "dateline", context: GEOSContext())
        #expect(polygon.bounds.minLongitude == 179.9)
        #expect(abs(polygon.bounds.maxLongitude - 180.1) < 1e-9)
        #expect(try polygon.contains(Coordinate(latitude: 0, longitude: 179.95)))
        #expect(try polygon.contains(Coordinate(latitude: 0, longitude: -179.95)))
        #expect(try !polygon.contains(Coordinate(latitude: 0, longitude: 0)))
        #expect(try !polygon.contains(Coordinate(latitude: 0, longitude: -179.85)))
    }

    @Test("the engine's polygon fence across ±180°: no entry at longitude 0, entry just across the line")
    func managerAcrossAntimeridian() throws {
        let fences = try load(Self.dateline)
        let far = try GeofenceManager(fences: fences, context: GEOSContext())
        #expect(try far.fixDelivered(fix(0, 0, 0)).isEmpty)
        let near = try GeofenceManager(fences: fences, context: GEOSContext())
        #expect(try near.fixDelivered(fix(0, 0, -179.95)).map(\.action) == [.enter])
        // Its OS region is the small circle around the strip, centred on the antimeridian.
        let region = near.region(for: 0)
        #expect(abs(abs(region.center.longitude) - 180) < 1e-6)
        #expect(region.radiusMeters < 120_000)
    }

    @Test(
        "circles near ±180° and at the poles contain exactly the points within their radius on the sphere")
    func circlesAgainstTheSphere() throws {
        let circles: [(Coordinate, Double)] = [
            (Coordinate(latitude: 0, longitude: 179.9998), 100),
            (Coordinate(latitude: 0, longitude: -179.9998), 100),
            (Coordinate(latitude: 10, longitude: 180), 5000),
            (Coordinate(latitude: -45, longitude: -180), 20_000),
            (Coordinate(latitude: 89.9995, longitude: 0), 1000),
            (Coordinate(latitude: 90, longitude: 0), 500),
            (Coordinate(latitude: -89.99, longitude: 45), 2000),
            (Coordinate(latitude: 89, longitude: 100), 100_000),
            (Coordinate(latitude: 37.77, longitude: -122.42), 200),
        ]
        let fences = circles.enumerated().map { index, circle in
            Geofence(identifier: "c\(index)", shape: .circle(center: circle.0, radiusMeters: circle.1))
        }
        let index = try GeofenceIndex(fences, context: GEOSContext())
        var random = SplitMix64(seed: 7)
        var inside = 0
        for (center, radius) in circles {
            for _ in 0..<400 {
                let point = Geodesy.destination(
                    from: center, bearingDegrees: random.uniform(0...360),
                    distanceMeters: random.uniform(0...(radius * 1.5)))
                let expected = circles.indices.filter {
                    Geodesy.distanceMeters(circles[$0].0, point) <= circles[$0].1
                }
                inside += expected.count
                #expect(try index.fencesContaining(point) == expected, "\(point.latitude), \(point.longitude)")
            }
        }
        #expect(inside > 1000, "the probes reach inside the circles")
    }

    @Test("points a rounding error past a pole or ±180° are still decided by distance")
    func roundingPastTheEdges() throws {
        let circles: [(Coordinate, Double)] = [
            (Coordinate(latitude: 90, longitude: 0), 500), (Coordinate(latitude: -90, longitude: 180), 500),
            (Coordinate(latitude: 0, longitude: 180), 100), (Coordinate(latitude: 0, longitude: -180), 100),
        ]
        let fences = circles.enumerated().map { index, circle in
            Geofence(identifier: "c\(index)", shape: .circle(center: circle.0, radiusMeters: circle.1))
        }
        let index = try GeofenceIndex(fences, context: GEOSContext())
        for (center, _) in circles {
            for nudge in [0.0, 1e-9, -1e-9] {
                for point in [
                    Coordinate(latitude: center.latitude + nudge, longitude: center.longitude),
                    Coordinate(latitude: center.latitude, longitude: center.longitude + nudge),
                ] {
                    let expected = circles.indices.filter {
                        Geodesy.distanceMeters(circles[$0].0, point) <= circles[$0].1
                    }
                    #expect(try index.fencesContaining(point) == expected, "\(point.latitude), \(point.longitude)")
                }
            }
        }
    }

    @Test("a fix just across the line from a circle's centre enters it")
    func circleJustAcross() throws {
        let fence = Geofence(
            identifier: "pier", shape: .circle(center: Coordinate(latitude: 0, longitude: 179.9998), radiusMeters: 100))
        let manager = try GeofenceManager(fences: [fence], context: GEOSContext())
        #expect(try manager.fixDelivered(fix(0, 0, -179.9998)).map(\.action) == [.enter])
    }

    @Test(
        "a polar cap cut at ±180° as RFC 7946 advises covers every longitude near the pole",
        arguments: [-179.99, -90, 0, 90, 179.99])
    func polarCap(longitude: Double) throws {
        let fences = try load(
            """
            {"type": "Feature", "id": "cap", "geometry": {"type": "Polygon",
             "coordinates": [[[-180, 85], [180, 85], [180, 90], [-180, 90], [-180, 85]]]}}
            """)
        let index = try GeofenceIndex(fences, context: GEOSContext())
        #expect(try index.fencesContaining(Coordinate(latitude: 87, longitude: longitude)) == [0])
        #expect(try index.fencesContaining(Coordinate(latitude: 84, longitude: longitude)).isEmpty)
    }

    @Test("a ring that goes around a pole is refused at its line and column")
    func ringAroundPole() {
        do {
            _ = try load(
                """
                {"type": "Feature", "id": "cap", "geometry": {"type": "Polygon",
                 "coordinates": [[[0, 85], [90, 85], [180, 85], [-90, 85], [0, 85]]]}}
                """)
            Issue.record("a ring around the pole loaded")
        } catch {
            #expect(
                "\(error)"
                    == "fences.geojson:2:17: $.geometry.coordinates: geofence 'cap': invalid polygon: the outer ring (ring 0) goes around a pole; cut it at ±180° into rings that do not, or use a circle"
            )
        }
    }

    @Test("a hole across ±180° stays with its outer ring")
    func holeAcrossAntimeridian() throws {
        let fences = try load(
            """
            {"type": "Feature", "id": "ring", "geometry": {"type": "Polygon",
             "coordinates": [[[179, -1], [-179, -1], [-179, 1], [179, 1], [179, -1]],
                             [[-179.9, -0.5], [-179.9, 0.5], [179.9, 0.5], [179.9, -0.5], [-179.9, -0.5]]]}}
            """)
        let index = try GeofenceIndex(fences, context: GEOSContext())
        #expect(try index.fencesContaining(Coordinate(latitude: 0, longitude: 180)).isEmpty)
        #expect(try index.fencesContaining(Coordinate(latitude: 0, longitude: -179.95)).isEmpty)
        #expect(try index.fencesContaining(Coordinate(latitude: 0, longitude: -179.5)) == [0])
        #expect(try index.fencesContaining(Coordinate(latitude: 0.8, longitude: 179.95)) == [0])
        #expect(try index.fencesContaining(Coordinate(latitude: 0, longitude: 0)).isEmpty)
    }
}
