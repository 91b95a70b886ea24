// One import for a team's Core Location code: Apple's framework where it exists, TraceSim's
// facade elsewhere (a module cannot be called CoreLocation beside Apple's on macOS, so apps
// import this one). Define TRACESIM_FACADE to use the facade on an Apple platform too.
#if canImport(CoreLocation) && !TRACESIM_FACADE
    @_exported import CoreLocation
#else
    @_exported import TraceSimCoreLocation
#endif
