#ifndef TRACESIM_CGEOS_SHIM_H
#define TRACESIM_CGEOS_SHIM_H

// Only the re-entrant (context handle) API: every replay owns its own GEOS context,
// so no global state is shared between runs on different threads.
#define GEOS_USE_ONLY_R_API
#include <geos_c.h>

// GEOSPreparedContainsXY_r arrived in GEOS 3.12; Debian bookworm ships 3.11. Below 3.12 the
// same answer comes from a temporary point.
static inline char tracesim_prepared_contains_xy(
    GEOSContextHandle_t handle, const GEOSPreparedGeometry *prepared, double x, double y) {
#if GEOS_VERSION_MAJOR > 3 || (GEOS_VERSION_MAJOR == 3 && GEOS_VERSION_MINOR >= 12)
    return GEOSPreparedContainsXY_r(handle, prepared, x, y);
#else
    GEOSGeometry *point = GEOSGeom_createPointFromXY_r(handle, x, y);
    if (point == NULL) {
        return 2;
    }
    char result = GEOSPreparedContains_r(handle, prepared, point);
    GEOSGeom_destroy_r(handle, point);
    return result;
#endif
}

#endif
