#ifndef TRACESIM_CGEOS_SHIM_H
#define TRACESIM_CGEOS_SHIM_H

// Only the re-entrant (context handle) API: every replay owns its own GEOS context,
// so no global state is shared between runs on different threads.
#define GEOS_USE_ONLY_R_API
#include <geos_c.h>

#endif
