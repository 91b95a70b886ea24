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

// libxml2 prints some errors ("xmlParseChunk: encoder error") straight through its
// per-thread generic error function, which writes to standard error by default. That
// function is variadic, which Swift cannot define, so the silent one is written here.
static void tracesim_discard_generic_error(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

// Routes libxml2's generic errors (this thread's, or every thread's when libxml2 shares
// its globals) to nowhere: the parser turns libxml2's errors into its own.
static inline void tracesim_silence_generic_errors(void) {
    xmlSetGenericErrorFunc(NULL, tracesim_discard_generic_error);
}

#endif
