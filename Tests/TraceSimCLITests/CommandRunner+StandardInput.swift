import Foundation
import Synchronization
import TestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a real `tracesim` process gets its standard input.
enum StandardInputSource {
    /// Written into a pipe, then closed.
    case bytes([UInt8])
    /// The descriptor of an open regular file, as the shell's `< file` gives it.
    case file(String)
}

/// Runs the built `tracesim` binary with `input` on its standard input and `environment`
/// added to the test's own.
func runBinary(
    _ arguments: [String], standardInput input: StandardInputSource, environment: [String: String] = [:]
) throws -> CommandResult {
    // A child that exits without reading all its input must not kill the test with SIGPIPE.
    signal(SIGPIPE, SIG_IGN)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: BuiltTracesim.path)
    process.arguments = arguments
    process.currentDirectoryURL = Repository.root
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    var feed: Pipe?
    switch input {
    case .bytes:
        let pipe = Pipe()
        process.standardInput = pipe
        feed = pipe
    case .file(let path):
        guard let handle = FileHandle(forReadingAtPath: path) else { throw CocoaError(.fileNoSuchFile) }
        process.standardInput = handle
    }
    try process.run()
    // Feed and drain at once: a child blocked on one pipe while the test waits on another
    // would never finish.
    let group = DispatchGroup()
    if case .bytes(let bytes) = input, let feed {
        DispatchQueue.global().async(group: group) {
            try? feed.fileHandleForWriting.write(contentsOf: Data(bytes))
            try? feed.fileHandleForWriting.close()
        }
    }
    let errorData = Mutex(Data())
    DispatchQueue.global().async(group: group) {
        let data = error.fileHandleForReading.readDataToEndOfFile()
        errorData.withLock { $0 = data }
    }
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return CommandResult(
        exitCode: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
        error: String(decoding: errorData.withLock { $0 }, as: UTF8.self))
}
