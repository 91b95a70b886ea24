import ConfigJSON
import Engine
import Foundation
import Geometry
import TestSupport
import Testing
import Traces

@Suite("Geofence files")
struct GeofenceLoaderTests {
    private func load(_ text: String, file: String = "fences.geojson") throws(ConfigError) -> [Geofence] {
        try GeofenceLoader.load(Array(text.utf8), file: file)
    }

    /// The error's rendered message, for asserting what the user reads.
    private func message(_ text: String) -> String {
        do {
            _ = try load(text)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test("GeoJSON FeatureCollection: a point with a radius, a polygon with a hole, ids and dwell")
    func geoJSON() throws {
        let fences = try load(
            """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "id": 17, "geometry": {"type": "Point", "coordinates": [-122.42, 37.77, 12]},
               "properties": {"radius": 150, "notifyOnDwell": true, "loiteringDelay": 60, "colour": "red"}},
              {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [
                 [[-122.0, 37.0], [-121.9, 37.0], [-121.9, 37.1], [-122.0, 37.1], [-122.0, 37.0]],
                 [[-121.96, 37.04], [-121.94, 37.04], [-121.94, 37.06], [-121.96, 37.04]]]},
               "properties": {"identifier": "depot"}}
            ]}
            """)
        #expect(fences.map(\.identifier) == ["17", "depot"])
        #expect(fences[0].shape == .circle(center: Coordinate(latitude: 37.77, longitude: -122.42), radiusMeters: 150))
        #expect(fences[0].notifyOnDwell && fences[0].loiteringDelaySeconds == 60)
        guard case .polygon(let polygon) = fences[1].shape else {
            Issue.record("expected a polygon")
            return
        }
        #expect(polygon.exterior.count == 5 && polygon.holes.count == 1)
        #expect(polygon.exterior[1] == Coordinate(latitude: 37.0, longitude: -121.9), "RFC 7946 order is [lon, lat]")
    }

    @Test("a single Feature and TraceSim's own format read the same fences")
    func singleFeatureAndTraceSimJSON() throws {
        let feature = try load(
            """
            {"type": "Feature", "properties": {"identifier": "home", "radius": 200},
             "geometry": {"type": "Point", "coordinates": [-122.42, 37.77]}}
            """)
        let own = try load(
            """
            {"geofences": [{"identifier": "home", "latitude": 37.77, "longitude": -122.42, "radius": 200}]}
            """, file: "fences.json")
        #expect(feature == own)
    }

    @Test(
        "bad input names the file, line, column and JSON path",
        arguments: [
            ("", "fences.geojson"),
            ("{\"type\": \"FeatureCollection\", \"features\": [", "fences.geojson:1"),
            ("[1, 2]", "expected an object"),
            ("{\"hello\": 1}", "neither GeoJSON"),
            ("{\"type\": \"Topology\"}", "'Topology' is not a FeatureCollection or Feature"),
            (
                "{\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [0, 0]}, \"properties\": {\"radius\": 5}}",
                "needs an 'id' or 'properties.identifier'"
            ),
            (
                "{\"type\": \"Feature\", \"id\": \"a\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [0, 0]}}",
                "needs 'radius'"
            ),
            (
                "{\"type\": \"Feature\", \"id\": \"a\", \"properties\": {\"radius\": -5}, \"geometry\": {\"type\": \"Point\", \"coordinates\": [0, 0]}}",
                "$.properties.radius"
            ),
            (
                "{\"type\": \"Feature\", \"id\": \"a\", \"properties\": {\"radius\": 5}, \"geometry\": {\"type\": \"Point\", \"coordinates\": [0, 91]}}",
                "$.geometry.coordinates[1]"
            ),
            (
                "{\"type\": \"Feature\", \"id\": \"a\", \"geometry\": {\"type\": \"LineString\", \"coordinates\": [[0, 0], [1, 1]]}}",
                "'LineString' is not supported"
            ),
            (
                "{\"type\": \"Feature\", \"id\": \"a\", \"geometry\": {\"type\": \"Polygon\", \"coordinates\": [[[0, 0], [1, 0], [1, 1]]]}}",
                "linear ring needs 4 or more positions"
            ),
            (
                "{\"geofences\": [{\"identifier\": \"a\", \"latitude\": 1, \"longitude\": 1, \"radius\": 5, \"radios\": 5}]}",
                "$.geofences[0].radios: unknown key"
            ),
            (
                "{\"geofences\": [{\"identifier\": \"a\", \"latitude\": 1, \"longitude\": 1, \"radius\": 5}, {\"identifier\": \"a\", \"latitude\": 2, \"longitude\": 2, \"radius\": 5}]}",
                "'a' appears twice"
            ),
            ("\u{00}\u{01}\u{02}binary", "fences.geojson"),
            (String(repeating: "[", count: 10_000), "fences.geojson"),
        ])
    func badInput(text: String, expected: String) {
        let rendered = message(text)
        #expect(rendered != "no error")
        #expect(rendered.contains(expected), "\(rendered)")
        #expect(rendered.contains("fences.geojson"), "\(rendered)")
    }

    @Test("the error for a duplicate points at the second fence's line")
    func duplicateLine() {
        let rendered = message(
            """
            {"geofences": [
              {"identifier": "a", "latitude": 1, "longitude": 1, "radius": 5},
              {"identifier": "a", "latitude": 2, "longitude": 2, "radius": 5}
            ]}
            """)
        #expect(rendered.contains("fences.geojson:3"), "\(rendered)")
    }

    @Test("a GEOS-invalid polygon is refused by the loader at its line and column, naming the edges that cross")
    func invalidPolygonReachesGEOS() throws {
        let rendered = message(
            """
            {"type": "Feature", "id": "bowtie", "geometry": {"type": "Polygon",
             "coordinates": [[[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]]}}
            """)
        #expect(
            rendered
                == "fences.geojson:2:17: $.geometry.coordinates: geofence 'bowtie': invalid polygon: self-intersection on edges 0-1 and 2-3 of the outer ring (ring 0)"
        )
    }
}

/// The example the README points to must keep loading.
@Test("the documented example fence file loads and validates")
func documentedExample() throws {
    let path = Repository.path("Documentation/Examples/fences.geojson")
    let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
    let fences = try GeofenceLoader.load(bytes, file: "fences.geojson")
    #expect(fences.map(\.identifier) == ["customer-17", "depot"])
    let engine = try TrackingEngine(fences: fences, context: GEOSContext())
    #expect(engine.registeredGeofenceIdentifiers.isEmpty, "nothing is registered before the first fix")
}
