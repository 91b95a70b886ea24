import TraceSimCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// A reader that goes away (`tracesim matrix | head`) must not kill the process with SIGPIPE:
// death by signal skips the cleanup of a half-written report's temporary file and gives the
// caller exit 141 with no message. Ignored, the write fails with EPIPE, the shared writer
// records it, and the command line exits 74 with "output error: stdout: Broken pipe".
// SIGXFSZ (a file-size limit, `ulimit -f`) likewise becomes EFBIG and exit 74.
signal(SIGPIPE, SIG_IGN)
signal(SIGXFSZ, SIG_IGN)

exit(TraceSimCommandLine.run(Array(CommandLine.arguments.dropFirst())))
