import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGINT or SIGTERM to `tracesim` ends every engine process group it started, however the
/// engine behaves, and `tracesim` exits with 128 + the signal.
@Suite("Engine processes on a signal")
struct EngineSignalTests {
    /// Whether processes can be listed by group (`/proc`).
    static let hasProc = FileManager.default.fileExists(atPath: "/proc/self/stat")

    @Test(
        "a signal to tracesim ends every engine group of a --jobs 2 matrix and exits 128 + the signal",
        .enabled(if: hasProc, "lists processes from /proc"),
        arguments: [
            ("busy", SIGINT), ("ignore-term", SIGTERM), ("wrapped", SIGINT), ("wrapped", SIGTERM),
        ])
    func signalEndsEveryEngine(mode: String, signal: Int32) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("signal-\(getpid())-\(mode)-\(signal)")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let engine = "python3 \(Paths.engines)/stubborn.py"
        let command =
            mode == "wrapped" ? "\(engine) hang \(folder.path); sleep 30" : "\(engine) \(mode) \(folder.path)"
        let outcome = try await offPool { try Self.interrupt(command: command, folder: folder, signal: signal) }
        defer { for group in outcome.groups { kill(-group, SIGKILL) } }
        #expect(outcome.groups.count == 2, "engine groups seen: \(outcome.groups)")
        // -1: still running 15 s after the signal.
        #expect(outcome.status == 128 + signal)
        #expect(outcome.survivors.isEmpty, "processes left: \(outcome.survivors)")
        // TraceSim ended the engines, so no message may blame them for the run that stopped.
        #expect(!outcome.errors.contains("engine '"), "\(outcome.errors)")
        if !outcome.errors.isEmpty {
            #expect(outcome.errors.hasPrefix("error: stopped by SIG"), "\(outcome.errors)")
        }
        if mode == "busy" {
            // SIGTERM came first, and reached an engine that does not block it.
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(names.filter { $0.hasPrefix("terminated-") }.count == 2, "\(names)")
        }
    }

    struct Outcome: Sendable {
        var groups: [pid_t]
        var status: Int32
        var survivors: [pid_t]
        /// What tracesim wrote on standard error.
        var errors: String
    }

    /// Starts a matrix on `command` with two workers, waits until both engines run, sends
    /// `signal` to tracesim, and reports its exit status and the engine processes still alive.
    static func interrupt(command: String, folder: URL, signal: Int32) throws -> Outcome {
        let errorsFile = folder.appendingPathComponent("stderr.txt").path
        let tracesim = try spawn(
            errors: errorsFile,
            [
                Paths.tracesim, "matrix", Paths.pixel6, "--scenarios", "always-precise,wheninuse-locked", "--date",
                "2020-02-07", "--jobs", "2", "--engine-timeout", "60", "--engine-command", command,
            ])
        var status: Int32 = 0
        var hasExited = false
        func reap() {
            if !hasExited, waitpid(tracesim, &status, WNOHANG) == tracesim { hasExited = true }
        }
        defer {
            reap()
            if !hasExited {
                kill(tracesim, SIGKILL)
                waitpid(tracesim, &status, 0)
            }
        }
        var groups: [pid_t] = []
        let started = Date()
        // Generous: on two busy cores, two Python interpreters may take seconds to start.
        while groups.count < 2, Date().timeIntervalSince(started) < 30 {
            usleep(20_000)
            groups = Self.groups(in: folder)
        }
        // Both engines are at their first fix by now, or about to be.
        usleep(300_000)
        kill(tracesim, signal)
        let stopping = Date()
        reap()
        while !hasExited, Date().timeIntervalSince(stopping) < 15 {
            usleep(20_000)
            reap()
        }
        let errors = (try? String(contentsOfFile: errorsFile, encoding: .utf8)) ?? ""
        guard hasExited else { return Outcome(groups: groups, status: -1, survivors: [], errors: errors) }
        // Exited with a code, not ended by the signal.
        let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : -(status & 0x7F)
        var survivors = Self.alive(in: groups)
        let ending = Date()
        while !survivors.isEmpty, Date().timeIntervalSince(ending) < 5 {
            usleep(20_000)
            survivors = Self.alive(in: groups)
        }
        return Outcome(groups: groups, status: code, survivors: survivors, errors: errors)
    }

    /// Starts `arguments` as a shell would: its output to /dev/null and its errors to `errors`,
    /// no signal blocked or ignored. (Not `Foundation.Process`, whose exit monitoring lags when the other tests
    /// start processes by the dozen.)
    static func spawn(errors: String, _ arguments: [String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGTERM, SIGPIPE] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, arguments[0], &actions, &attributes, &argv, environ)
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EINVAL) }
        return child
    }

    /// The process groups the engines wrote down as they started.
    static func groups(in folder: URL) -> [pid_t] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.compactMap { name -> pid_t? in
            let parts = name.split(separator: "-")
            guard parts.count == 3, parts[0] == "group" else { return nil }
            return pid_t(parts[1])
        }.sorted()
    }

    /// Processes of `groups` that are still running (zombies waiting for their parent are not).
    static func alive(in groups: [pid_t]) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let id = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, fields[0] != "Z", let group = pid_t(fields[2]), groups.contains(group) else {
                return nil
            }
            return id
        }
    }
}
