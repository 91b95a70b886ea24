import Foundation
import TraceSimCLI

/// The command line itself as a fuzzing surface: argument vectors, and the JSON parts that
/// `merge` joins. Both run the real commands in-process with a console that discards output.
///
/// The command line reads and writes files by name, so these harnesses work inside a scratch
/// folder of their own and refuse to run any vector that could reach outside it.
enum CommandLineChecks {
    /// The exit codes a command may end with on hostile input: success, a failed check, a
    /// usage error, bad content, a missing input, an unwritable output, an output error.
    static let verdicts: Set<Int32> = [0, 1, 64, 65, 66, 73, 74]

    /// The byte that separates arguments in a `cli` input (as in `/proc/PID/cmdline`).
    static let argumentSeparator: UInt8 = 0
    /// The byte that separates the parts in a `merge` input (ASCII record separator).
    static let partSeparator: UInt8 = 0x1E

    /// Files a fuzzed command line may name, by their name in the sandbox: the repository paths
    /// listed in Tests/Fuzzing/sandbox.txt, which the regression test reads too.
    static let sandboxFiles: [String: String] = {
        let list = (try? String(contentsOfFile: "Tests/Fuzzing/sandbox.txt", encoding: .utf8)) ?? ""
        let sources = list.split(separator: "\n").map(String.init)
        return Dictionary(uniqueKeysWithValues: sources.map { (URL(fileURLWithPath: $0).lastPathComponent, $0) })
    }()

    /// The sandbox files' original bytes, read once from the repository (the working folder
    /// Scripts/fuzz.sh runs in). Kept as arrays: `Data` tags its storage pointer, which
    /// LeakSanitizer then cannot see from a global and reports as leaked.
    static let originals: [String: [UInt8]] = {
        let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        return sandboxFiles.compactMapValues { source in
            (try? Data(contentsOf: root.appendingPathComponent(source))).map { [UInt8]($0) }
        }
    }()

    /// A private working folder holding `sandboxFiles`; created once per process.
    static let sandbox: URL = {
        let manager = FileManager.default
        // Under the fuzzing work folder rather than /tmp, so a run leaves nothing elsewhere.
        let root = URL(fileURLWithPath: manager.currentDirectoryPath)
        let folder = root.appendingPathComponent(".build/fuzz/sandbox/\(getpid())")
        try? manager.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }()

    static let silent = Console(output: { _ in }, error: { _ in })

    /// Splits `bytes` at `separator`, keeping empty pieces.
    static func split(_ bytes: [UInt8], at separator: UInt8) -> [[UInt8]] {
        bytes.split(separator: separator, omittingEmptySubsequences: false).map(Array.init)
    }

    /// The arguments of a `cli` input, or `nil` when one of them could name something outside
    /// the sandbox (a slash, standard input) or is not UTF-8.
    static func arguments(_ bytes: [UInt8]) -> [String]? {
        var arguments: [String] = []
        for piece in split(bytes, at: argumentSeparator) {
            guard let argument = String(validating: piece, as: UTF8.self) else { return nil }
            if argument.contains("/") || argument == "-" || argument.contains("..") { return nil }
            arguments.append(argument)
        }
        return arguments
    }

    /// Runs one argument vector in the sandbox and checks its exit code.
    static func runArguments(_ bytes: [UInt8]) {
        guard let arguments = arguments(bytes), arguments.count <= 32 else { return }
        inSandbox {
            let code = TraceSimCommandLine.run(arguments, console: silent)
            if !verdicts.contains(code) { fatalError("exit \(code) for \(arguments)") }
        }
    }

    /// Writes each part of a `merge` input to a file and merges them.
    static func merge(_ bytes: [UInt8]) {
        let parts = split(bytes, at: partSeparator).prefix(8)
        inSandbox {
            var names: [String] = []
            for (index, part) in parts.enumerated() {
                let name = "part-\(index).json"
                guard FileManager.default.createFile(atPath: name, contents: Data(part)) else { return }
                names.append(name)
            }
            let code = TraceSimCommandLine.run(["merge"] + names, console: silent)
            if ![0, 64, 65].contains(code) { fatalError("merge exit \(code)") }
        }
    }

    /// Runs `body` with the sandbox as the working folder, then removes whatever it left.
    private static func inSandbox(_ body: () -> Void) {
        let manager = FileManager.default
        let previous = manager.currentDirectoryPath
        _ = originals  // read from the repository before the working folder changes
        if originals.isEmpty { fatalError("no sandbox files: run from the repository root (Tests/Fuzzing/sandbox.txt)") }
        guard manager.changeCurrentDirectoryPath(sandbox.path) else { fatalError("no sandbox at \(sandbox.path)") }
        restoreSandbox()
        body()
        _ = manager.changeCurrentDirectoryPath(previous)
    }

    /// Puts the sandbox back as it was: a command may have written over one of its files or
    /// left new ones, and every input must start from the same folder to be reproducible.
    private static func restoreSandbox() {
        let manager = FileManager.default
        for name in (try? manager.contentsOfDirectory(atPath: ".")) ?? [] where originals[name] == nil {
            try? manager.removeItem(atPath: name)
        }
        for (name, bytes) in originals where (try? Data(contentsOf: URL(fileURLWithPath: name))).map({ [UInt8]($0) }) != bytes {
            try? manager.removeItem(atPath: name)
            _ = manager.createFile(atPath: name, contents: Data(bytes))
        }
    }
}

extension CommandLineChecks {
    /// Argument vectors that reach each command's main path, as `cli` seeds.
    static let seedVectors: [[String]] = [
        ["inspect", "walk.csv", "walk.gpx"],
        ["inspect", "--format", "json", "walk.gpx"],
        ["convert", "walk.gpx", "out.jsonl"],
        ["track", "walk.csv", "--fences", "fences.geojson", "--device", "device.json"],
        ["replay", "walk.csv", "--scenario", "scenario.json", "--format", "json"],
        ["matrix", "walk.csv", "--scenarios", "ideal,denied", "--shard", "1/2", "--format", "json"],
        ["check", "walk.csv", "--expect", "expectations.json", "--junit", "out.xml", "--markdown", "out.md"],
        ["tune", "walk.csv", "--sweep", "distanceFilter=0:10:5", "--sweep", "maximumAccuracy=10:50:20"],
        ["permissions", "--user", "user.json"],
        ["permissions", "--compare", "--population", "population.json"],
        ["rules", "--format", "markdown"],
        ["scenarios", "--format", "json"],
        ["help", "matrix"],
    ]

    /// Writes seed inputs for `surface` into `folder`: argument vectors for `cli`, and for
    /// `merge` the parts of a real sharded matrix, so seeds follow the part format as it changes.
    static func writeSeeds(for surface: Surface, to folder: URL) {
        var seeds: [[UInt8]] = []
        switch surface {
        case .commandLine:
            seeds = seedVectors.map { Array($0.joined(separator: "\0").utf8) }
        case .merge:
            inSandbox {
                for count in 1...3 {
                    let parts = (1...count).map { index in
                        captureOutput(["matrix", "walk.csv", "walk.gpx", "--shard", "\(index)/\(count)", "--format", "json"])
                    }
                    seeds.append(Array(parts.joined(separator: [partSeparator])))
                }
            }
        case .engine, .serveEngine:
            seeds = EngineChecks.seeds(for: surface)
        default:
            return
        }
        for (index, seed) in seeds.enumerated() {
            let path = folder.appendingPathComponent("seed-\(index)").path
            _ = FileManager.default.createFile(atPath: path, contents: Data(seed))
        }
    }

    private static func captureOutput(_ arguments: [String]) -> [UInt8] {
        final class Buffer: @unchecked Sendable { var bytes: [UInt8] = [] }
        let buffer = Buffer()
        let console = Console(output: { buffer.bytes.append(contentsOf: $0.utf8) }, error: { _ in })
        _ = TraceSimCommandLine.run(arguments, console: console)
        return buffer.bytes
    }
}
