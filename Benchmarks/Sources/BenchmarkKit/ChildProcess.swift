import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a program as a child process and measures it from outside, as a user's shell would:
/// wall time from spawn to exit, CPU time, and the peak resident memory the kernel recorded
/// for it. `Process` cannot tell one child's peak memory from another's, so this spawns and
/// reaps the child itself.
///
/// The peak comes from GNU time (`/usr/bin/time`) when it is there, not from this process's
/// own `wait4`: Linux keeps the peak of the address space a process replaces at `exec`, and a
/// child spawned from here starts in a copy of (or, with vfork, in) this process's, so its
/// `ru_maxrss` is never below this process's peak. GNU time is a small parent whose peak is
/// about 2 MB.
public enum ChildProcess {
    /// What one run of a child measured.
    public struct Outcome: Sendable {
        /// The exit status, or 128 + the signal that ended it.
        public var status: Int32
        /// Wall-clock seconds from spawn to exit.
        public var seconds: Double
        /// The largest resident set of the child, or of any descendant it waited for, in bytes.
        public var peakResidentBytes: Int
        /// Whether `peakResidentBytes` came from a small parent (GNU time); when `false`, it is
        /// at least this process's own peak, whatever the child used.
        public var isPeakExact: Bool
        /// User and system CPU seconds of the child and the descendants it waited for: on a
        /// shared machine, steadier than the wall time.
        public var cpuSeconds: Double
    }

    /// Why a child could not be started.
    public struct SpawnError: Error, CustomStringConvertible {
        /// The program and the reason.
        public var description: String
    }

    /// Runs `executable` with `arguments`, standard input from /dev/null, standard output to
    /// the file `output` (truncated; "/dev/null" to discard it) and standard error to the file
    /// `errors`, and waits for it.
    /// - Throws: `SpawnError` when the program cannot be started.
    public static func run(
        _ executable: String, _ arguments: [String], output: String, errors: String
    ) throws(SpawnError) -> Outcome {
        #if os(Linux)
            if FileManager.default.isExecutableFile(atPath: gnuTime) {
                let report = errors + ".peak"
                var outcome = try spawnAndWait(
                    gnuTime, ["-f", "%M", "-o", report, "--", executable] + arguments, output: output, errors: errors)
                // The report's last line is the peak in KiB; a failed child adds a line before it.
                let lines = (try? String(contentsOfFile: report, encoding: .utf8))?.split(separator: "\n") ?? []
                if let last = lines.last, let kibibytes = Int(last) {
                    outcome.peakResidentBytes = kibibytes * 1024
                    outcome.isPeakExact = true
                }
                return outcome
            }
        #endif
        return try spawnAndWait(executable, arguments, output: output, errors: errors)
    }

    /// Where GNU time is on Linux.
    static let gnuTime = "/usr/bin/time"

    /// Spawns `executable` and reaps it, with its own `wait4` figures.
    static func spawnAndWait(
        _ executable: String, _ arguments: [String], output: String, errors: String
    ) throws(SpawnError) -> Outcome {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([executable] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let start = DispatchTime.now().uptimeNanoseconds
        let spawned = (argv + [nil]).withUnsafeBufferPointer { pointers in
            guard let base = pointers.baseAddress else { return EINVAL }
            return posix_spawn(&pid, executable, &actions, nil, base, environ)
        }
        guard spawned == 0 else {
            throw SpawnError(description: "cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else {
                throw SpawnError(description: "cannot wait for \(executable): \(String(cString: strerror(errno)))")
            }
        }
        let end = DispatchTime.now().uptimeNanoseconds
        // Linux reports ru_maxrss in kibibytes, macOS in bytes.
        #if os(macOS)
            let peak = Int(usage.ru_maxrss)
        #else
            let peak = Int(usage.ru_maxrss) * 1024
        #endif
        // WIFEXITED / WTERMSIG, which Swift does not import as functions.
        let signal = status & 0x7f
        let exitStatus = signal == 0 ? (status >> 8) & 0xff : 128 + signal
        let cpu = [usage.ru_utime, usage.ru_stime].reduce(0.0) { $0 + Double($1.tv_sec) + Double($1.tv_usec) / 1e6 }
        return Outcome(
            status: exitStatus, seconds: Double(end - start) / 1e9, peakResidentBytes: peak, isPeakExact: false,
            cpuSeconds: cpu)
    }
}
