import Engine
import EngineProtocol
import Scenarios
import SimulationCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `tracesim` command line, as a library so tests run it in-process.
public enum TraceSimCommandLine {
    /// The version printed by `--version`.
    public static let version = TraceSimVersion.current

    static let overview = """
        OVERVIEW: Replay recorded GPS traces through a simulated iPhone and see what each
        location permission level costs: read and convert traces, list the simulated iPhone's
        rules, run the SDK permission flows, replay traces through scenarios against the ideal
        run, gate CI on thresholds, shard and merge large matrices, and tune the engine.

        USAGE: tracesim <command> [<arguments>] [--help]

        COMMANDS:
          inspect                 Report what trace files hold: format, fixes, span, accuracy kind,
                                  and what was skipped, merged or re-sorted.
          convert                 Convert a trace to TraceSim CSV, JSON Lines or GPX.
          rules                   List the simulated iPhone's iOS rules and parameters with sources.
          calibrate               Print simulated beside published field figures (significant change,
                                  the When-In-Use cutoff); exit 1 if an asserted one fails.
          permissions             Run a simulated person through an SDK's permission flow, or compare
                                  the four SDK layers on a person or a whole population.
          track                   Replay a trace through the simulated iPhone and the tracking engine:
                                  what was collected, rejected, and when GPS was on.
          scenarios               List the built-in scenarios, one per permission level.
          replay                  Replay a trace through one scenario, against the ideal run.
          matrix                  Replay traces through every scenario: the degradation table.
          check                   Fail (exit 1) when a metric crosses a threshold; JUnit and Markdown.
          merge                   Join the parts of a sharded matrix (JSON or JSON Lines) into the
                                  unsharded output.
          summarize               Print a matrix's tables from its saved JSON Lines runs.
          tune                    Sweep engine settings: fixes kept against error, with the Pareto front.
          serve-engine            Run the built-in engine behind the engine protocol (stdin/stdout),
                                  for --engine-command.
          help <command>          Show a command's help.

        OPTIONS:
          -h, --help              Show this help.
          --version               Show the version.

        Run 'tracesim help <command>' for a command's arguments and options.
        """

    /// Every command, in the order the overview lists them.
    static let commands: [any Command.Type] = [
        InspectCommand.self, ConvertCommand.self, RulesCommand.self, CalibrateCommand.self, PermissionsCommand.self,
        TrackCommand.self,
        ScenariosCommand.self, ReplayCommand.self, MatrixCommand.self, CheckCommand.self, MergeCommand.self,
        SummarizeCommand.self, TuneCommand.self, ServeEngineCommand.self,
    ]

    private static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.declaration.name == name }
    }

    /// Parses the arguments against the command's declaration, answers `--help`, applies
    /// `--quiet`, and runs it.
    private static func run(
        _ command: any Command.Type, _ arguments: [String], console: Console, engine: EngineUnderTest
    ) throws -> ExitCode {
        let declaration = command.declaration
        var parsed = try ParsedArguments(arguments, declaration: declaration)
        if parsed.flag("help") {
            console.print(ProgramName.rename(declaration.help, to: console.programName))
            return .success
        }
        parsed.engine = try EngineArguments.engine(parsed, embedded: engine, command: declaration.name)
        var console = console
        console.isQuiet = parsed.flag("quiet")
        return try command.run(parsed, console: console)
    }

    /// The whole command line for a program that puts its own engine under test: `replay`,
    /// `matrix` and `check` replay `engine` instead of the built-in one (ideal runs
    /// included); the other commands are unchanged. Exits with the command's exit code.
    ///
    ///     // main.swift of a package that depends on TraceSim
    ///     TraceSimCommandLine.main(engine: .custom(named: "my-engine") { _ in MyEngine() })
    public static func main(engine: EngineUnderTest = .builtIn) -> Never {
        // SIGINT and SIGTERM end every engine process group TraceSim started (an engine runs
        // in a group of its own, which Ctrl-C never reaches) and remove a half-written report's
        // temporary file, then TraceSim dies of the signal, so a shell script stops on Ctrl-C.
        // First, before any other thread exists, so every thread keeps the two signals blocked.
        TerminationSignals.handle()
        // A reader that goes away (`tracesim matrix | head`) must not kill the process with
        // SIGPIPE: death by that signal skips the cleanup of a half-written report's temporary
        // file and gives the caller exit 141 with no message. Ignored, the write fails with EPIPE,
        // the shared writer records it, and the command line exits 74 with "output error:
        // stdout: Broken pipe". SIGXFSZ (a file-size limit, `ulimit -f`) likewise becomes
        // EFBIG and exit 74.
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
        // Help and errors name the program as it was started (`trip-tracker`), not `tracesim`.
        var console = Console.standard
        console.programName = ProgramName.of(invocation: CommandLine.arguments.first)
        // Through TerminationSignals: after a signal, death by it wins over the failed run's code.
        TerminationSignals.exit(run(Array(CommandLine.arguments.dropFirst()), console: console, engine: engine))
    }

    /// `main(engine:)` for an engine written against `LocationClient` directly: `client` makes
    /// a fresh one for every run, told the run's scenario, geofences and trace. The factory
    /// runs on the matrix's worker threads, so the client's type must be usable from any of
    /// them (`SendableMetatype`, which every type without an isolated conformance is).
    public static func main<Client: RecordingClient & SendableMetatype>(
        named name: String, client: @escaping @Sendable (EngineContext) -> Client
    ) -> Never {
        main(engine: .custom(named: name) { context in client(context) })
    }

    /// `main(named:client:)` for an engine with settings of its own that `tune` sweeps: each
    /// run's `EngineContext.settings` holds the value of every setting in `settings` (the
    /// swept value, the scenario's `engineSettings`, or the default).
    ///
    ///     TraceSimCommandLine.main(
    ///         named: "my-engine",
    ///         settings: [EngineSetting(name: "accuracyMeters", kind: .number(5...500), defaultValue: .number(50))]
    ///     ) { context in MyEngine(accuracy: context.settings.number("accuracyMeters") ?? 50) }
    ///
    /// - Parameters:
    ///   - name: how reports and errors name the engine.
    ///   - settings: the settings the engine takes; `tune --sweep NAME=…` names them.
    ///   - client: makes a fresh client for every run.
    public static func main<Client: RecordingClient & SendableMetatype>(
        named name: String, settings: [EngineSetting], client: @escaping @Sendable (EngineContext) -> Client
    ) -> Never {
        main(engine: .custom(named: name, settings: settings) { context in client(context) })
    }

    /// Runs one command line and returns the process exit code.
    /// - Parameters:
    ///   - arguments: the arguments after the program name.
    ///   - console: where output and diagnostics go; help and errors name its `programName`.
    ///   - engine: what `replay`, `matrix`, `check` and `tune` put under test (`track` refuses
    ///     an engine of your own; `tune` sweeps the settings it declares).
    public static func run(
        _ arguments: [String], console: Console = .standard, engine: EngineUnderTest = .builtIn
    ) -> Int32 {
        let code: ExitCode
        do {
            code = try dispatch(arguments, console: console, engine: engine)
        } catch let error as UsageError {
            console.warn("error: " + ProgramName.rename(error.message, to: console.programName))
            let program = console.programName
            let helpCommand = error.command.map { "\(program) help \($0)" } ?? "\(program) --help"
            console.warn("Run '\(helpCommand)' for usage.")
            code = .usage
        } catch let failure as CommandFailure {
            if failure.exitCode == .engineFailed, let signal = TerminationSignals.stoppingSignal {
                // TraceSim ended the engine on the signal: the run failed because of that, and
                // blaming the engine ("it was killed by signal 15") would send its author hunting.
                console.warn(
                    "error: stopped by \(TerminationSignals.name(signal)): TraceSim ended the engine processes "
                        + "it started, so the run in progress did not finish")
            } else {
                console.report(failure)
            }
            code = failure.exitCode
        } catch {
            // Commands throw only the two above; anything else is still reported, never lost.
            console.warn("error: \(error)")
            code = .failure
        }
        // Output that was lost outranks any other outcome: what the caller read is incomplete,
        // possibly including the diagnostic that explained another exit code.
        if let streams = console.streams, streams.failure != nil {
            streams.reportFailure()
            return ExitCode.ioError.rawValue
        }
        return code.rawValue
    }

    private static func dispatch(_ arguments: [String], console: Console, engine: EngineUnderTest) throws
        -> ExitCode
    {
        let overview = ProgramName.rename(overview, to: console.programName)
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
            guard let command = command(named: arguments[1]) else { throw unknownCommand(arguments[1]) }
            console.print(ProgramName.rename(command.declaration.help, to: console.programName))
            return .success
        default:
            guard let command = command(named: first) else { throw unknownCommand(first) }
            return try run(command, Array(arguments.dropFirst()), console: console, engine: engine)
        }
    }

    private static func unknownCommand(_ name: String) -> UsageError {
        let nearest = commands.map { $0.declaration.name }.min { editDistance($0, name) < editDistance($1, name) }
        let hint = nearest.map { editDistance($0, name) <= 3 ? " (did you mean '\($0)'?)" : "" } ?? ""
        return UsageError("unknown command '\(name)'\(hint)")
    }
}
