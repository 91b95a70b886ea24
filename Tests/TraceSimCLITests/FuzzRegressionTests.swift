import Foundation
import TestSupport
import Testing

/// Every input the fuzzers found a problem with (Tests/Fuzzing/Regressions/<harness>/),
/// replayed through the command a user would run on it. Each must end in a verdict, 0 or
/// 65, never a crash. New findings are picked up by dropping the minimized input into the
/// harness's folder (Scripts/fuzz.sh says how).
@Suite("Fuzzing regressions")
struct FuzzRegressionTests {
    static let folder = Repository.root.appendingPathComponent("Tests/Fuzzing/Regressions")
    static let drive = Repository.trace("gnss_lib_py/pixel6.txt")

    /// (harness, file) for every checked-in finding.
    static var findings: [(harness: String, file: String)] {
        let manager = FileManager.default
        let harnesses = (try? manager.contentsOfDirectory(atPath: folder.path)) ?? []
        return harnesses.sorted().flatMap { harness in
            let files = (try? manager.contentsOfDirectory(atPath: folder.appendingPathComponent(harness).path)) ?? []
            return files.sorted().map { (harness, folder.appendingPathComponent(harness).appendingPathComponent($0).path) }
        }
    }

    /// The commands that read a harness's kind of input.
    static func commands(harness: String, file: String) -> [[String]] {
        switch harness {
        case "detect", "file": return [["inspect", file], ["track", file]]
        case let name where name.hasPrefix("import-"):
            let format = String(name.dropFirst("import-".count))
            return [["inspect", "--input-format", format, file], ["track", "--input-format", format, file]]
        case "scenario": return [["replay", drive, "--scenario", file]]
        case "user-script": return [["permissions", "--user", file]]
        case "device": return [["track", drive, "--device", file]]
        case "population": return [["permissions", "--compare", "--population", file]]
        case "expectations": return [["check", drive, "--expect", file]]
        case "geojson": return [["track", drive, "--fences", file]]
        // Whole command lines and merge parts are replayed by `replayCommandLine` below.
        case "cli", "merge": return [[]]
        default: return []
        }
    }

    @Test("each minimized finding gets a verdict from the command that reads it, never a crash")
    func findingsGetVerdicts() {
        let findings = Self.findings
        #expect(!findings.isEmpty, "the regression folder is empty or missing")
        for (harness, file) in findings {
            let commands = Self.commands(harness: harness, file: file)
            #expect(!commands.isEmpty, "no command reads \(harness) inputs")
            if harness == "cli" || harness == "merge" {
                replayCommandLine(harness: harness, file: file)
                continue
            }
            for command in commands {
                let result = runCommand(command)
                #expect(result.exitCode == 0 || result.exitCode == 65, "\(command): \(result.error)")
                if result.exitCode == 65 { #expect(result.error.contains(file), "\(command): \(result.error)") }
            }
        }
    }

    @Test("a KML track whose fixes lie centuries apart replays instead of overflowing the clock")
    func centuriesApart() {
        let file = Self.folder.appendingPathComponent("import-kml/centuries-between-fixes.kml").path
        let inspected = runCommand(["inspect", file])
        #expect(inspected.exitCode == 0, "\(inspected.error)")
        #expect(inspected.output.contains("1685-05-25T20:12:39.000Z → 2014-05-25T20:13:09.000Z"), "\(inspected.output)")
        let tracked = runCommand(["track", file, "--format", "json"])
        #expect(tracked.exitCode == 0, "\(tracked.error)")
    }

    /// Replays a `cli` or `merge` finding as the harness ran it: in a scratch folder holding the
    /// harness's sandbox files, as a real process (the working folder is per process).
    func replayCommandLine(harness: String, file: String) {
        let manager = FileManager.default
        let sandbox = manager.temporaryDirectory.appendingPathComponent("tracesim-fuzz-replay-\(UUID().uuidString)")
        defer { try? manager.removeItem(at: sandbox) }
        do {
            try manager.createDirectory(at: sandbox, withIntermediateDirectories: true)
            let sandboxFiles = Self.sandboxFiles
            #expect(!sandboxFiles.isEmpty, "Tests/Fuzzing/sandbox.txt is missing or empty")
            for (name, source) in sandboxFiles {
                try manager.copyItem(
                    at: Repository.root.appendingPathComponent(source), to: sandbox.appendingPathComponent(name))
            }
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
            var arguments: [String]
            if harness == "merge" {
                arguments = ["merge"]
                for (index, part) in bytes.split(separator: 0x1E, omittingEmptySubsequences: false).prefix(8).enumerated() {
                    let name = "part-\(index).json"
                    try Data(part).write(to: sandbox.appendingPathComponent(name))
                    arguments.append(name)
                }
            } else {
                arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
                    String(decoding: $0, as: UTF8.self)
                }
            }
            let result = try runBinary(arguments, in: sandbox)
            #expect([0, 1, 64, 65, 66, 73, 74].contains(result.exitCode), "\(file): \(result.error)")
        } catch {
            Issue.record("\(file): \(error)")
        }
    }

    /// The files a `cli` or `merge` harness finds in its scratch folder, by sandbox name: the
    /// list the fuzzing package reads too.
    static var sandboxFiles: [String: String] {
        let file = Repository.root.appendingPathComponent("Tests/Fuzzing/sandbox.txt")
        let list = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        let sources = list.split(separator: "\n").map(String.init)
        return Dictionary(uniqueKeysWithValues: sources.map { (URL(fileURLWithPath: $0).lastPathComponent, $0) })
    }
}
