import Traces

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ContentHash {
    /// The hash and size of the regular file at `path`, read in slices so a multi-gigabyte trace
    /// costs no more memory than one slice.
    /// - Throws: `TraceFileError` when the file cannot be read, or is not a regular file (a pipe
    ///   or device cannot be read a second time to be fingerprinted).
    public static func ofFile(atPath path: String) throws(TraceFileError) -> (hash: ContentHash, bytes: Int) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw TraceFileError(file: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw TraceFileError(file: path, reason: String(cString: strerror(errno)))
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw TraceFileError(file: path, reason: "not a regular file, so a sharded run cannot fingerprint it")
        }
        var hash = ContentHash.offsetBasis
        var total = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if got < 0 {
                if errno == EINTR { continue }
                throw TraceFileError(file: path, reason: String(cString: strerror(errno)))
            }
            if got == 0 { break }
            hash = ContentHash.fold(chunk[0..<got], into: hash)
            total += got
        }
        return (ContentHash(value: hash), total)
    }
}
