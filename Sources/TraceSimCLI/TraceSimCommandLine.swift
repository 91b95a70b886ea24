/// The `tracesim` command line, as a library so tests run it in-process.
public enum TraceSimCommandLine {
    /// The version printed by `--version`.
    public static let version = "0.1.0"

    static let overview = """
        OVERVIEW: Replay recorded GPS traces through a simulated iPhone and see what each
        location permission level costs. This release reads and converts traces, encodes the
        simulated iPhone's rules, runs the SDK permission flows, and replays a trace through
        the tracking engine.

        USAGE: tracesim <command> [<arguments>] [--help]

        COMMANDS:
          inspect                 Report what trace files hold: format, fixes, span, accuracy kind,
                                  and what was skipped, merged or re-sorted.
          convert                 Convert a trace to TraceSim CSV, JSON Lines or GPX.
          rules                   List the simulated iPhone's iOS rules and parameters with sources.
          permissions             Run a simulated person through an SDK's permission flow, or compare
                                  the four SDK layers on a person or a whole population.
          track                   Replay a trace through the simulated iPhone and the tracking engine:
                                  what was collected, rejected, and when GPS was on.
          scenarios               List the built-in scenarios, one per permission level.
          replay                  Replay a trace through one scenario, against the ideal run.
          matrix                  Replay traces through every scenario: the degradation table.
          check                   Fail (exit 1) when a metric crosses a threshold; JUnit and Markdown.
          merge                   Join the JSON parts of a sharded matrix into the unsharded output.
          tune                    Sweep engine settings: fixes kept against error, with the Pareto front.
          help <command>          Show a command's help.

        OPTIONS:
          -h, --help              Show this help.
          --version               Show the version.

        Run 'tracesim help <command>' for a command's arguments and options.
        """

    private static let commandNames = [
        InspectCommand.name, ConvertCommand.name, RulesCommand.name, PermissionsCommand.name, TrackCommand.name,
        ScenariosCommand.name, ReplayCommand.name, MatrixCommand.name, CheckCommand.name, MergeCommand.name,
        TuneCommand.name,
    ]

    private static func help(for command: String) -> String? {
        switch command {
        case InspectCommand.name: InspectCommand.help
        case ConvertCommand.name: ConvertCommand.help
        case RulesCommand.name: RulesCommand.help
        case PermissionsCommand.name: PermissionsCommand.help
        case TrackCommand.name: TrackCommand.help
        case ScenariosCommand.name: ScenariosCommand.help
        case ReplayCommand.name: ReplayCommand.help
        case MatrixCommand.name: MatrixCommand.help
        case CheckCommand.name: CheckCommand.help
        case MergeCommand.name: MergeCommand.help
        case TuneCommand.name: TuneCommand.help
        default: nil
        }
    }

    private static func run(command: String, _ arguments: [String], console: Console) throws(UsageError) -> ExitCode {
        switch command {
        case InspectCommand.name: return try InspectCommand.run(arguments, console: console)
        case ConvertCommand.name: return try ConvertCommand.run(arguments, console: console)
        case RulesCommand.name: return try RulesCommand.run(arguments, console: console)
        case PermissionsCommand.name: return try PermissionsCommand.run(arguments, console: console)
        case TrackCommand.name: return try TrackCommand.run(arguments, console: console)
        case ScenariosCommand.name: return try ScenariosCommand.run(arguments, console: console)
        case ReplayCommand.name: return try ReplayCommand.run(arguments, console: console)
        case MatrixCommand.name: return try MatrixCommand.run(arguments, console: console)
        case CheckCommand.name: return try CheckCommand.run(arguments, console: console)
        case MergeCommand.name: return try MergeCommand.run(arguments, console: console)
        case TuneCommand.name: return try TuneCommand.run(arguments, console: console)
        default: throw unknownCommand(command)
        }
    }

    /// Runs one command line and returns the process exit code.
    /// - Parameters:
    ///   - arguments: the arguments after the program name.
    ///   - console: where output and diagnostics go.
    public static func run(_ arguments: [String], console: Console = .standard) -> Int32 {
        let code: ExitCode
        do {
            code = try dispatch(arguments, console: console)
        } catch {
            console.warn("error: \(error.message)")
            let helpCommand = error.command.map { "tracesim help \($0)" } ?? "tracesim --help"
            console.warn("Run '\(helpCommand)' for usage.")
            code = .usage
        }
        // Output that was lost outranks any other outcome: what the caller read is incomplete,
        // possibly including the diagnostic that explained another exit code.
        if let streams = console.streams, streams.failure != nil {
            streams.reportFailure()
            return ExitCode.ioError.rawValue
        }
        return code.rawValue
    }

    private static func dispatch(_ arguments: [String], console: Console) throws(UsageError) -> ExitCode {
        guard let first = arguments.first else {
            console.print(overview)
            return .usage
        }
        switch first {
        case "-h", "--help":
            console.print(overview)
            return .success
        case "--version":
            console.print("tracesim \(version)")
            return .success
        case "help":
            guard arguments.count > 1 else {
                console.print(overview)
                return .success
            }
            guard let text = help(for: arguments[1]) else { throw unknownCommand(arguments[1]) }
            console.print(text)
            return .success
        default:
            return try run(command: first, Array(arguments.dropFirst()), console: console)
        }
    }

    private static func unknownCommand(_ name: String) -> UsageError {
        let nearest = commandNames.min { editDistance($0, name) < editDistance($1, name) }
        let hint = nearest.map { editDistance($0, name) <= 3 ? " (did you mean '\($0)'?)" : "" } ?? ""
        return UsageError("unknown command '\(name)'\(hint)")
    }
}
