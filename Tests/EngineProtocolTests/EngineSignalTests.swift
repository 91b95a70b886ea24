import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGINT or SIGTERM to `tracesim` ends every engine process group it started, however the
/// engine behaves, and `tracesim` then dies of the signal (a shell reports 128 + the signal).
@Suite("Engine processes on a signal")
struct EngineSignalTests {
    /// Whether processes can be listed by group (`/proc`).
    static let hasProc = FileManager.default.fileExists(atPath: "/proc/self/stat")

    @Test(
        "a signal to tracesim ends every engine group of a --jobs 2 matrix, then tracesim dies of the signal",
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
        // Only the test's own engines, still running: a group id the system reused after the
        // engines were reaped may be someone else's.
        defer { for process in Self.alive(in: outcome.groups, marker: outcome.marker) { kill(process, SIGKILL) } }
        #expect(outcome.groups.count == 2, "engine groups seen: \(outcome.groups)")
        // Death by the signal, as without the handling: only that stops a shell script's loop
        // on Ctrl-C and gives Python's subprocess a negative return code. (A code of 128 + the
        // signal is an ordinary exit; -1: still running 15 s after the signal.)
        #expect(outcome.status == .killed(by: signal))
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

    /// How tracesim ended.
    enum Status: Equatable, Sendable {
        case exited(Int32)
        case killed(by: Int32)
        case stillRunning
    }

    struct Outcome: Sendable {
        var groups: [pid_t]
        var status: Status
        var survivors: [pid_t]
        /// What tracesim wrote on standard error.
        var errors: String
        /// In the environment of tracesim and every engine process: tells them from processes
        /// that later took their ids.
        var marker: String
    }

    /// Starts a matrix on `command` with two workers, waits until both engines run, sends
    /// `signal` to tracesim, and reports its exit status and the engine processes still alive.
    static func interrupt(command: String, folder: URL, signal: Int32) throws -> Outcome {
        let errorsFile = folder.appendingPathComponent("stderr.txt").path
        let marker = "TRACESIM_SIGNAL_TEST=\(folder.lastPathComponent)"
        let tracesim = try spawn(
            errors: errorsFile, marker: marker,
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
        guard hasExited else {
            return Outcome(groups: groups, status: .stillRunning, survivors: [], errors: errors, marker: marker)
        }
        let ending: Status = status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .killed(by: status & 0x7F)
        var survivors = Self.alive(in: groups, marker: marker)
        let stopped = Date()
        while !survivors.isEmpty, Date().timeIntervalSince(stopped) < 5 {
            usleep(20_000)
            survivors = Self.alive(in: groups, marker: marker)
        }
        return Outcome(groups: groups, status: ending, survivors: survivors, errors: errors, marker: marker)
    }

    /// Starts `arguments` as a shell would: its output to /dev/null and its errors to `errors`,
    /// no signal blocked or ignored, `marker` added to its environment. (Not
    /// `Foundation.Process`, whose exit monitoring lags when the other tests start processes
    /// by the dozen.)
    static func spawn(errors: String, marker: String, _ arguments: [String]) throws -> pid_t {
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
        var environment = [strdup(marker)]
        var entry = environ
        while let variable = entry.pointee {
            environment.append(strdup(variable))
            entry += 1
        }
        environment.append(nil)
        defer { for pointer in environment { free(pointer) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, arguments[0], &actions, &attributes, &argv, &environment)
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

    /// Processes of `groups` that are still running (zombies waiting for their parent are not)
    /// and have `marker` in their environment: the test's own, not others that took a
    /// reaped engine's process or group id.
    static func alive(in groups: [pid_t], marker: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let id = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, fields[0] != "Z", let group = pid_t(fields[2]), groups.contains(group),
                hasInEnvironment(marker, process: entry)
            else { return nil }
            return id
        }
    }

    /// Whether `/proc/PROCESS/environ` holds the variable `marker` (`NAME=value`).
    static func hasInEnvironment(_ marker: String, process: String) -> Bool {
        guard let environment = FileManager.default.contents(atPath: "/proc/\(process)/environ") else { return false }
        return environment.split(separator: 0).contains { $0.elementsEqual(marker.utf8) }
    }
}
