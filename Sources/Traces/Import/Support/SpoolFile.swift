#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A scratch file with no name, for bytes the importers need contiguous but that arrive as a
/// stream (standard input, a pipe, an inflating gzip stream): written once, then mapped like a
/// trace file, so a trace read this way costs page cache, not process memory.
///
/// The file is unlinked the moment it is created, so nothing is left behind whatever happens to
/// the process; the space returns to the system when the descriptor and the mapping are gone.
/// It lives in `$TMPDIR`, or `/tmp` when that is unset.
struct SpoolFile: ~Copyable {
    private let descriptor: Int32
    /// Bytes written so far.
    private(set) var count = 0
    /// Where the file was made, for messages.
    private let folder: String
    /// The input the bytes come from, as errors name it.
    private let name: String

    /// Creates the file and unlinks it at once.
    /// - Throws: `TraceFileError` naming `name` and the folder when the file cannot be made.
    init(for name: String) throws(TraceFileError) {
        var folder = getenv("TMPDIR").map { String(cString: $0) } ?? ""
        if folder.isEmpty { folder = "/tmp" }
        var template = Array(((folder.hasSuffix("/") ? folder : folder + "/") + "tracesim-spool-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard descriptor >= 0 else {
            throw TraceFileError(
                file: name, reason: "cannot create a temporary file in \(folder): \(String(cString: strerror(errno)))")
        }
        _ = template.withUnsafeBufferPointer { buffer in buffer.baseAddress.map { unlink($0) } }
        // Not inherited by a program the process starts (glibc's mkostemp is not visible to Swift).
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        self.descriptor = descriptor
        self.folder = folder
        self.name = name
    }

    deinit { close(descriptor) }

    /// Appends `bytes`.
    /// - Throws: `TraceFileError` when the system refuses the write (a full disk, a quota).
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws(TraceFileError) {
        guard var next = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let written = writeDescriptor(descriptor, next, left)
            if written < 0 {
                if errno == EINTR { continue }
                throw TraceFileError(
                    file: name,
                    reason: "cannot write its temporary copy in \(folder): \(String(cString: strerror(errno)))")
            }
            next += written
            left -= written
            count += written
        }
    }

    /// The bytes written, mapped; `nil` when there are none or the system will not map them.
    consuming func map() -> MappedFile? {
        MappedFile(descriptor: descriptor, count: count)
    }

    /// The bytes written so far, mapped while writing goes on (a trial import of what a
    /// stream has inflated so far); `nil` when there are none or the system will not map them.
    func mapWritten() -> MappedFile? {
        MappedFile(descriptor: descriptor, count: count)
    }
}

/// The C `write`, which the method of the same name hides inside `SpoolFile`.
private func writeDescriptor(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
