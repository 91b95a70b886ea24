import Foundation
import Synchronization
import TraceSimCLI

/// Runs the command line in-process and captures what it prints.
struct CommandResult {
    var exitCode: Int32
    var output: String
    var error: String
}

func runCommand(_ arguments: [String]) -> CommandResult {
    let output = Mutex("")
    let error = Mutex("")
    let console = Console(
        output: { text in output.withLock { $0 += text } },
        error: { text in error.withLock { $0 += text } })
    let code = TraceSimCommandLine.run(arguments, console: console)
    return CommandResult(exitCode: code, output: output.withLock { $0 }, error: error.withLock { $0 })
}

/// Runs the built `tracesim` binary, for the few checks that need a real process.
func runBinary(_ arguments: [String], in folder: URL = repositoryRoot) throws -> CommandResult {
    let process = Process()
    process.executableURL = productsFolder.appendingPathComponent("tracesim")
    process.arguments = arguments
    process.currentDirectoryURL = folder
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandResult(
        exitCode: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
        error: String(decoding: errorData, as: UTF8.self))
}

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The build products folder: the test bundle sits in it next to the `tracesim` binary.
var productsFolder: URL {
    var url = Bundle.main.bundleURL
    while url.path != "/" {
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("tracesim").path) { return url }
        url.deleteLastPathComponent()
    }
    return Bundle.main.bundleURL
}

func tracePath(_ relative: String) -> String { repositoryRoot.appendingPathComponent("Traces/" + relative).path }
