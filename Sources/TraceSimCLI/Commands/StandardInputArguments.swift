import Traces

/// `-` as a trace argument: standard input, which can be read only once per command line.
enum StandardInputArguments {
    /// What every trace argument's help says about `-` and gzip.
    static let helpLines = """
        `-` reads standard input (once per command line). gzip input,
        from a file or standard input, is inflated as it is read.
        """

    /// Refuses a command line that names standard input as a trace more than once: the second
    /// reader would find it already consumed.
    /// - Parameters:
    ///   - traces: the trace arguments, positional and optional (`--truth`), in order.
    static func checkReadOnce(_ traces: [String?], command: String) throws(UsageError) {
        let readers = traces.compactMap { $0 }.filter { $0 == TraceFile.standardInputPath }
        guard readers.count <= 1 else {
            throw UsageError(
                "standard input ('-') can be read only once, but is named \(readers.count) times", command: command)
        }
    }
}
