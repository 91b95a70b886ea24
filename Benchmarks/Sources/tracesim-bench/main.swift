import BenchmarkKit
import Foundation
import TraceSimCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("tracesim-bench: \(message)\n".utf8))
    exit(status)
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.isEmpty || arguments.contains("-h") || arguments.contains("--help") {
    print(Options.help)
    exit(arguments.isEmpty ? 64 : 0)
}
guard isReleaseBuild else {
    fail("this is a debug build, whose numbers mean nothing; build with 'swift build -c release'", status: 2)
}

switch arguments[0] {
case "serve-engine":
    // The protocol suite's built-in engine: what `tracesim serve-engine` runs.
    exit(TraceSimCommandLine.run(["serve-engine"]))
case "workload":
    guard arguments.count == 2, Workloads.names.contains(arguments[1]) else {
        fail("workload needs one of: \(Workloads.names.joined(separator: ", "))", status: 64)
    }
    exit(Workloads.run(arguments[1]))
case "generate":
    // tracesim-bench generate FORMAT FIXES OUT: a seeded drive for the memory measurement.
    guard arguments.count == 4, let format = BenchFormat(rawValue: arguments[1]), let fixes = Int(arguments[2]),
        fixes > 0
    else {
        fail(
            "generate needs FORMAT (\(BenchFormat.allCases.map(\.rawValue).joined(separator: "|"))) FIXES OUT",
            status: 64)
    }
    do {
        try HugeTraceWriter.write(format, fixes: fixes, seed: 7, to: arguments[3])
    } catch {
        fail("cannot write \(arguments[3]): \(error)", status: 73)
    }
case "fleet":
    exit(FleetCommand.run(Array(arguments.dropFirst())))
case "run":
    let options: Options
    do {
        options = try Options(Array(arguments.dropFirst()))
    } catch {
        fail("\(error); see --help", status: 64)
    }
    let bench = Bench(options: options)
    if options.python == nil { bench.progress("no --python: peers are not run and targets are not judged") }
    do {
        if options.suites.contains("import") { try ImportSuite.run(bench) }
        if options.suites.contains("pipeline") { try PipelineSuite.run(bench) }
        if options.suites.contains("geofencing") { try GeofencingSuite.run(bench) }
        if options.suites.contains("matrix") { try MatrixSuite.run(bench) }
        if options.suites.contains("config") { try ConfigSuite.run(bench) }
        if options.suites.contains("merge") { try MergeSuite.run(bench) }
        if options.suites.contains("protocol") { try ProtocolSuite.run(bench) }
        if options.suites.contains("facade") { try FacadeSuite.run(bench) }
        if options.suites.contains("fleet") { try FleetSuite.run(bench) }
    } catch {
        fail("\(error)", status: 1)
    }
    let today = ISO8601DateFormatter.string(
        from: Date(), timeZone: TimeZone(identifier: "UTC") ?? .current, formatOptions: [.withFullDate])
    let report = BenchmarkReport(
        date: today, machine: .current(), plan: options.plan, rows: bench.rows, targets: Targets.judge(bench.rows))
    let markdown = report.markdown()
    print(markdown, terminator: "")
    do {
        if let path = options.json { try Data(report.json().utf8).write(to: URL(fileURLWithPath: path)) }
        if let path = options.markdown { try Data(markdown.utf8).write(to: URL(fileURLWithPath: path)) }
    } catch {
        fail("cannot write the report: \(error)", status: 73)
    }
    if !bench.failures.isEmpty {
        fail("\(bench.failures.count) check(s) failed:\n  " + bench.failures.joined(separator: "\n  "), status: 1)
    }
default:
    fail("unknown command '\(arguments[0])'; use 'run', 'workload', 'generate' or 'fleet' (see --help)", status: 64)
}
