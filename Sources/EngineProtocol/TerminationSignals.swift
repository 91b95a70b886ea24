import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGINT and SIGTERM for a program that starts engines: every engine process group is ended
/// (`EngineProcessGroups.endAll`), then the program dies of the signal, as it would have
/// without this handling. A shell reports that as 128 + the signal's number (130, 143), and
/// only death by the signal stops a shell script's loop on Ctrl-C or tells a parent
/// (`subprocess`'s negative return code) that the run was interrupted.
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
        /// A signal was taken: the program dies of it, once the engines are ended.
        case stopping(signal: Int32)
    }

    private static let state = Mutex(State.running)
    /// Half-written files a signal removes (`removeOnStop(_:)`).
    private static let temporaryFiles = Mutex(TemporaryFiles())

    /// Removes `path` if a signal stops the program before `forgetTemporaryFile(_:)`.
    package static func removeOnStop(_ path: String) {
        temporaryFiles.withLock { $0.add(path) }
    }

    /// No longer removes `path` on a signal: it was renamed into place or removed.
    package static func forgetTemporaryFile(_ path: String) {
        temporaryFiles.withLock { $0.forget(path) }
    }

    /// Exits with `code`, unless a signal is being handled: then the signal's thread ends the
    /// program by that signal, once the engines are ended. (A run whose engine the signal
    /// ended fails, and the command would otherwise exit with that failure first.)
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
        temporaryFiles.withLock { $0.removeAll() }
        dieOf(signal)
    }

    /// Ends the program by `signal` itself: its default action restored, then raised with
    /// every thread still blocking it, so it is delivered to this thread once unblocked.
    /// `_exit(128 + signal)` only if the signal somehow leaves the process alive; `_exit`, not
    /// `exit`: other threads are still running, and `exit`'s handlers may wait on what they
    /// hold. Output is written unbuffered, so nothing is lost that `exit` would flush.
    private static func dieOf(_ signal: Int32) -> Never {
        var action = sigaction()
        #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = SIG_DFL
        #else
            action.__sigaction_u.__sa_handler = SIG_DFL
        #endif
        sigemptyset(&action.sa_mask)
        sigaction(signal, &action, nil)
        // Pending for the process (every thread blocks it), then delivered to this thread.
        kill(getpid(), signal)
        var only = sigset_t()
        sigemptyset(&only)
        sigaddset(&only, signal)
        pthread_sigmask(SIG_UNBLOCK, &only, nil)
        _exit(128 + signal)
    }
}

/// `exit(3)`, named apart from `TerminationSignals.exit`.
private func exitProcess(_ code: Int32) -> Never {
    exit(code)
}
