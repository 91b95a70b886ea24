import BenchmarkKit

/// `tracesim-bench run`'s options.
struct Options {
    static let help = """
        OVERVIEW: TraceSim's benchmarks, with its peers measured on the same inputs in the same run.

        USAGE: tracesim-bench run [options]
               tracesim-bench workload <import|pipeline|geofencing|config|replay-runs|protocol|facade>
                                       (the fixed small workloads whose instruction counts are gated)
               tracesim-bench generate <gpx|csv|jsonl|nmea|gnsslogger> <fixes> <file>
                                       (a seeded drive of any length, written in slices)
               tracesim-bench fleet --drives <n> --minutes <m> [--seed <n>] [--format csv|gpx] --out <dir>
                                       (a seeded fleet of 1 Hz drives, one file each, in a new folder)

        OPTIONS:
          --suites <list>         Comma-separated: import, pipeline, geofencing, matrix, config, merge,
                                  protocol, facade (default: all of these), and fleet (only when
                                  named: it runs the tracesim binary for several minutes).
          --sizes <list>          Fix counts for the import suite (default 10000,100000,1000000).
          --peer-fixes <n>        Largest input gpxpy is given (default 100000: it needs about a
                                  minute per million points).
          --pipeline-fixes <n>    Fixes in the generated drive the pipeline suite replays
                                  (default 1000000).
          --polygons <list>       Polygon counts for the geofencing suite (default 10,100,1000,10000).
          --points <n>            Points per geofencing case (default 1000000).
          --runs <n>              Timed runs per case (default 5); --warmups <n> untimed (default 1).
          --seed <n>              Seed of every generated input (default 2026).
          --fleet-drives <n>      Drives in the fleet suite's fleet (default 2000).
          --fleet-minutes <n>     Minutes per fleet drive (default 60).
          --memory-traces <list>  Trace counts the fleet suite measures peak memory at
                                  (default 10,100,1000).
          --memory-minutes <n>    Minutes per drive of those traces (default 10).
          --tracesim <path>       The tracesim the fleet suite runs (default
                                  <root>/.build/release/tracesim).
          --ray-command <cmd>     A shell command the fleet suite runs for Ray on 1 and 2 CPUs, with
                                  {tracesim}, {traces} (a file of trace paths, one a line),
                                  {fleet} (their folder), {cpus} and {output} (where the merged
                                  JSON Lines must go) replaced; see Benchmarks/README.md.
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
    /// Suites that run only when named: too slow for the everyday table.
    static let optInSuites: Set<String> = ["fleet"]
    var sizes = [10_000, 100_000, 1_000_000]
    var peerFixes = 100_000
    var pipelineFixes = 1_000_000
    var polygons = [10, 100, 1_000, 10_000]
    var points = 1_000_000
    var plan = RunPlan(warmups: 1, runs: 5)
    var seed: UInt64 = 2026
    var fleetDrives = 2_000
    var fleetMinutes = 60
    var memoryTraces = [10, 100, 1_000]
    var memoryMinutes = 10
    var tracesim: String?
    var rayCommand: String?
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
                let known = suites.union(Self.optInSuites)
                let unknown = chosen.subtracting(known)
                guard unknown.isEmpty else {
                    throw Invalid(description: "unknown suite '\(unknown.sorted()[0])'; choose from \(known.sorted())")
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
            case "--fleet-drives": fleetDrives = try count(argument, try value(argument))
            case "--fleet-minutes": fleetMinutes = try count(argument, try value(argument))
            case "--memory-traces": memoryTraces = try list(argument)
            case "--memory-minutes": memoryMinutes = try count(argument, try value(argument))
            case "--tracesim": tracesim = try value(argument)
            case "--ray-command": rayCommand = try value(argument)
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
