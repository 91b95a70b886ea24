import BenchmarkKit
import Foundation

/// `tracesim-bench fleet`: writes a generated fleet a user can replay with `tracesim matrix`.
enum FleetCommand {
    /// Parses the options, writes the fleet and returns the exit status.
    static func run(_ arguments: [String]) -> Int32 {
        var drives: Int?
        var minutes: Int?
        var seed: UInt64 = 7
        var format = BenchFormat.csv
        var out: String?
        var index = 0
        func usage(_ message: String) -> Int32 {
            FileHandle.standardError.write(
                Data(
                    ("tracesim-bench fleet: \(message)\nusage: tracesim-bench fleet --drives <n> --minutes <m> "
                        + "[--seed <n>] [--format csv|gpx] --out <dir>\n").utf8))
            return 64
        }
        while index < arguments.count {
            let name = arguments[index]
            guard index + 1 < arguments.count else { return usage("\(name) needs a value") }
            let text = arguments[index + 1]
            switch name {
            case "--drives":
                guard let number = Int(text), number > 0 else { return usage("--drives takes a positive number") }
                drives = number
            case "--minutes":
                guard let number = Int(text), number > 0 else { return usage("--minutes takes a positive number") }
                minutes = number
            case "--seed":
                guard let number = UInt64(text) else { return usage("--seed takes a whole number") }
                seed = number
            case "--format":
                // CSV and GPX carry every field a replay reads; the other formats are for import timing.
                guard let chosen = BenchFormat(rawValue: text), chosen == .csv || chosen == .gpx else {
                    return usage("--format is csv or gpx, not '\(text)'")
                }
                format = chosen
            case "--out": out = text
            default: return usage("unknown option '\(name)'")
            }
            index += 2
        }
        guard let drives, let minutes, let out else { return usage("--drives, --minutes and --out are needed") }
        do {
            let paths = try FleetGenerator.write(drives: drives, minutes: minutes, seed: seed, format: format, to: out)
            FileHandle.standardError.write(
                Data(
                    ("wrote \(paths.count) drives of \(minutes) min (\(Bench.grouped(drives * minutes * 60)) fixes) "
                        + "to \(out)\n").utf8))
            return 0
        } catch {
            FileHandle.standardError.write(Data("tracesim-bench fleet: \(error)\n".utf8))
            return 73
        }
    }
}
