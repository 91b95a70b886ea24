import CGEOS

/// A polygon in longitude/latitude (RFC 7946: edges are straight in that plane): an outer
/// ring and optional holes, each a closed or open list of coordinates.
public struct PolygonShape: Sendable, Equatable {
    /// The outer ring.
    public var exterior: [Coordinate]
    public var holes: [[Coordinate]]

    /// Creates a polygon shape.
    public init(exterior: [Coordinate], holes: [[Coordinate]] = []) {
        self.exterior = exterior
        self.holes = holes
    }
}

/// A GEOS polygon, validated and prepared once, answering `contains` exactly as GEOS does.
///
/// A polygon with an edge across the antimeridian is unwrapped first (see `PolygonShape`'s
/// antimeridian rule): GEOS sees it in a plane whose longitudes may pass 180°, and a point is
/// tested at its own longitude or 360° further east, whichever falls in the bounds.
///
/// A final class rather than a `~Copyable` struct so that thousands can sit in an array; it
/// owns its GEOS objects and frees them in `deinit`. Uses its context's thread only.
public final class PreparedPolygon {
    private let context: GEOSContext
    private let geometry: OpaquePointer
    private let prepared: OpaquePointer
    /// The polygon's bounding box in the unwrapped plane: minimum and maximum longitude and
    /// latitude. The minimum longitude lies in -180..<180; the maximum may pass 180.
    public let bounds: (minLongitude: Double, minLatitude: Double, maxLongitude: Double, maxLatitude: Double)
    /// The shape it was made from.
    public let shape: PolygonShape
    /// The rings (outer first) as GEOS sees them: unwrapped across the antimeridian.
    public let planarRings: [[Coordinate]]

    /// Builds, validates and prepares a polygon.
    /// - Throws: `GeometryError.invalidPolygon` (with GEOS's reason and the ring and edges
    ///   where it applies, never coordinates) or `.degeneratePolygon`.
    public init(_ shape: PolygonShape, name: String, context: GEOSContext) throws(GeometryError) {
        self.context = context
        self.shape = shape
        switch shape.planarRings() {
        case .success(let rings): planarRings = rings
        case .failure(let problem): throw GeometryError.invalidPolygon(name: name, reason: problem.reason)
        }
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
        let shell = try ring(planarRings[0])
        var holeRings: [OpaquePointer?] = []
        for hole in planarRings.dropFirst() {
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
        if let reason = Self.invalidity(polygon, rings: planarRings, context: context) {
            GEOSGeom_destroy_r(handle, polygon)
            throw GeometryError.invalidPolygon(name: name, reason: reason)
        }
        guard let prepared = GEOSPrepare_r(handle, polygon) else {
            GEOSGeom_destroy_r(handle, polygon)
            throw GeometryError.geos(context.takeError())
        }
        geometry = polygon
        self.prepared = prepared
        let longitudes = planarRings[0].map(\.longitude)
        let latitudes = planarRings[0].map(\.latitude)
        bounds = (longitudes.min() ?? 0, latitudes.min() ?? 0, longitudes.max() ?? 0, latitudes.max() ?? 0)
    }

    /// Wraps GEOS `isValidDetail`: `nil` when valid, otherwise GEOS's reason with the ring and
    /// edges at the location GEOS names (coordinates are personal data: never quoted).
    private static func invalidity(_ polygon: OpaquePointer, rings: [[Coordinate]], context: GEOSContext) -> String? {
        let handle = context.handle
        var reasonPointer: UnsafeMutablePointer<CChar>?
        var location: OpaquePointer?
        let valid = GEOSisValidDetail_r(handle, polygon, 0, &reasonPointer, &location)
        defer {
            if let reasonPointer { GEOSFree_r(handle, reasonPointer) }
            if let location { GEOSGeom_destroy_r(handle, location) }
        }
        if valid == 1 { return nil }
        guard valid == 0 else { return "GEOS could not check it: \(context.takeError())" }
        var reason = reasonPointer.map { String(cString: $0) } ?? "invalid"
        if let first = reason.first { reason = first.lowercased() + reason.dropFirst() }
        var x = 0.0
        var y = 0.0
        guard let location, GEOSGeomGetX_r(handle, location, &x) == 1, GEOSGeomGetY_r(handle, location, &y) == 1,
            let place = PolygonEdges.describe(near: Coordinate(latitude: y, longitude: x), in: rings)
        else { return reason }
        return "\(reason) on \(place)"
    }

    deinit {
        GEOSPreparedGeom_destroy_r(context.handle, prepared)
        GEOSGeom_destroy_r(context.handle, geometry)
    }

    /// Wraps GEOS prepared `contains`: true strictly inside, false outside or on the boundary.
    /// The point is tested at its longitude, or 360° east of it when only that lies in the
    /// bounds (a polygon across the antimeridian).
    public func contains(_ point: Coordinate) throws(GeometryError) -> Bool {
        var longitude = point.longitude
        if longitude < bounds.minLongitude || longitude > bounds.maxLongitude { longitude += 360 }
        return try context.check(tracesim_prepared_contains_xy(context.handle, prepared, longitude, point.latitude))
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
        // Back into -180..<180: the unwrapped plane may put the centre past 180.
        let center = Coordinate(latitude: y, longitude: x >= 180 ? x - 360 : x)
        let radius = shape.exterior.map { Geodesy.distanceMeters(center, $0) }.max() ?? 0
        return (center, radius)
    }
}
