#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a whole trace file into memory with plain POSIX calls.
///
/// Traces are parsed once and replayed many times, and the largest real ones are a few
/// megabytes, so one buffer sized from `fstat` is both the simplest and the fastest way in.
/// Nothing here touches the network. Configuration files are read the same way (Foundation's
/// `FileManager.contents(atPath:)` leaks a buffer on empty files on Linux).
public enum TraceFile {
    /// The file's bytes.
    /// - Throws: `TraceFileError` when the file is missing, unreadable or a directory.
    public static func contents(ofPath path: String) throws(TraceFileError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw TraceFileError(file: path, reason: describeErrno()) }
        defer { close(descriptor) }

        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw TraceFileError(file: path, reason: describeErrno()) }
        guard (status.st_mode & S_IFMT) != S_IFDIR else {
            throw TraceFileError(file: path, reason: "is a directory, not a trace file")
        }

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

    private static func describeErrno() -> String {
        switch errno {
        case ENOENT: "no such file"
        case EACCES: "permission denied"
        default: String(cString: strerror(errno))
        }
    }
}
