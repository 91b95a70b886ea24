import BenchmarkKit

/// `tracesim-bench run`'s options.
struct Options {
    static let help = """
        OVERVIEW: TraceSim's benchmarks, with its peers measured on the same inputs in the same run.

        USAGE: tracesim-bench run [options]
               tracesim-bench workload <import|pipeline|geofencing|config>
                                       (the fixed small workloads whose instruction counts are gated)
               tracesim-bench generate <gpx|csv|jsonl|nmea|gnsslogger> <fixes> <file>
                                       (a seeded drive of any length, written in slices)

        OPTIONS:
          --suites <list>         Comma-separated: import, pipeline, geofencing, matrix, config, merge,
                                  protocol, facade
                                  (default: all).
          --sizes <list>          Fix counts for the import suite (default 10000,100000,1000000).
          --peer-fixes <n>        Largest input gpxpy is given (default 100000: it needs about a
                                  minute per million points).
          --pipeline-fixes <n>    Fixes in the generated drive the pipeline suite replays
                                  (default 1000000).
          --polygons <list>       Polygon counts for the geofencing suite (default 10,100,1000,10000).
          --points <n>            Points per geofencing case (default 1000000).
          --runs <n>              Timed runs per case (default 5); --warmups <n> untimed (default 1).
          --seed <n>              Seed of every generated input (default 2026).
          --python <path>         Interpreter with the peers' packages (Scripts/run-benchmarks.sh
                                  makes one); without it, peers are not run and targets not judged.
          --root <dir>            The TraceSim checkout: bundled traces and peer scripts (default .).
          --work <dir>            Where generated inputs go (default .build/bench-inputs).
          --json <file>           Write the report as JSON.
          --markdown <file>       Write the table as Markdown.
          -h, --help              Show this help.

        A debug build refuses to run: build with -c release.
        """

    var suites: Set<String> = ["import", "pipeline", "geofencing", "matrix", "config", "merge", "protocol", "facade"]
    var sizes = [10_000, 100_000, 1_000_000]
    var peerFixes = 100_000
    var pipelineFixes = 1_000_000
    var polygons = [10, 100, 1_000, 10_000]
    var points = 1_000_000
    var plan = RunPlan(warmups: 1, runs: 5)
    var seed: UInt64 = 2026
    var python: String?
    var root = "."
    var work = ".build/bench-inputs"
    var json: String?
    var markdown: String?

    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    init(_ arguments: [String]) throws(Invalid) {
        var index = 0
        func value(_ name: String) throws(Invalid) -> String {
            index += 1
            guard index < arguments.count else { throw Invalid(description: "\(name) needs a value") }
            return arguments[index]
        }
        func count(_ name: String, _ text: String) throws(Invalid) -> Int {
            guard let number = Int(text.replacingOccurrences(of: "_", with: "")), number > 0 else {
                throw Invalid(description: "\(name) takes positive whole numbers, not '\(text)'")
            }
            return number
        }
        func list(_ name: String) throws(Invalid) -> [Int] {
            var numbers: [Int] = []
            for part in try value(name).split(separator: ",") { numbers.append(try count(name, String(part))) }
            return numbers
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--suites":
                let chosen = Set(try value(argument).split(separator: ",").map(String.init))
                let unknown = chosen.subtracting(suites)
                guard unknown.isEmpty else {
                    throw Invalid(description: "unknown suite '\(unknown.sorted()[0])'; choose from \(suites.sorted())")
                }
                suites = chosen
            case "--sizes": sizes = try list(argument)
            case "--peer-fixes": peerFixes = try count(argument, try value(argument))
            case "--pipeline-fixes": pipelineFixes = try count(argument, try value(argument))
            case "--polygons": polygons = try list(argument)
            case "--points": points = try count(argument, try value(argument))
            case "--runs": plan.runs = try count(argument, try value(argument))
            case "--warmups":
                let text = try value(argument)
                guard let number = Int(text), number >= 0 else {
                    throw Invalid(description: "--warmups takes a whole number, not '\(text)'")
                }
                plan.warmups = number
            case "--seed":
                guard let number = UInt64(try value(argument)) else { throw Invalid(description: "--seed is a number") }
                seed = number
            case "--python": python = try value(argument)
            case "--root": root = try value(argument)
            case "--work": work = try value(argument)
            case "--json": json = try value(argument)
            case "--markdown": markdown = try value(argument)
            default: throw Invalid(description: "unknown option '\(argument)'")
            }
            index += 1
        }
    }
}
