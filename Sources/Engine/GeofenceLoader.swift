import ConfigJSON
import Geometry
import Traces

/// Reads geofences from GeoJSON (RFC 7946) or from TraceSim's own geofence JSON.
///
/// GeoJSON: a `FeatureCollection` (or one `Feature`) whose features carry an `id` or
/// `properties.identifier`; a `Point` needs `properties.radius` in metres; a `Polygon`'s first
/// ring is the outer boundary and the others are holes. `properties.notifyOnDwell` and
/// `properties.loiteringDelay` (seconds) are optional. Other properties and foreign members are
/// ignored, as RFC 7946 allows.
///
/// TraceSim JSON: `{"geofences": [{"identifier", "latitude", "longitude", "radius"}` or
/// `{"identifier", "polygon": [[[lon, lat], ...], ...]}]}` with the same optional dwell keys; unknown
/// keys are errors there, because the format is ours.
///
/// Every error names the file, line, column and JSON path, an invalid polygon included (GEOS's
/// reason and the ring and edges where it applies, by position, never by coordinates).
///
/// A polygon edge spanning more than 180° of longitude is read as crossing the antimeridian the
/// short way (179.9° → −179.9° is 0.2° wide, not 359.8°); a ring that then goes around a pole
/// is refused (see `PolygonShape`'s antimeridian rule in Geometry).
public enum GeofenceLoader {
    /// The largest radius accepted, in metres (a region larger than a city is a typo).
    public static let maximumRadiusMeters = 100_000.0

    /// Parses `bytes` from `file`. Geometry is validated separately by `GeofenceManager`, which
    /// prepares each polygon with GEOS.
    /// - Throws: `ConfigError` for malformed JSON, a missing identifier or radius, a
    ///   duplicate identifier, a coordinate out of range, or an unsupported geometry type.
    public static func load(_ bytes: [UInt8], file: String) throws(ConfigError) -> [Geofence] {
        let root = try ConfigJSON.parse(bytes, file: file)
        let reader = ConfigReader(file: file)
        guard case .object(let members) = root.value else { throw reader.fail(root, "$", "expected an object") }
        let keys = Set(members.map(\.key))
        let fences: [Located]
        if keys.contains("type") {
            fences = try geoJSON(root, reader)
        } else if keys.contains("geofences") {
            fences = try traceSimJSON(root, reader)
        } else {
            throw reader.fail(root, "$", "neither GeoJSON (no 'type') nor TraceSim geofences (no 'geofences')")
        }
        var seen: Set<String> = []
        for located in fences where !seen.insert(located.fence.identifier).inserted {
            throw reader.fail(
                located.node, located.path, "geofence identifier '\(located.fence.identifier)' appears twice")
        }
        return fences.map(\.fence).sorted { $0.identifier < $1.identifier }
    }

    /// A fence with where it was read, for errors found after parsing.
    private typealias Located = (fence: Geofence, node: JSONNode, path: String)

    // MARK: GeoJSON

    private static func geoJSON(_ root: JSONNode, _ reader: ConfigReader) throws(ConfigError) -> [Located] {
        let members = try reader.object(root, "$", allowed: nil)
        let type = try reader.string(try reader.required(members, "type", in: root, "$"), "$.type")
        switch type {
        case "FeatureCollection":
            let features = try reader.array(try reader.required(members, "features", in: root, "$"), "$.features")
            var fences: [Located] = []
            for (position, feature) in features.enumerated() {
                let path = "$.features[\(position)]"
                fences.append((try self.feature(feature, path, reader), feature, path))
            }
            return fences
        case "Feature":
            return [(try feature(root, "$", reader), root, "$")]
        default:
            throw reader.fail(root, "$.type", "'\(type)' is not a FeatureCollection or Feature")
        }
    }

    private static func feature(_ node: JSONNode, _ path: String, _ reader: ConfigReader) throws(ConfigError)
        -> Geofence
    {
        let members = try reader.object(node, path, allowed: nil)
        let properties =
            try members["properties"].map { (properties) throws(ConfigError) in
                properties.value == .null ? [:] : try reader.object(properties, "\(path).properties", allowed: nil)
            } ?? [:]
        let identifier: String
        if let id = members["id"] {
            switch id.value {
            case .string(let text): identifier = text
            case .number(let written):
                guard let number = written.double, number == number.rounded(), abs(number) < 1e15 else {
                    throw reader.fail(id, "\(path).id", "expected a string or an integer")
                }
                identifier = String(Int64(number))
            default: throw reader.fail(id, "\(path).id", "expected a string or an integer")
            }
        } else if let named = properties["identifier"] {
            identifier = try reader.string(named, "\(path).properties.identifier")
        } else {
            throw reader.fail(node, path, "a geofence needs an 'id' or 'properties.identifier'")
        }
        guard !identifier.isEmpty else { throw reader.fail(node, path, "the geofence identifier is empty") }
        let geometry = try reader.required(members, "geometry", in: node, path)
        let geometryPath = "\(path).geometry"
        let geometryMembers = try reader.object(geometry, geometryPath, allowed: nil)
        let type = try reader.string(
            try reader.required(geometryMembers, "type", in: geometry, geometryPath), "\(geometryPath).type")
        let coordinates = try reader.required(geometryMembers, "coordinates", in: geometry, geometryPath)
        let shape: Geofence.Shape
        switch type {
        case "Point":
            guard let radiusNode = properties["radius"] else {
                throw reader.fail(
                    node, "\(path).properties", "a Point geofence needs 'radius' (metres) in its properties")
            }
            let radius = try reader.number(radiusNode, "\(path).properties.radius", in: 1...maximumRadiusMeters)
            shape = .circle(
                center: try position(coordinates, "\(geometryPath).coordinates", reader), radiusMeters: radius)
        case "Polygon":
            shape = .polygon(try polygon(coordinates, "\(geometryPath).coordinates", reader, fence: identifier))
        default:
            throw reader.fail(
                geometry, "\(geometryPath).type", "'\(type)' is not supported (use Point with a radius, or Polygon)")
        }
        return try dwell(Geofence(identifier: identifier, shape: shape), properties, "\(path).properties", reader)
    }

    // MARK: TraceSim JSON

    private static let fenceKeys = [
        "identifier", "latitude", "longitude", "radius", "polygon", "notifyOnDwell", "loiteringDelay",
    ]

    private static func traceSimJSON(_ root: JSONNode, _ reader: ConfigReader) throws(ConfigError)
        -> [Located]
    {
        let members = try reader.object(root, "$", allowed: ["geofences"])
        var fences: [Located] = []
        let list = try reader.required(members, "geofences", in: root, "$")
        for (position, node) in try reader.array(list, "$.geofences").enumerated() {
            let path = "$.geofences[\(position)]"
            let fence = try reader.object(node, path, allowed: fenceKeys)
            let identifier = try reader.string(
                try reader.required(fence, "identifier", in: node, path), "\(path).identifier")
            guard !identifier.isEmpty else { throw reader.fail(node, path, "the geofence identifier is empty") }
            let shape: Geofence.Shape
            if let polygonNode = fence["polygon"] {
                guard fence["radius"] == nil, fence["latitude"] == nil, fence["longitude"] == nil else {
                    throw reader.fail(
                        node, path, "give either 'polygon' or 'latitude', 'longitude' and 'radius', not both")
                }
                shape = .polygon(try polygon(polygonNode, "\(path).polygon", reader, fence: identifier))
            } else {
                let latitude = try reader.number(
                    try reader.required(fence, "latitude", in: node, path), "\(path).latitude", in: -90...90)
                let longitude = try reader.number(
                    try reader.required(fence, "longitude", in: node, path), "\(path).longitude", in: -180...180)
                let radius = try reader.number(
                    try reader.required(fence, "radius", in: node, path), "\(path).radius", in: 1...maximumRadiusMeters)
                shape = .circle(center: Coordinate(latitude: latitude, longitude: longitude), radiusMeters: radius)
            }
            fences.append((try dwell(Geofence(identifier: identifier, shape: shape), fence, path, reader), node, path))
        }
        return fences
    }

    // MARK: Shared pieces

    private static func dwell(
        _ fence: Geofence, _ members: [String: JSONNode], _ path: String, _ reader: ConfigReader
    ) throws(ConfigError) -> Geofence {
        var fence = fence
        if let node = members["notifyOnDwell"] { fence.notifyOnDwell = try reader.bool(node, "\(path).notifyOnDwell") }
        if let node = members["loiteringDelay"] {
            fence.loiteringDelaySeconds = try reader.number(node, "\(path).loiteringDelay", in: 0...86_400)
        }
        return fence
    }

    /// A `[longitude, latitude]` position (RFC 7946 order; an altitude is allowed and ignored).
    private static func position(_ node: JSONNode, _ path: String, _ reader: ConfigReader)
        throws(ConfigError)
        -> Coordinate
    {
        let values = try reader.array(node, path)
        guard values.count == 2 || values.count == 3 else {
            throw reader.fail(node, path, "a position is [longitude, latitude] (got \(values.count) numbers)")
        }
        let longitude = try reader.number(values[0], "\(path)[0]", in: -180...180)
        let latitude = try reader.number(values[1], "\(path)[1]", in: -90...90)
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    private static func polygon(_ node: JSONNode, _ path: String, _ reader: ConfigReader, fence: String)
        throws(ConfigError)
        -> PolygonShape
    {
        let ringNodes = try reader.array(node, path)
        guard !ringNodes.isEmpty else { throw reader.fail(node, path, "a polygon needs at least its outer ring") }
        var rings: [[Coordinate]] = []
        for (ringPosition, ringNode) in ringNodes.enumerated() {
            let ringPath = "\(path)[\(ringPosition)]"
            var ring: [Coordinate] = []
            for (pointPosition, point) in try reader.array(ringNode, ringPath).enumerated() {
                ring.append(try position(point, "\(ringPath)[\(pointPosition)]", reader))
            }
            guard ring.count >= 4, ring.first == ring.last else {
                throw reader.fail(
                    ringNode, ringPath, "a linear ring needs 4 or more positions, the last equal to the first")
            }
            rings.append(ring)
        }
        let shape = PolygonShape(exterior: rings[0], holes: Array(rings.dropFirst()))
        // Validated here, where the polygon's line and column are known, with the same GEOS
        // checks the engine makes; the engine's own check then only guards library callers.
        do {
            _ = try PreparedPolygon(shape, name: fence, context: GEOSContext())
        } catch {
            throw reader.fail(node, path, error.description)
        }
        return shape
    }
}
