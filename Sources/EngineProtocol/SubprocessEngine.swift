import Device
import Engine
import Scenarios
import SimulationCore
import Synchronization
import Traces

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension EngineUnderTest {
    /// An engine in any language: `command` run through `/bin/sh -c`, spoken to over the
    /// lock-step JSON Lines protocol on its standard input and output
    /// (Documentation/TraceSim.docc/EngineProtocol.md).
    ///
    /// One process serves one run at a time and is reused for the next run with a `reset`,
    /// so a matrix starts at most one process per worker. A run whose engine exits, stays
    /// silent for more than `timeoutSeconds` on one event, or writes a line that is not a
    /// protocol message fails with an `EngineFailure` naming the run and the line of the
    /// engine's output; that process is killed with its process group and never reused. A
    /// process that cannot be started or does not say `hello` fails every later run of the
    /// pool at once, with its own failure. So does a run past `EngineLimits` (events at one
    /// instant, events and answers per run), or one whose engine accepts a fix it was not
    /// delivered or one off the globe. The engine's `hello` picks protocol version 1 or 2; in
    /// 2 its capabilities (`cancel`, `replaceTimers`) are used.
    ///
    /// Every process group started stays registered until it is reaped, so a program that
    /// handles SIGINT and SIGTERM can end them all (`tracesim` does; an embedding program
    /// calling `TraceSimCommandLine.main` does too).
    ///
    /// Writing to an engine that has exited must fail with `EPIPE`, not kill TraceSim, so the
    /// first use ignores `SIGPIPE` for the whole process (the `tracesim` executable does so
    /// anyway).
    ///
    /// - Parameters:
    ///   - command: a shell command line, e.g. `python3 engine.py`.
    ///   - timeoutSeconds: how long the engine may take over one event, from TraceSim's
    ///     message to the engine's `done`. A new process's `hello` may take at least 30 s.
    public static func subprocess(command: String, timeoutSeconds: Double = 10) -> EngineUnderTest {
        subprocess(pool: EngineProcessPool(command: command, timeoutSeconds: timeoutSeconds))
    }

    /// The engine behind `pool` (tests count its spawns).
    package static func subprocess(pool: EngineProcessPool) -> EngineUnderTest {
        .custom(named: "'\(VisibleText.escapingControls(pool.command))'") { context throws(EngineFailure) in
            try SubprocessClient(pool: pool, context: context)
        }
        .asking { () throws(EngineFailure) in try pool.declaredSettings() }
    }
}

/// The engine processes of one command: idle ones wait here between runs.
package final class EngineProcessPool: Sendable {
    package let command: String
    package let timeoutSeconds: Double
    private struct State {
        var idle: [EngineProcess] = []
        var spawned = 0
        /// The failure of the first process of this command that could not be started or did
        /// not say hello: every later take fails with it at once, instead of starting another
        /// process and waiting for a hello that will not come.
        var helloFailure: EngineFailure?
        /// Whether a process of this command has said hello: until one has, one process at a
        /// time is started, so an engine that cannot start (`python3 missing.py`) prints its
        /// error on standard error once, not once per parallel run.
        var hasGreeted = false
        /// Whether the first process is being started and greeted; other takes wait for it.
        var isFirstStarting = false
        /// `didUpdateLocationRun` messages the runs on these processes sent.
        var runMessages = 0
        /// Locations those messages carried that the engines consumed.
        var runLocations = 0
    }

    /// What a take does next.
    private enum Step {
        case fail(EngineFailure)
        case reuse(EngineProcess)
        case wait
        case start(isFirst: Bool)
    }
    private let state = Mutex(State())

    package init(command: String, timeoutSeconds: Double) {
        self.command = command
        self.timeoutSeconds = timeoutSeconds
        signal(SIGPIPE, SIG_IGN)
    }

    deinit {
        let idle = state.withLock { state in
            let idle = state.idle
            state.idle = []
            return idle
        }
        for process in idle { process.shutDown(grace: 1) }
    }

    /// How many processes were started so far.
    package var spawnCount: Int { state.withLock { $0.spawned } }

    /// How many `didUpdateLocationRun` messages the runs on this pool's processes sent, and
    /// how many locations the engines consumed from them: whether runs were used at all.
    package var runMessages: (messages: Int, locations: Int) {
        state.withLock { ($0.runMessages, $0.runLocations) }
    }

    /// Adds one run's `didUpdateLocationRun` messages and consumed locations to the counts.
    func count(runMessages messages: Int, locations: Int) {
        guard messages > 0 else { return }
        state.withLock {
            $0.runMessages += messages
            $0.runLocations += locations
        }
    }

    /// A live idle process, or a new one that has said `hello`.
    ///
    /// An idle process that has exited since its last run (or wrote something after it) is
    /// reaped and passed over: its end belongs to no run, and must not fail this one.
    ///
    /// Until a process has said hello, takes that need a new one wait for the first: its
    /// failure is every run's (its error printed once), and its hello lets the rest start.
    /// The wait is bounded by the first hello's own deadline.
    func take(run: String) throws(EngineFailure) -> (process: EngineProcess, isReused: Bool) {
        var isFirst = false
        steps: while true {
            let step = state.withLock { state -> Step in
                if let failure = state.helloFailure { return .fail(failure) }
                if let process = state.idle.popLast() { return .reuse(process) }
                if state.hasGreeted { return .start(isFirst: false) }
                if state.isFirstStarting { return .wait }
                state.isFirstStarting = true
                return .start(isFirst: true)
            }
            switch step {
            case .fail(let failure): throw failure
            case .reuse(let process): if process.isReusable() { return (process, true) }
            case .wait: usleep(1000)
            case .start(let first):
                isFirst = first
                break steps
            }
        }
        let process: EngineProcess
        do {
            process = try EngineProcess(command: command)
        } catch {
            throw remember(EngineFailure("run \(run): the engine could not be started: \(error)"), isFirst: isFirst)
        }
        state.withLock { $0.spawned += 1 }
        do {
            try greet(process, run: run)
        } catch {
            throw remember(error, isFirst: isFirst)
        }
        if isFirst {
            state.withLock {
                $0.hasGreeted = true
                $0.isFirstStarting = false
            }
        }
        return (process, false)
    }

    /// The settings the engine declares in its hello (none without the capability `settings`):
    /// a process is started and greeted if none is idle, then kept for the first run.
    func declaredSettings() throws(EngineFailure) -> [EngineSetting] {
        let (process, _) = try take(run: "(asking for its settings)")
        let settings = process.session?.settings ?? []
        giveBack(process)
        return settings
    }

    /// Keeps the first start or hello failure, and returns the one every take now fails with;
    /// the first process's failure also ends the others' wait.
    private func remember(_ failure: EngineFailure, isFirst: Bool) -> EngineFailure {
        state.withLock { state in
            if state.helloFailure == nil { state.helloFailure = failure }
            if isFirst { state.isFirstStarting = false }
            return state.helloFailure ?? failure
        }
    }

    /// A process whose run finished cleanly, ready for the next `reset`; one with output
    /// pending after its `done` (a late `log`, junk) or that has exited is ended instead, so
    /// no run is charged with what the engine wrote after another.
    func giveBack(_ process: EngineProcess) {
        guard process.isReusable() else { return }
        state.withLock { $0.idle.append(process) }
    }

    /// How long a new process may take to say hello at least: starting an interpreter or a
    /// virtual machine under load is slower than answering one event.
    static let minimumHelloSeconds = 30.0

    private func greet(_ process: EngineProcess, run: String) throws(EngineFailure) {
        _ = try Exchange.greet(process, run: run, timeoutSeconds: max(timeoutSeconds, Self.minimumHelloSeconds))
    }
}
