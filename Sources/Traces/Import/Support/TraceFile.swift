#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads trace files with plain POSIX calls: mapped when they are regular files, so the
/// importers can hand back what they have read, and read whole otherwise.
///
/// Nothing here touches the network. Configuration files are read the same way (Foundation's
/// `FileManager.contents(atPath:)` leaks a buffer on empty files on Linux).
public enum TraceFile {
    /// The file's bytes.
    /// - Throws: `TraceFileError` when the file is missing, unreadable or a directory.
    public static func contents(ofPath path: String) throws(TraceFileError) -> [UInt8] {
        let (descriptor, status) = try openForReading(path)
        defer { close(descriptor) }
        return try readAll(descriptor, status, path: path)
    }

    /// A trace file's bytes as the importers get them.
    enum Opened {
        /// A regular file, mapped: importers hand back its pages as they pass them (see
        /// `MappedFile`), so import memory does not grow with the file.
        case mapped(MappedFile)
        /// Anything the system will not map (pipes, devices, empty files), read whole.
        case read([UInt8])
    }

    /// Opens the file once and maps it when it can, reading it otherwise: a pipe or FIFO
    /// can be opened only once, so there is no second attempt by path.
    static func openForImport(path: String) throws(TraceFileError) -> Opened {
        let (descriptor, status) = try openForReading(path)
        defer { close(descriptor) }
        if (status.st_mode & S_IFMT) == S_IFREG,
            let mapping = MappedFile(descriptor: descriptor, count: Int(status.st_size))
        {
            return .mapped(mapping)
        }
        return .read(try readAll(descriptor, status, path: path))
    }

    private static func readAll(_ descriptor: Int32, _ status: stat, path: String) throws(TraceFileError) -> [UInt8] {
        // Sized from fstat and left uninitialised (zeroing 100 MB costs as much as parsing
        // some of it); pipes and files that grow while being read take the slower path.
        let expected = max(Int(status.st_size), 0)
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
                bytes.append(contentsOf: chunk[0..<got])
            }
        }
        if failure != 0 {
            errno = failure
            throw TraceFileError(file: path, reason: describeErrno())
        }
        return bytes
    }

    private static func openForReading(_ path: String) throws(TraceFileError) -> (Int32, stat) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw TraceFileError(file: path, reason: describeErrno()) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = describeErrno()
            close(descriptor)
            throw TraceFileError(file: path, reason: reason)
        }
        guard (status.st_mode & S_IFMT) != S_IFDIR else {
            close(descriptor)
            throw TraceFileError(file: path, reason: "is a directory, not a trace file")
        }
        return (descriptor, status)
    }

    private static func describeErrno() -> String {
        switch errno {
        case ENOENT: "no such file"
        case EACCES: "permission denied"
        default: String(cString: strerror(errno))
        }
    }
}
