import CGEOS

/// A polygon in longitude/latitude (RFC 7946: edges are straight in that plane): an outer
/// ring and optional holes, each a closed or open list of coordinates.
public struct PolygonShape: Sendable, Equatable {
    /// The outer ring.
    public var exterior: [Coordinate]
    /// Holes.
    public var holes: [[Coordinate]]

    /// Creates a polygon shape.
    public init(exterior: [Coordinate], holes: [[Coordinate]] = []) {
        self.exterior = exterior
        self.holes = holes
    }
}

/// A GEOS polygon, validated and prepared once, answering `contains` exactly as GEOS does.
///
/// A final class rather than a `~Copyable` struct so that thousands can sit in an array; it
/// owns its GEOS objects and frees them in `deinit`. Uses its context's thread only.
public final class PreparedPolygon {
    private let context: GEOSContext
    private let geometry: OpaquePointer
    private let prepared: OpaquePointer
    /// The polygon's bounding box: minimum and maximum longitude and latitude.
    public let bounds: (minLongitude: Double, minLatitude: Double, maxLongitude: Double, maxLatitude: Double)
    /// The shape it was made from.
    public let shape: PolygonShape

    /// Builds, validates and prepares a polygon.
    /// - Throws: `GeometryError.invalidPolygon` (with GEOS's reason) or `.degeneratePolygon`.
    public init(_ shape: PolygonShape, name: String, context: GEOSContext) throws(GeometryError) {
        self.context = context
        self.shape = shape
        let handle = context.handle
        func ring(_ points: [Coordinate]) throws(GeometryError) -> OpaquePointer {
            var closed = points
            if let first = points.first, first != points.last { closed.append(first) }
            guard Set(closed.map { "\($0.latitude),\($0.longitude)" }).count >= 3 else {
                throw GeometryError.degeneratePolygon(name: name)
            }
            guard let sequence = GEOSCoordSeq_create_r(handle, UInt32(closed.count), 2) else {
                throw GeometryError.geos(context.takeError())
            }
            for (index, point) in closed.enumerated() {
                GEOSCoordSeq_setXY_r(handle, sequence, UInt32(index), point.longitude, point.latitude)
            }
            guard let ring = GEOSGeom_createLinearRing_r(handle, sequence) else {
                throw GeometryError.geos(context.takeError())
            }
            return ring
        }
        let shell = try ring(shape.exterior)
        var holeRings: [OpaquePointer?] = []
        for hole in shape.holes {
            do {
                holeRings.append(try ring(hole))
            } catch {
                GEOSGeom_destroy_r(handle, shell)
                for made in holeRings { GEOSGeom_destroy_r(handle, made) }
                throw error
            }
        }
        let polygon = holeRings.withUnsafeMutableBufferPointer { buffer in
            GEOSGeom_createPolygon_r(handle, shell, buffer.baseAddress, UInt32(buffer.count))
        }
        guard let polygon else { throw GeometryError.geos(context.takeError()) }
        if GEOSisValid_r(handle, polygon) != 1 {
            let reason =
                GEOSisValidReason_r(handle, polygon).map { pointer -> String in
                    defer { GEOSFree_r(handle, pointer) }
                    return String(cString: pointer)
                } ?? "invalid"
            GEOSGeom_destroy_r(handle, polygon)
            throw GeometryError.invalidPolygon(name: name, reason: reason)
        }
        guard let prepared = GEOSPrepare_r(handle, polygon) else {
            GEOSGeom_destroy_r(handle, polygon)
            throw GeometryError.geos(context.takeError())
        }
        geometry = polygon
        self.prepared = prepared
        let longitudes = shape.exterior.map(\.longitude)
        let latitudes = shape.exterior.map(\.latitude)
        bounds = (longitudes.min() ?? 0, latitudes.min() ?? 0, longitudes.max() ?? 0, latitudes.max() ?? 0)
    }

    deinit {
        GEOSPreparedGeom_destroy_r(context.handle, prepared)
        GEOSGeom_destroy_r(context.handle, geometry)
    }

    /// Wraps GEOS prepared `contains`: true strictly inside, false outside or on the boundary.
    public func contains(_ point: Coordinate) throws(GeometryError) -> Bool {
        try context.check(tracesim_prepared_contains_xy(context.handle, prepared, point.longitude, point.latitude))
    }

    /// Wraps GEOS `MinimumBoundingCircle` (computed in the longitude/latitude plane); the
    /// radius is then measured on the Earth as the farthest vertex from the centre, so the
    /// circle covers the polygon in metres.
    public func minimumBoundingCircle() throws(GeometryError) -> (center: Coordinate, radiusMeters: Double) {
        let handle = context.handle
        var planarRadius = 0.0
        var centerGeometry: OpaquePointer?
        guard let circle = GEOSMinimumBoundingCircle_r(handle, geometry, &planarRadius, &centerGeometry) else {
            throw GeometryError.geos(context.takeError())
        }
        defer {
            GEOSGeom_destroy_r(handle, circle)
            if let centerGeometry { GEOSGeom_destroy_r(handle, centerGeometry) }
        }
        var x = 0.0
        var y = 0.0
        guard let centerGeometry, GEOSGeomGetX_r(handle, centerGeometry, &x) == 1,
            GEOSGeomGetY_r(handle, centerGeometry, &y) == 1
        else {
            throw GeometryError.geos(context.takeError())
        }
        let center = Coordinate(latitude: y, longitude: x)
        let radius = shape.exterior.map { Geodesy.distanceMeters(center, $0) }.max() ?? 0
        return (center, radius)
    }
}
