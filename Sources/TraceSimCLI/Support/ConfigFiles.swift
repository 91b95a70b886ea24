import Foundation
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
        guard let data = FileManager.default.contents(atPath: path) else {
            console.warn("error: \(path): no such file or not readable")
            return .failed(.noInput)
        }
        do {
            return .loaded(try parse(Array(data), path))
        } catch {
            console.warn("error: \(error)")
            return .failed(.dataError)
        }
    }
}
