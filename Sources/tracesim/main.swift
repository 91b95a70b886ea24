import TraceSimCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

exit(TraceSimCommandLine.run(Array(CommandLine.arguments.dropFirst())))
