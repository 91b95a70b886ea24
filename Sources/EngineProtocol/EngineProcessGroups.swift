import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every engine process group TraceSim started and has not reaped yet, so that TraceSim,
/// stopped by a signal, ends them all instead of leaving them running.
///
/// An engine runs in a process group of its own (so that a failure ends it with its
/// children), which also means the terminal's Ctrl-C never reaches it. A process that calls
/// `setsid()` or `setpgid()` leaves its group and escapes; nothing TraceSim can do about it.
package enum EngineProcessGroups {
    private struct State {
        var groups: [pid_t] = []
        /// Set once TraceSim is ending them all: no engine is started after that.
        var isEnding = false
    }

    private static let state = Mutex(State())

    /// Starts a process through `spawn` and registers its group (the process's id) in one
    /// step, so that a signal cannot come between the two and miss it.
    /// - Throws: `EngineProcess.Failure.spawnFailed` once TraceSim is ending every engine, or
    ///   what `spawn` throws.
    static func spawning<Result>(
        _ spawn: () throws(EngineProcess.Failure) -> (pid_t, Result)
    ) throws(EngineProcess.Failure) -> (pid_t, Result) {
        try state.withLock { state throws(EngineProcess.Failure) in
            guard !state.isEnding else { throw .spawnFailed("TraceSim is stopping") }
            let started = try spawn()
            state.groups.append(started.0)
            return started
        }
    }

    /// Kills the group of `leader` and forgets it, before its leader is reaped: a reaped
    /// leader's id may go to another process at once, which the signal path must never hit.
    static func killAndForget(_ leader: pid_t) {
        state.withLock { state in
            state.groups.removeAll { $0 == leader }
            _ = kill(-leader, SIGKILL)
        }
    }

    /// How many groups are registered (tests).
    package static var count: Int { state.withLock { $0.groups.count } }

    /// Ends every registered group: `SIGTERM` to each, up to `graceSeconds` for every process
    /// in them to exit, then `SIGKILL` to every group still registered. No engine starts
    /// afterwards.
    package static func endAll(graceSeconds: Double) {
        let groups = state.withLock { state in
            state.isEnding = true
            for leader in state.groups { _ = kill(-leader, SIGTERM) }
            return state.groups
        }
        let deadline = Deadline(secondsFromNow: graceSeconds)
        while !groups.isEmpty, !deadline.hasPassed, hasLiveProcess(in: groups) { usleep(10_000) }
        state.withLock { state in
            for leader in state.groups { _ = kill(-leader, SIGKILL) }
        }
    }

    /// Whether a process of `groups` is still running. The leader's exit alone says little: a
    /// shell leader dies of SIGTERM at once while the engine it runs is still handling it.
    /// Without a process table, the grace is waited out.
    private static func hasLiveProcess(in groups: [pid_t]) -> Bool {
        guard let processes = ProcessTable.processes() else { return true }
        return processes.contains { !$0.isZombie && groups.contains($0.group) }
    }
}
