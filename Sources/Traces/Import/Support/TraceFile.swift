#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole trace file into memory with plain POSIX calls.
///
/// Traces are parsed once and replayed many times, and the largest real ones are a few
/// megabytes, so one buffer sized from `fstat` is both the simplest and the fastest way in.
/// Nothing here touches the network.
enum TraceFile {
    /// The file's bytes.
    /// - Throws: `TraceFileError` when the file is missing, unreadable or a directory.
    static func contents(ofPath path: String) throws(TraceFileError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw TraceFileError(file: path, reason: describeErrno()) }
        defer { close(descriptor) }

        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw TraceFileError(file: path, reason: describeErrno()) }
        guard (status.st_mode & S_IFMT) != S_IFDIR else {
            throw TraceFileError(file: path, reason: "is a directory, not a trace file")
        }

        // Sized from fstat, grown only for pipes and files that change while being read.
        var bytes = [UInt8](repeating: 0, count: max(Int(status.st_size), 0) + 1)
        var filled = 0
        while true {
            if filled == bytes.count {
                bytes.append(contentsOf: repeatElement(0, count: max(bytes.count, 1 << 16)))
            }
            let got = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return read(descriptor, base + filled, buffer.count - filled)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw TraceFileError(file: path, reason: describeErrno())
            }
            if got == 0 { break }
            filled += got
        }
        bytes.removeLast(bytes.count - filled)
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
