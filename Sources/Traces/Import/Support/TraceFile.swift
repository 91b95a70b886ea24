#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads trace files with plain POSIX calls: mapped when they are regular files, so the
/// importers can hand back what they have read; standard input, pipes, devices and gzip
/// streams are spooled to an unlinked temporary file and mapped the same way
/// (`TraceFile+Import.swift`). Configuration files are read whole.
///
/// Nothing here touches the network. Configuration files are read with the same calls
/// (Foundation's `FileManager.contents(atPath:)` leaks a buffer on empty files on Linux).
///
/// Whatever is read whole is capped, so a device (`/dev/zero`) or an endless pipe fails with a
/// message instead of growing until the system kills the process: a configuration file at
/// ``maximumConfigurationBytes``, a trace that cannot be mapped at ``maximumStreamedTraceBytes``
/// (spooled to an unlinked temporary file and mapped, so the cap is on disk, not memory).
/// A source that is not a regular file also stops at the first chunk holding a NUL byte, which
/// no text format contains: the importer then reports that byte at once.
public enum TraceFile {
    /// The largest configuration file read (256 MiB): scenarios, geofences, expectations,
    /// device setups, user scripts and matrix parts are far smaller.
    public static let maximumConfigurationBytes = 256 << 20

    /// The largest trace read from a pipe, device or standard input (1 GiB, after inflating
    /// when it is gzip). Regular files are mapped and have no such limit, so a larger trace can
    /// always be saved to a file first.
    public static let maximumStreamedTraceBytes = 1 << 30

    /// The file's bytes.
    /// - Parameters:
    ///   - path: the file as the user or a configuration file named it.
    ///   - limit: the most bytes accepted; a regular file is refused before it is read.
    ///   - requiresRegularFile: refuse FIFOs, devices and sockets (paths named inside
    ///     configuration files), checked before anything can block.
    /// - Throws: `TraceFileError` when the file is missing, unreadable, a directory, over
    ///   `limit`, not a regular file where one is required, or its path holds a NUL byte.
    public static func contents(
        ofPath path: String, limit: Int = maximumConfigurationBytes, requiresRegularFile: Bool = false
    ) throws(TraceFileError) -> [UInt8] {
        let (descriptor, status) = try openForReading(path, requiresRegularFile: requiresRegularFile)
        defer { close(descriptor) }
        return try readAll(descriptor, status, path: path, limit: limit, what: "configuration file")
    }

    /// `contents(ofPath:)` for a descriptor the caller opened (a FIFO it waited a bounded time
    /// to open) and still owns: the same limit, the same stop at a NUL byte, the same errors.
    package static func contents(
        ofDescriptor descriptor: Int32, path: String, limit: Int = maximumConfigurationBytes
    ) throws(TraceFileError) -> [UInt8] {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw TraceFileError(file: path, reason: describeErrno()) }
        return try readAll(descriptor, status, path: path, limit: limit, what: "configuration file")
    }

    private static func readAll(
        _ descriptor: Int32, _ status: stat, path: String, limit: Int, what: String
    ) throws(TraceFileError) -> [UInt8] {
        let isRegular = (status.st_mode & S_IFMT) == S_IFREG
        let tooLarge = TraceFileError(
            file: path,
            reason: "larger than \(describe(bytes: limit)), the limit for a \(what)"
                + (isRegular ? "" : " from a pipe or device"))
        // Sized from fstat and left uninitialised (zeroing 100 MB costs as much as parsing
        // some of it); pipes and files that grow while being read take the slower path.
        let expected = max(Int(status.st_size), 0)
        guard expected <= limit else { throw tooLarge }
        var failure: Int32 = 0
        var bytes = [UInt8](unsafeUninitializedCapacity: expected) { buffer, initialized in
            initialized = 0
            guard let base = buffer.baseAddress else { return }
            while initialized < expected {
                let got = read(descriptor, base + initialized, expected - initialized)
                if got < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if got == 0 { return }
                initialized += got
            }
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while failure == 0 {
            let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if got < 0 {
                if errno == EINTR { continue }
                failure = errno
            } else if got == 0 {
                break
            } else {
                guard got <= limit - bytes.count else { throw tooLarge }
                bytes.append(contentsOf: chunk[0..<got])
                // Binary content is refused by every reader at its first NUL byte, so a device
                // such as /dev/zero fails at once instead of after the whole limit. UTF-16 and
                // UTF-32 (a byte-order mark first) are read on, for the reader to name.
                if !isRegular, chunk.withUnsafeBytes({ $0.baseAddress.map { memchr($0, 0, got) != nil } ?? false }),
                    !startsWithWideByteOrderMark(bytes)
                {
                    break
                }
            }
        }
        if failure != 0 {
            errno = failure
            throw TraceFileError(file: path, reason: describeErrno())
        }
        return bytes
    }

    static func startsWithWideByteOrderMark(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && ((bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF))
            || bytes.starts(with: [0, 0, 0xFE, 0xFF])
    }

    static func openForReading(_ path: String, requiresRegularFile: Bool) throws(TraceFileError) -> (
        Int32, stat
    ) {
        // A C path ends at its first NUL, so such a path would open a different file.
        guard !path.utf8.contains(0) else {
            throw TraceFileError(
                file: path.split(separator: "\u{0}", omittingEmptySubsequences: false).joined(separator: "\\0"),
                reason: "the path contains a NUL byte")
        }
        var status = stat()
        if requiresRegularFile {
            // Checked before opening: opening a FIFO waits for a writer, and opening some
            // devices has effects of its own. Checked again below on the open descriptor.
            guard stat(path, &status) == 0 else { throw TraceFileError(file: path, reason: describeErrno()) }
            try checkRegular(status, path)
        }
        // Non-blocking, so a FIFO swapped in after the check cannot block the open either.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | (requiresRegularFile ? O_NONBLOCK : 0))
        guard descriptor >= 0 else { throw TraceFileError(file: path, reason: describeErrno()) }
        guard fstat(descriptor, &status) == 0 else {
            let reason = describeErrno()
            close(descriptor)
            throw TraceFileError(file: path, reason: reason)
        }
        do throws(TraceFileError) {
            guard (status.st_mode & S_IFMT) != S_IFDIR else {
                throw TraceFileError(file: path, reason: "is a directory, not a trace file")
            }
            if requiresRegularFile { try checkRegular(status, path) }
        } catch {
            close(descriptor)
            throw error
        }
        return (descriptor, status)
    }

    private static func checkRegular(_ status: stat, _ path: String) throws(TraceFileError) {
        let kind: String
        switch status.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: kind = "a directory"
        case S_IFIFO: kind = "a FIFO"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        case S_IFSOCK: kind = "a socket"
        default: kind = "not a file"
        }
        throw TraceFileError(file: path, reason: "not a regular file (\(kind))")
    }

    static func describe(bytes: Int) -> String {
        bytes >= 1 << 30 && bytes % (1 << 30) == 0 ? "\(bytes >> 30) GiB" : "\(bytes >> 20) MiB"
    }

    static func describeErrno() -> String {
        switch errno {
        case ENOENT: "no such file"
        case EACCES: "permission denied"
        default: String(cString: strerror(errno))
        }
    }
}
