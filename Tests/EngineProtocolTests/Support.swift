import Engine
import Foundation
import Scenarios
import Synchronization
import TraceSimCLI
import Traces

/// Where the repository and the test engines are.
enum Paths {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let engines = root.appendingPathComponent("Tests/EngineProtocolTests/Engines").path
    static let schema = root.appendingPathComponent("Documentation/Protocol/engine-protocol.schema.json").path
    static let pythonExample = root.appendingPathComponent("Examples/python/engine.py").path

    static func trace(_ relative: String) -> String { root.appendingPathComponent("Traces/" + relative).path }

    /// The pixel 6 walk: 48 fixes, a few seconds to replay through any engine.
    static let pixel6 = trace("gnss_lib_py/pixel6.nmea")
    /// The u-blox drive's reference receiver: 1,748 fixes over 29 minutes.
    static let mtv = trace("gps-measurement-tools/MTV.Local1.SPAN.20200206-181434.gga")

    /// The built `tracesim`: the test bundle sits in the products folder beside it.
    static var tracesim: String {
        var url = Bundle.main.bundleURL
        while url.path != "/" {
            let candidate = url.appendingPathComponent("tracesim")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate.path }
            url.deleteLastPathComponent()
        }
        return "tracesim"
    }

    /// `tracesim serve-engine`, as an `--engine-command`.
    static var serveEngine: String { "\(tracesim) serve-engine" }

    /// Whether Python's `jsonschema` is importable (Debian: python3-jsonschema).
    static let hasJSONSchema: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "python3 -c 'import jsonschema' 2>/dev/null"]
        do {
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus == 0
        } catch {
            return false
        }
    }()
}

/// What one in-process command line printed.
struct CommandResult {
    var exitCode: Int32
    var output: String
    var error: String
}

func runCommand(_ arguments: [String], engine: EngineUnderTest = .builtIn) -> CommandResult {
    let output = Mutex("")
    let error = Mutex("")
    let console = Console(
        output: { text in output.withLock { $0 += text } },
        error: { text in error.withLock { $0 += text } })
    let code = TraceSimCommandLine.run(arguments, console: console, engine: engine)
    return CommandResult(exitCode: code, output: output.withLock { $0 }, error: error.withLock { $0 })
}

/// Runs `command` through the shell with `input` on its standard input.
func runShell(_ command: String, input: String) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    let error = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandResult(
        exitCode: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
        error: String(decoding: error, as: UTF8.self))
}

/// Runs `body` on a thread of its own and awaits it. The tests here wait on other processes
/// for seconds at a time; on Swift's cooperative pool (one thread per core) that wait would
/// starve the suites whose app code runs as Swift tasks (the Core Location facade's live
/// updates), so the waiting happens off the pool.
func offPool<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.start()
    }
}
