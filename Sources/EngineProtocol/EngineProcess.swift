import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One engine process: `/bin/sh -c COMMAND` in a process group of its own, its standard input
/// and output piped to us, its standard error left on ours (an engine's traceback reaches
/// the person running TraceSim as it was written).
///
/// Reads and writes wait at most until a deadline (`poll`), so a hung engine fails its run
/// instead of hanging TraceSim; the wall clock is used for that alone and never reaches
/// output. Owned by one run at a time (the pool hands it out), hence `@unchecked Sendable`.
final class EngineProcess: EngineConnection, @unchecked Sendable {
    /// Why talking to the process stopped.
    enum Failure: Error, Equatable {
        /// No complete line before the deadline.
        case timedOut
        /// The process ended, or left its output to another: how (`it exited with status 3`).
        case exited(String)
        /// The process is running but closed its input: it cannot read another message.
        case inputClosed
        /// A line longer than `maximumLineBytes`.
        case lineTooLong
        /// Writing to its input failed for a reason other than the process's end.
        case writeFailed(String)
        /// The process could not be started.
        case spawnFailed(String)
    }

    /// A line longer than this is refused (a runaway engine must not exhaust memory).
    static let maximumLineBytes = 1 << 20

    /// How long the process may take to finish exiting, or to write what it still had, once
    /// it closed its output or its input.
    private static let endingGraceSeconds = 1.0

    let pid: pid_t
    /// Our end of the engine's standard input.
    let input: Int32
    private let output: Int32
    private var buffer = LineBuffer()
    private var chunk = [UInt8](repeating: 0, count: 65_536)
    private var isReaped = false
    private var isInputClosed = false
    /// Lines read from the process's output so far: the number of the next line is this + 1.
    private(set) var linesRead = 0
    var session: EngineSession?

    /// Starts `command` through `/bin/sh -c`.
    init(command: String) throws(Failure) {
        #if canImport(Glibc)
            (pid, (input, output)) = try EngineProcessGroups.spawning { () throws(Failure) in try Self.spawn(command) }
        #else
            (pid, (input, output)) = try Self.spawnLock.withLock { _ throws(Failure) in
                try EngineProcessGroups.spawning { () throws(Failure) in try Self.spawn(command) }
            }
        #endif
        _ = fcntl(input, F_SETFL, fcntl(input, F_GETFL) | O_NONBLOCK)
        _ = fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK)
    }

    #if canImport(Glibc)
        private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32

        /// Glibc's `pipe2` (since 2.9). Swift's Glibc module does not declare it (it is behind
        /// `_GNU_SOURCE`), so it is looked up once by name; the C calling convention is exact.
        private static let pipe2Function: Pipe2? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pipe2").map {
            unsafeBitCast($0, to: Pipe2.self)
        }

        /// A pipe whose ends are close-on-exec from the moment they exist, so no fork anywhere
        /// in the process (another worker's engine, a `Foundation.Process`) can inherit them:
        /// an inherited end would keep an engine's input open after TraceSim closes it.
        private static func makePipe(_ descriptors: inout [Int32]) -> Bool {
            guard let pipe2Function else {
                errno = ENOSYS
                return false
            }
            return descriptors.withUnsafeMutableBufferPointer { pipe2Function($0.baseAddress, O_CLOEXEC) } == 0
        }
    #else
        /// Held from creating the pipes until they are marked close-on-exec and the child runs
        /// (Darwin has no `pipe2`): TraceSim's own spawns never inherit another's pipe ends,
        /// though a fork elsewhere in the process still can in that window.
        private static let spawnLock = Mutex(())

        private static func makePipe(_ descriptors: inout [Int32]) -> Bool {
            guard pipe(&descriptors) == 0 else { return false }
            for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
            return true
        }
    #endif

    private static func spawn(_ command: String) throws(Failure) -> (pid_t, (input: Int32, output: Int32)) {
        var toChild: [Int32] = [-1, -1]
        var fromChild: [Int32] = [-1, -1]
        guard makePipe(&toChild) else { throw .spawnFailed(errorText(errno)) }
        guard makePipe(&fromChild) else {
            let error = errno
            close(toChild[0])
            close(toChild[1])
            throw .spawnFailed(errorText(error))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group, so a failure ends the engine and every child it started;
        // SIGPIPE back to its default (TraceSim ignores it, and an ignored signal stays
        // ignored across exec); and no signal blocked (TraceSim blocks SIGINT and SIGTERM to
        // take them in a thread of its own, and a blocked signal stays blocked across exec:
        // the engine would never see the SIGTERM that ends it).
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var child: pid_t = 0
        let arguments = ["/bin/sh", "-c", command]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let status = posix_spawn(&child, "/bin/sh", &actions, &attributes, &argv, environ)
        close(toChild[0])
        close(fromChild[1])
        guard status == 0 else {
            close(toChild[1])
            close(fromChild[0])
            throw .spawnFailed(errorText(status))
        }
        return (child, (toChild[1], fromChild[0]))
    }

    deinit { terminate() }

    /// Writes `line` and a newline, waiting at most until `deadline`.
    func send(lineBytes bytes: [UInt8], deadline: Deadline) throws(Failure) {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
            if count > 0 {
                written += count
                continue
            }
            let error = errno
            if count < 0, error == EINTR { continue }
            if count < 0, error == EPIPE { throw ending(deadline: deadline) }
            guard count < 0, error == EAGAIN || error == EWOULDBLOCK else {
                throw .writeFailed(Self.errorText(error))
            }
            try wait(for: input, events: Int16(POLLOUT), until: deadline)
        }
    }

    /// Why no process reads the input any more: it ended (how), or it closed its input. The
    /// process is not reaped, so what it wrote before it ended can still be read.
    private func ending(deadline: Deadline) -> Failure {
        let grace = Deadline(secondsFromNow: Self.endingGraceSeconds)
        while true {
            if let how = exitDescription() { return .exited(how) }
            if grace.hasPassed || deadline.hasPassed { return .inputClosed }
            usleep(1000)
        }
    }

    /// How the process ended (`it exited with status 3`), without reaping it; `nil` while it
    /// runs.
    private func exitDescription() -> String? {
        guard !isReaped else { return "it ended" }
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0 {
            if errno != EINTR { return "it ended" }
        }
        guard info.si_signo == SIGCHLD else { return nil }
        #if canImport(Glibc)
            let status = info._sifields._sigchld.si_status
        #else
            let status = info.si_status
        #endif
        if info.si_code == CLD_EXITED { return "it exited with status \(status)" }
        return "it was killed by signal \(status)"
    }

    /// Reads the next line of the process's output (without its newline), waiting at most
    /// until `deadline`.
    func readLine(deadline: Deadline) throws(Failure) -> ArraySlice<UInt8> {
        while true {
            if let line = buffer.nextLine() {
                linesRead += 1
                return line.last == 0x0D ? line.dropLast() : line
            }
            if buffer.pendingCount > Self.maximumLineBytes { throw .lineTooLong }
            let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            let error = errno
            if count > 0 {
                buffer.append(chunk[0..<count])
                continue
            }
            if count == 0 { throw .exited(reap(waiting: deadline)) }
            if error == EINTR { continue }
            guard error == EAGAIN || error == EWOULDBLOCK else { throw .exited(reap(waiting: deadline)) }
            try waitForOutput(until: deadline)
        }
    }

    /// Waits until the output has something to read (a line, its end), or fails at the deadline
    /// with what kept it from coming.
    ///
    /// Nothing fails before the deadline: an engine whose leader exited may have left a child
    /// that still answers, and one that closed its input may still finish this answer.
    private func waitForOutput(until deadline: Deadline) throws(Failure) {
        var watchesInput = !isInputClosed
        while true {
            let remaining = deadline.remainingMilliseconds
            guard remaining > 0 else { throw silence(inputClosed: !watchesInput) }
            var entries = [
                pollfd(fd: output, events: Int16(POLLIN), revents: 0),
                // No events asked: poll reports POLLERR on a pipe whose reading end is closed.
                pollfd(fd: watchesInput ? input : -1, events: 0, revents: 0),
            ]
            let ready = poll(&entries, 2, Int32(clamping: remaining))
            if ready < 0, errno != EINTR { return }
            if entries[0].revents != 0 { return }
            if entries[1].revents != 0 { watchesInput = false }
        }
    }

    /// Why the engine wrote nothing until the deadline: it exited and a process it started
    /// holds its output open, it closed its input (no process reads the pipe, or only the
    /// shell that waits for it), or it is just slow.
    private func silence(inputClosed: Bool) -> Failure {
        if hasExited() {
            return .exited(
                "\(reap(waiting: Deadline(secondsFromNow: 0))) and left its output open to a process it started")
        }
        // The shell that runs the command keeps the engine's input open while it waits for it,
        // so an engine that closed its own shows nothing on the pipe.
        if inputClosed || isInputLeftToItsShell() { return .inputClosed }
        return .timedOut
    }

    /// Whether the process could take another run now: it has not exited, and nothing it
    /// wrote is waiting to be read (a line after its last `done`, or the end of its output).
    /// A process that is not is ended with its group and reaped.
    func isReusable() -> Bool {
        guard !isReaped else { return false }
        var entry = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        var ready: Int32
        repeat { ready = poll(&entry, 1, 0) } while ready < 0 && errno == EINTR
        if buffer.pendingCount == 0, ready == 0, !hasExited() { return true }
        terminate()
        return false
    }

    /// Whether the engine wrote something nobody asked for yet: a line after its last `done`
    /// (an extra answer) sits in the buffer or the pipe. The end of its output alone is not
    /// counted; the next read reports that.
    func hasUnreadOutput() -> Bool {
        if buffer.pendingCount > 0 { return true }
        var entry = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        var ready: Int32
        repeat { ready = poll(&entry, 1, 0) } while ready < 0 && errno == EINTR
        return ready > 0 && entry.revents & Int16(POLLIN) != 0
    }

    /// Closes the engine's input (its sign to exit), gives it `grace` to go, then ends its
    /// process group.
    func shutDown(grace: Double) {
        guard !isReaped else { return }
        closeInput()
        let deadline = Deadline(secondsFromNow: grace)
        while !hasExited(), !deadline.hasPassed { usleep(1000) }
        terminate()
    }

    /// Ends the process group at once and reaps the process: in that order, because once
    /// the leader is reaped its pid (the group's id) may be given to another process.
    @discardableResult
    func terminate() -> Int32 {
        guard !isReaped else { return 0 }
        isReaped = true
        EngineProcessGroups.killAndForget(pid)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        closeInput()
        close(output)
        return status
    }

    /// Closes the engine's input once: a descriptor closed twice may by then be another
    /// engine's pipe.
    private func closeInput() {
        guard !isInputClosed else { return }
        isInputClosed = true
        close(input)
    }

    /// Whether the process has exited, without reaping it: while it is a zombie, its pid
    /// (and so its process group's id) cannot be reused.
    private func hasExited() -> Bool {
        var info = siginfo_t()
        while true {
            if waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 { return info.si_signo == SIGCHLD }
            // ECHILD: nothing left to wait for.
            if errno != EINTR { return true }
        }
    }

    /// How the process ended, once its output closed: waits briefly for it to finish exiting.
    private func reap(waiting deadline: Deadline) -> String {
        let grace = Deadline(secondsFromNow: Self.endingGraceSeconds)
        while true {
            if let how = exitDescription() {
                terminate()
                return how
            }
            if grace.hasPassed || deadline.hasPassed { return "it closed its output" }
            usleep(1000)
        }
    }

    private func wait(for descriptor: Int32, events: Int16, until deadline: Deadline) throws(Failure) {
        while true {
            let remaining = deadline.remainingMilliseconds
            guard remaining > 0 else { throw .timedOut }
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, Int32(clamping: remaining))
            if ready > 0 || (ready < 0 && errno != EINTR) { return }
        }
    }

    static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

/// A point on the monotonic clock: how long a process may take to answer.
struct Deadline: Sendable {
    private let nanoseconds: Int64

    init(secondsFromNow seconds: Double) {
        nanoseconds = Self.now + Int64((seconds * 1e9).rounded())
    }

    var hasPassed: Bool { Self.now >= nanoseconds }

    /// Milliseconds left, rounded up so a wait never ends just short of the deadline.
    var remainingMilliseconds: Int64 {
        let left = nanoseconds - Self.now
        return left <= 0 ? 0 : (left + 999_999) / 1_000_000
    }

    private static var now: Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
