#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The processes of the system as `/proc` lists them (Linux): what TraceSim needs to know of
/// an engine's process group beyond its leader, which is the only member it can wait for.
/// Elsewhere `processes()` is `nil`, and callers fall back to what the leader alone tells.
enum ProcessTable {
    struct Entry {
        var id: pid_t
        var parent: pid_t
        var group: pid_t
        /// Exited, and not yet reaped by its parent.
        var isZombie: Bool
    }

    /// Every process, or `nil` without `/proc`.
    static func processes() -> [Entry]? {
        #if os(Linux)
            entries(of: "/proc").compactMap { name -> Entry? in
                guard let id = pid_t(name), let stat = contents(of: "/proc/\(name)/stat") else { return nil }
                // "PID (COMMAND) STATE PPID PGRP ...": the command may hold spaces and parentheses.
                guard let close = stat.lastIndex(of: UInt8(ascii: ")")) else { return nil }
                let fields = stat[(close + 1)...].split(separator: UInt8(ascii: " "))
                guard fields.count > 2, let parent = pid_t(String(decoding: fields[1], as: UTF8.self)),
                    let group = pid_t(String(decoding: fields[2], as: UTF8.self))
                else { return nil }
                return Entry(id: id, parent: parent, group: group, isZombie: fields[0].first == UInt8(ascii: "Z"))
            }
        #else
            nil
        #endif
    }

    /// Whether `process` holds `target` (`pipe:[INODE]`) among its open descriptors.
    static func holds(_ process: pid_t, _ target: String) -> Bool {
        entries(of: "/proc/\(process)/fd").contains { link("/proc/\(process)/fd/\($0)") == target }
    }

    /// Where a symbolic link points (`/proc/PID/exe`, a descriptor), or `nil`.
    static func link(_ path: String) -> String? {
        var target = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &target, target.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: target[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func entries(of directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) {
                    String(cString: $0)
                }
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    private static func contents(of path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 1024)
        let count = read(descriptor, &bytes, bytes.count)
        return count > 0 ? Array(bytes[0..<count]) : nil
    }
}
