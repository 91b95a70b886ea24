// Apple's Core Motion where it exists, TraceSim's facade elsewhere (or when TRACESIM_FACADE is
// defined): a team's file changes only its `import CoreMotion` line to `import CoreMotionShim`.
#if canImport(CoreMotion) && !TRACESIM_FACADE
    @_exported import CoreMotion
#else
    @_exported import TraceSimCoreMotion
#endif
