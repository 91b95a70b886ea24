import Foundation
import Synchronization

/// Opens FIFOs (named pipes) without hanging. Opening one blocks until the other end is opened
/// too, which may be never: a report sent to a FIFO nobody reads, or a list read from one
/// nobody writes, used to stop TraceSim for good. TraceSim waits at most `limitSeconds` for
/// the other end, then fails with a message that says so.
///
/// Only the open waits: once both ends are there, reading and writing go at the other
/// process's pace, as they would through a shell's `|`.
enum FIFOWait {
    /// How long to wait for the other end of a FIFO, in seconds. Tests shorten it.
    @TaskLocal static var limitSeconds: Double = 10

    /// Why a FIFO could not be opened.
    enum Failure: Error, Equatable {
        /// Nobody opened the other end within the limit.
        case noPeer(seconds: Double)
        /// `open` failed with this `errno`.
        case system(Int32)

        /// The reason as messages give it, after the path.
        func reason(peer: String) -> String {
            switch self {
            case .noPeer(let seconds):
                "no process opened the FIFO for \(peer) (waited \(seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)) s)"
            case .system(let code): DescriptorWriting.describe(code)
            }
        }
    }

    /// Opens the FIFO at `path` for writing: without blocking, again every 20 ms while no reader
    /// has it open (`ENXIO`), for at most `limitSeconds`. The descriptor returned blocks as
    /// usual, so a slow reader slows the writer down rather than failing it.
    static func openForWriting(_ path: String) -> Result<Int32, Failure> {
        let limit = limitSeconds
        let start = monotonicSeconds()
        while true {
            let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
            if descriptor >= 0 {
                let flags = fcntl(descriptor, F_GETFL)
                guard flags >= 0, fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) == 0 else {
                    let code = errno
                    close(descriptor)
                    return .failure(.system(code))
                }
                return .success(descriptor)
            }
            let code = errno
            if code == EINTR { continue }
            guard code == ENXIO else { return .failure(.system(code)) }
            guard monotonicSeconds() - start < limit else { return .failure(.noPeer(seconds: limit)) }
            usleep(20_000)
        }
    }

    /// Opens the FIFO at `path` for reading, waiting at most `limitSeconds` for a writer.
    ///
    /// A reader cannot poll for a writer as a writer polls for a reader: opened without
    /// blocking, it sees no data and no end of file alike whether a writer is there or not. So
    /// the blocking open runs on a thread of its own, and when the wait ends without a writer,
    /// TraceSim opens the FIFO for writing for an instant itself, which completes that open;
    /// the thread then closes what it opened and ends.
    static func openForReading(_ path: String) -> Result<Int32, Failure> {
        let attempt = Attempt()
        Thread.detachNewThread {
            defer { attempt.finished.signal() }
            guard attempt.state.withLock({ if case .waiting = $0 { true } else { false } }) else { return }
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            let code = errno
            let isKept = attempt.state.withLock { state in
                guard case .waiting = state else { return false }
                state = descriptor >= 0 ? .opened(descriptor) : .failed(code)
                return true
            }
            if !isKept && descriptor >= 0 { close(descriptor) }
        }
        let isFinished = attempt.finished.wait(timeout: .now() + .milliseconds(Int(limitSeconds * 1000))) == .success
        let outcome = attempt.state.withLock { state -> State in
            if case .waiting = state { state = .abandoned }
            return state
        }
        switch outcome {
        case .opened(let descriptor): return .success(descriptor)
        case .failed(let code): return .failure(.system(code))
        case .waiting, .abandoned:
            // Until the thread is done (about to open, or blocked in the open), for at most 1 s.
            for _ in 0..<100 where !isFinished {
                let writer = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
                if writer >= 0 { close(writer) }
                if attempt.finished.wait(timeout: .now() + .milliseconds(10)) == .success { break }
            }
            return .failure(.noPeer(seconds: limitSeconds))
        }
    }

    /// Whether `path` names a FIFO, following symbolic links.
    static func isFIFO(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO
    }

    private enum State: Sendable {
        case waiting, opened(Int32), failed(Int32), abandoned
    }

    /// One blocking open, shared with the thread that makes it.
    private final class Attempt: Sendable {
        let state = Mutex<State>(.waiting)
        let finished = DispatchSemaphore(value: 0)
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
