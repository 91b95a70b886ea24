import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGINT and SIGTERM for a program that starts engines: every engine process group is ended
/// (`EngineProcessGroups.endAll`) and the program exits with 128 + the signal's number (130,
/// 143), as a shell reports a program the signal ended.
///
/// The signals are blocked in every thread and taken by one thread of their own with
/// `sigwait`, so the work happens in ordinary code, not in a signal handler, where almost
/// nothing is safe. Engines start with no signal blocked (`EngineProcess`). A signal the
/// program was started with ignored (a shell's background job ignores SIGINT) stays ignored.
package enum TerminationSignals {
    /// How long engines get to exit after `SIGTERM` before `SIGKILL`.
    package static let graceSeconds = 1.0

    private enum State {
        case running
        /// The program is exiting with its own code: a signal now changes nothing.
        case exiting
        /// A signal was taken: the program exits with its code, once the engines are ended.
        case stopping(signal: Int32)
    }

    private static let state = Mutex(State.running)

    /// Exits with `code`, unless a signal is being handled: then the signal's thread exits
    /// the program with 128 + the signal, once the engines are ended. (A run whose engine the
    /// signal ended fails, and the command would otherwise exit with that failure first.)
    package static func exit(_ code: Int32) -> Never {
        let isStopping = state.withLock { state in
            if case .stopping = state { return true }
            state = .exiting
            return false
        }
        while isStopping { pause() }
        exitProcess(code)
    }

    /// The signal being handled, once one was taken: the engines are being ended by TraceSim,
    /// so a run failing now failed because of it, not because of its engine.
    package static var stoppingSignal: Int32? {
        state.withLock { state in
            if case .stopping(let signal) = state { return signal }
            return nil
        }
    }

    /// How a message names `signal`.
    package static func name(_ signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        default: "signal \(signal)"
        }
    }

    /// Blocks the signals and starts the thread that waits for them. Call it first thing in
    /// `main`, before any other thread exists: a thread started earlier would keep the signals
    /// unblocked and could be the one they end.
    package static func handle() {
        var signals = handledSignals()
        guard sigismember(&signals, SIGINT) == 1 || sigismember(&signals, SIGTERM) == 1 else { return }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        #if canImport(Glibc)
            var thread = pthread_t()
        #else
            var thread: pthread_t?
        #endif
        pthread_create(&thread, nil, { _ in TerminationSignals.waitAndEnd() }, nil)
    }

    /// SIGINT and SIGTERM, less those the program was started with ignored.
    private static func handledSignals() -> sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGINT, SIGTERM] {
            var current = sigaction()
            sigaction(signal, nil, &current)
            if !isIgnored(current) { sigaddset(&signals, signal) }
        }
        return signals
    }

    private static func isIgnored(_ action: sigaction) -> Bool {
        // C function pointers are not Equatable in Swift: compared by address.
        #if canImport(Glibc)
            let handler = action.__sigaction_handler.sa_handler
        #else
            let handler = action.__sigaction_u.__sa_handler
        #endif
        return handler.map { unsafeBitCast($0, to: Int.self) } == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    private static func waitAndEnd() -> Never {
        var signals = handledSignals()
        var signal: Int32 = 0
        while sigwait(&signals, &signal) != 0 {}
        let isExiting = state.withLock { state in
            if case .exiting = state { return true }
            state = .stopping(signal: signal)
            return false
        }
        // The program is already on its way out with its own code.
        while isExiting { pause() }
        EngineProcessGroups.endAll(graceSeconds: graceSeconds)
        // `_exit`: other threads are still running, and `exit`'s handlers may wait on what
        // they hold. Output is written unbuffered, so nothing is lost that `exit` would flush.
        _exit(128 + signal)
    }
}

/// `exit(3)`, named apart from `TerminationSignals.exit`.
private func exitProcess(_ code: Int32) -> Never {
    exit(code)
}
