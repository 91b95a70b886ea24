#ifndef TRACESIM_CLIBXML2_SHIM_H
#define TRACESIM_CLIBXML2_SHIM_H

#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU; its ICU headers clash with the toolchain's
// copy of ICU in debug builds. Nothing here needs ICU-backed encodings.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>

#endif
