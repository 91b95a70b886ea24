import Traces

/// Reads and parses configuration files, printing errors with the CLI's exit codes.
enum ConfigFiles {
    enum Outcome<Value> {
        case loaded(Value)
        /// The error was printed; exit with this code.
        case failed(ExitCode)
    }

    /// `load`, or `absent` when no path was given.
    static func load<Value>(
        _ path: String?, _ console: Console, _ parse: ([UInt8], String) throws(TraceFormatError) -> Value,
        absent: Value
    ) -> Outcome<Value> {
        guard let path else { return .loaded(absent) }
        return load(path, console, parse)
    }

    static func load<Value>(
        _ path: String, _ console: Console, _ parse: ([UInt8], String) throws(TraceFormatError) -> Value
    ) -> Outcome<Value> {
        let bytes: [UInt8]
        do {
            bytes = try TraceFile.contents(ofPath: path)
        } catch {
            console.warn("error: \(error)")
            return .failed(.noInput)
        }
        do {
            return .loaded(try parse(bytes, path))
        } catch {
            console.warn("error: \(error)")
            return .failed(.dataError)
        }
    }
}
