import Foundation
import TestSupport
import Testing

/// `track --fences` with fences across the antimeridian and polygons GEOS finds invalid.
@Suite("tracesim track: fences across ±180° and invalid polygons")
struct GeofenceGeometryCommandTests {
    /// A folder of its own per test, removed afterwards.
    private final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tracesim-geometry-\(UUID().uuidString)")

        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }

        deinit { try? FileManager.default.removeItem(at: url) }

        func write(_ name: String, _ text: String) throws -> String {
            let file = url.appendingPathComponent(name)
            try Data(text.utf8).write(to: file)
            return file.path
        }
    }

    /// Three fixes a second apart at latitude 0.5 and `longitude`.
    private func trace(_ folder: Folder, longitude: Double) throws -> String {
        let points = (0..<3).map { second in
            "<trkpt lat=\"0.5\" lon=\"\(longitude)\"><time>2024-01-01T00:00:0\(second)Z</time></trkpt>"
        }
        return try folder.write(
            "trace.gpx",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
            <trk><trkseg>\(points.joined())</trkseg></trk></gpx>
            """)
    }

    private static let dateline = """
        {"type": "Feature", "id": "dateline", "geometry": {"type": "Polygon",
         "coordinates": [[[179.9, -1], [-179.9, -1], [-179.9, 1], [179.9, 1], [179.9, -1]]]}}
        """

    private func geofences(_ output: String) -> [[String: Any]]? {
        let object = (try? JSONSerialization.jsonObject(with: Data(output.utf8))) as? [String: Any]
        return object?["geofences"] as? [[String: Any]]
    }

    private func firstLine(_ text: String) -> String {
        String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
    }

    @Test("a polygon across ±180° is not entered from longitude 0")
    func polygonFarAway() throws {
        let folder = try Folder()
        let fences = try folder.write("fences.geojson", Self.dateline)
        let result = runCommand(["track", try trace(folder, longitude: 0), "--fences", fences, "--format", "json"])
        #expect(result.exitCode == 0)
        #expect(firstLine(result.error) == "")
        #expect(geofences(result.output)?.isEmpty == true, "\(result.output)")
    }

    @Test("a polygon across ±180° is entered just across the line")
    func polygonJustAcross() throws {
        let folder = try Folder()
        let fences = try folder.write("fences.geojson", Self.dateline)
        let result = runCommand([
            "track", try trace(folder, longitude: -179.95), "--fences", fences, "--format", "json",
        ])
        #expect(result.exitCode == 0)
        #expect(firstLine(result.error) == "")
        let events = geofences(result.output)
        #expect(events?.map { $0["identifier"] as? String } == ["dateline"])
        #expect(events?.map { $0["action"] as? String } == ["enter"])
    }

    @Test("a circle centred just west of 180° is entered from just east of it")
    func circleJustAcross() throws {
        let folder = try Folder()
        let fences = try folder.write(
            "fences.json",
            #"{"geofences": [{"identifier": "pier", "latitude": 0.5, "longitude": -179.9998, "radius": 100}]}"#)
        let result = runCommand(["track", try trace(folder, longitude: 179.9998), "--fences", fences, "--format", "json"])
        #expect(result.exitCode == 0)
        #expect(firstLine(result.error) == "")
        #expect(geofences(result.output)?.map { $0["action"] as? String } == ["enter"])
    }

    @Test("a self-intersecting polygon is refused at its line and column, naming the crossing edges, not coordinates")
    func selfIntersecting() throws {
        let folder = try Folder()
        let fences = try folder.write(
            "fences.geojson",
            """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "id": "bowtie", "geometry": {"type": "Polygon",
               "coordinates": [[[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]]}}
            ]}
            """)
        let result = runCommand(["track", try trace(folder, longitude: 0), "--fences", fences])
        #expect(result.exitCode == 65)
        #expect(
            firstLine(result.error)
                == "error: \(fences):3:19: $.features[0].geometry.coordinates: geofence 'bowtie': invalid polygon: "
                + "self-intersection on edges 0-1 and 2-3 of the outer ring (ring 0)")
        #expect(!result.error.contains("0.5"), "no coordinates quoted")
    }

    @Test("a ring around a pole is refused at its line and column")
    func aroundPole() throws {
        let folder = try Folder()
        let fences = try folder.write(
            "fences.geojson",
            """
            {"type": "Feature", "id": "cap", "geometry": {"type": "Polygon",
             "coordinates": [[[0, 85], [90, 85], [180, 85], [-90, 85], [0, 85]]]}}
            """)
        let result = runCommand(["track", try trace(folder, longitude: 0), "--fences", fences])
        #expect(result.exitCode == 65)
        #expect(
            firstLine(result.error)
                == "error: \(fences):2:17: $.geometry.coordinates: geofence 'cap': invalid polygon: the outer ring (ring 0) goes "
                + "around a pole; cut it at ±180° into rings that do not, or use a circle")
    }
}
