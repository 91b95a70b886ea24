import ConfigJSON
import Foundation
import Traces

/// Reads and parses configuration files; a missing or invalid one is a `CommandFailure` with
/// the CLI's exit code (66 or 65).
///
/// A file named on the command line may be anything readable (a pipe, a FIFO, a device) and is
/// read up to `TraceFile.maximumConfigurationBytes`; a FIFO that no process opens for writing
/// within `FIFOWait.limitSeconds` is an error (66), not a hang. A file named inside another
/// file resolves against that file's folder, must be a regular file, and its errors name both
/// files.
enum ConfigFiles {
    /// `load`, or `absent` when no path was given.
    static func load<Value>(
        _ path: String?, _ console: Console, _ parse: ([UInt8], String) throws(ConfigError) -> Value,
        absent: Value
    ) throws(CommandFailure) -> Value {
        guard let path else { return absent }
        return try load(path, console, parse)
    }

    /// Loads a file named on the command line.
    static func load<Value>(
        _ path: String, _ console: Console, _ parse: ([UInt8], String) throws(ConfigError) -> Value
    ) throws(CommandFailure) -> Value {
        try load(path, namedBy: nil, console, parse)
    }

    /// Loads `path` as `namingFile` wrote it (resolved against its folder), or as given on the
    /// command line when `namingFile` is `nil`.
    static func load<Value>(
        _ path: String, namedBy namingFile: String?, _ console: Console,
        _ parse: ([UInt8], String) throws(ConfigError) -> Value
    ) throws(CommandFailure) -> Value {
        let resolved = namingFile.map { resolve(path, namedBy: $0) } ?? path
        let bytes: [UInt8]
        do {
            bytes = try contents(ofPath: resolved, requiresRegularFile: namingFile != nil)
        } catch var error {
            error.file = MessageText.path(error.file)
            guard let namingFile else { throw CommandFailure(.noInput, "error: \(error)") }
            throw CommandFailure(
                .noInput,
                "error: \(error) (named in \(MessageText.path(namingFile))"
                    + "\(path == resolved ? "" : ", resolved against its folder"))")
        }
        do {
            return try parse(bytes, resolved)
        } catch {
            var error = error
            error.file = MessageText.path(error.file)
            throw CommandFailure(.dataError, "error: \(error)")
        }
    }

    /// The bytes of a file to read whole (a configuration file, a list of paths). A FIFO
    /// named on the command line is opened with a bounded wait for its writer
    /// (`FIFOWait.openForReading`), so one that nobody writes fails rather than hangs.
    /// - Throws: `TraceFileError`, as `TraceFile.contents(ofPath:requiresRegularFile:)` does.
    static func contents(ofPath path: String, requiresRegularFile: Bool = false) throws(TraceFileError) -> [UInt8] {
        guard !requiresRegularFile, !path.utf8.contains(0), FIFOWait.isFIFO(path) else {
            return try TraceFile.contents(ofPath: path, requiresRegularFile: requiresRegularFile)
        }
        switch FIFOWait.openForReading(path) {
        case .success(let descriptor):
            defer { close(descriptor) }
            return try TraceFile.contents(ofDescriptor: descriptor, path: path)
        case .failure(let failure):
            throw TraceFileError(file: path, reason: failure.reason(peer: "writing"))
        }
    }

    /// `path` as seen from the folder of `namingFile`: a relative path inside a file means
    /// the same file wherever the command runs. Absolute paths are kept.
    static func resolve(_ path: String, namedBy namingFile: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        let folder = namingFile.lastIndex(of: "/").map { String(namingFile[...$0]) } ?? ""
        return folder + path
    }
}
