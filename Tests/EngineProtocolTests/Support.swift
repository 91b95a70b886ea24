import Foundation
import TestSupport

/// Where the test engines, the schema and the traces these suites use are.
enum Paths {
    static let engines = Repository.path("Tests/EngineProtocolTests/Engines")
    static let schema = Repository.path("Documentation/Protocol/engine-protocol.schema.json")
    static let pythonExample = Repository.path("Examples/python/engine.py")

    /// The pixel 6 walk: 48 fixes, a few seconds to replay through any engine.
    static let pixel6 = Repository.trace("gnss_lib_py/pixel6.nmea")
    /// The u-blox drive's reference receiver: 1,748 fixes over 29 minutes.
    static let mtv = Repository.trace("gps-measurement-tools/MTV.Local1.SPAN.20200206-181434.gga")

    /// The built `tracesim` (CI's slow tier passes its release build as `TRACESIM`).
    static var tracesim: String { BuiltTracesim.path }

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
