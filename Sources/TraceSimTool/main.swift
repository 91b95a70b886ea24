import TraceSimCLI

// Signal handling and the exit code live in `main`, which programs embedding their own engine
// call too.
TraceSimCommandLine.main()
