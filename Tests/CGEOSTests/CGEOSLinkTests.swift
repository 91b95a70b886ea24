import CGEOS
import Testing

/// Proves that libgeos is installed, links, and answers a prepared predicate, so a machine
/// without `libgeos-dev` fails here rather than deep inside a geofence replay later.
@Suite("libgeos C API through CGEOS")
struct CGEOSLinkTests {
    @Test("a prepared polygon contains a point inside it and not one outside")
    func preparedContains() throws {
        let context = try #require(GEOS_init_r())
        defer { GEOS_finish_r(context) }

        let reader = try #require(GEOSWKTReader_create_r(context))
        defer { GEOSWKTReader_destroy_r(context, reader) }

        let square = try #require(GEOSWKTReader_read_r(context, reader, "POLYGON((0 0, 10 0, 10 10, 0 10, 0 0))"))
        defer { GEOSGeom_destroy_r(context, square) }
        #expect(GEOSisValid_r(context, square) == 1)

        let prepared = try #require(GEOSPrepare_r(context, square))
        defer { GEOSPreparedGeom_destroy_r(context, prepared) }

        let inside = try #require(GEOSGeom_createPointFromXY_r(context, 5, 5))
        defer { GEOSGeom_destroy_r(context, inside) }
        let outside = try #require(GEOSGeom_createPointFromXY_r(context, 15, 5))
        defer { GEOSGeom_destroy_r(context, outside) }
        let onEdge = try #require(GEOSGeom_createPointFromXY_r(context, 10, 5))
        defer { GEOSGeom_destroy_r(context, onEdge) }

        // GEOS returns 1 for true, 0 for false and 2 for an exception.
        #expect(GEOSPreparedContains_r(context, prepared, inside) == 1)
        #expect(GEOSPreparedContains_r(context, prepared, outside) == 0)
        // A boundary point is not "contained" under the DE-9IM definition; `covers` includes it.
        #expect(GEOSPreparedContains_r(context, prepared, onEdge) == 0)
        #expect(GEOSPreparedCovers_r(context, prepared, onEdge) == 1)
    }

    @Test("an invalid bow-tie polygon is reported invalid")
    func invalidPolygon() throws {
        let context = try #require(GEOS_init_r())
        defer { GEOS_finish_r(context) }
        let reader = try #require(GEOSWKTReader_create_r(context))
        defer { GEOSWKTReader_destroy_r(context, reader) }
        let bowTie = try #require(GEOSWKTReader_read_r(context, reader, "POLYGON((0 0, 10 10, 10 0, 0 10, 0 0))"))
        defer { GEOSGeom_destroy_r(context, bowTie) }
        #expect(GEOSisValid_r(context, bowTie) == 0)
    }
}
