#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension EngineProcess {
    /// Whether the engine closed its input while the shell that runs it keeps it open: no
    /// process of its group holds the pipe but the group's leader, which is still `/bin/sh` and
    /// waits for a child. `/bin/sh -c COMMAND` forks the command (dash does) and holds the
    /// pipe meanwhile, so the pipe alone never shows that the engine can no longer read.
    ///
    /// Read from `/proc` (Linux); elsewhere always false, and the wait is reported as a
    /// timeout. Only asked once the deadline passed, so it never fails a slow engine early.
    func isInputLeftToItsShell() -> Bool {
        var status = stat()
        guard fstat(input, &status) == 0, let processes = ProcessTable.processes() else { return false }
        let pipe = "pipe:[\(status.st_ino)]"
        let members = processes.filter { $0.group == pid && !$0.isZombie }
        let holders = members.filter { ProcessTable.holds($0.id, pipe) }
        guard holders.map(\.id) == [pid], members.contains(where: { $0.parent == pid }) else { return false }
        return ProcessTable.link("/proc/\(pid)/exe") == Self.resolvedShell
    }

    /// What `/bin/sh` is (dash on Debian): a leader that is still it did not exec the command.
    private static let resolvedShell: String? = {
        guard let path = realpath("/bin/sh", nil) else { return nil }
        defer { free(path) }
        return String(cString: path)
    }()
}
