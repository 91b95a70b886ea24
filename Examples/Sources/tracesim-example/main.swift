// Embeds TraceSim: replays a trace through a preset, runs the permission matrix over a folder,
// renders JSON and HTML, and plugs a custom LocationClient into the simulated iPhone.
//
//     tracesim-example FOLDER_OF_TRACES OUTPUT_FOLDER

import Foundation
import TraceSim

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let folder = arguments.first, let output = arguments.last else {
    FileHandle.standardError.write(Data("usage: tracesim-example FOLDER_OF_TRACES OUTPUT_FOLDER\n".utf8))
    exit(64)
}

do {
    try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
    let traces = try loadTraces(in: folder)
    guard let first = traces.first else {
        FileHandle.standardError.write(Data("no trace TraceSim can read in \(folder)\n".utf8))
        exit(65)
    }
    try replayThroughPreset(first, writingTo: output)
    try runMatrix(over: traces, writingTo: output)
    countWhatTheAppSees(first)
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
