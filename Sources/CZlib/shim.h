#ifndef TRACESIM_CZLIB_SHIM_H
#define TRACESIM_CZLIB_SHIM_H

#include <zlib.h>

// zlib's init entry points are macros that pass the header's version and struct size, which
// Swift cannot import; these wrappers make the same calls.

// Window bits 15 + 16: gzip framing only (RFC 1952), with its CRC-32 and length checked.
static inline int tracesim_inflate_init_gzip(z_streamp stream) {
    return inflateInit2(stream, 15 + 16);
}

// The same framing for writing, used by tests to make compressed traces.
static inline int tracesim_deflate_init_gzip(z_streamp stream, int level, int strategy) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, strategy);
}

#endif
