import Foundation
import TestSupport

/// Runs the built `tracesim` binary, for the few checks that need a real process.
func runBinary(_ arguments: [String], in folder: URL = Repository.root) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: BuiltTracesim.path)
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
