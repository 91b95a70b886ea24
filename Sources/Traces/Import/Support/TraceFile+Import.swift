#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension TraceFile {
    /// The path that reads standard input, as in most command-line tools. A file named `-`
    /// is still read as `./-`.
    public static let standardInputPath = "-"

    /// How messages name standard input.
    public static let standardInputName = "<stdin>"

    /// A gzip stream is refused as a bomb once its inflated size passes both
    /// ``gzipExpansionCheckedAboveBytes`` and this many times the compressed bytes read so far.
    ///
    /// Deflate cannot expand beyond about 1032:1, and comes near that only for long runs of
    /// one byte; real traces compress 5:1 to 30:1 (GPX, the most verbose, about 20:1). 1000:1
    /// therefore refuses only streams built to expand, and the refusal comes while inflating,
    /// so a bomb built that way costs at most the floor on disk, never its full size; a file
    /// that stays under the ratio is bounded by ``maximumInflatedTraceBytes``. The floor keeps small
    /// inputs, whose gzip header weighs more than their content, out of the ratio's reach.
    public static let maximumGzipExpansionRatio = 1000

    /// The most a compressed trace file inflates to (4 GiB): a ten-million-fix GPX is about
    /// 2.9 GB. The ratio rule alone lets a large file that expands just under 1000:1 write a
    /// thousand times its size to the temporary folder; this caps the disk any file can cost.
    /// A larger trace can be decompressed first and read as a plain file, which has no cap.
    public static let maximumInflatedTraceBytes = 4 << 30

    /// The inflated size (64 MiB) under which ``maximumGzipExpansionRatio`` is not applied:
    /// about 400 000 GPX fixes, so a bomb is refused after a fraction of a second's work.
    public static let gzipExpansionCheckedAboveBytes = 64 << 20

    /// The name errors give the trace at `path`: ``standardInputName`` for
    /// ``standardInputPath``, the path itself otherwise.
    public static func displayName(forPath path: String) -> String {
        path == standardInputPath ? standardInputName : path
    }

    /// A trace file's bytes as the importers get them.
    enum Opened {
        /// A regular file, or a stream spooled to an unlinked temporary file, mapped: importers
        /// hand back its pages as they pass them (see `MappedFile`), so import memory does not
        /// grow with the file.
        case mapped(MappedFile)
        /// An input with no bytes at all.
        case read([UInt8])
    }

    /// Opens the trace once: a regular file is mapped; standard input, a pipe, a device, and
    /// any gzip stream (by its magic bytes, whatever the name) are spooled to an unlinked
    /// temporary file, inflated on the way when compressed, and that file is mapped. A pipe or
    /// FIFO can be opened only once, so there is never a second attempt by path.
    ///
    /// - Parameter check: imports a gzip stream's content so far on trial as it inflates, so
    ///   content that is wrong near its start stops the stream there (`InflatedPrefixCheck`).
    /// - Throws: `TraceFileError` when the input cannot be opened, read or spooled (exit 66);
    ///   `TraceFormatError` when a gzip stream is truncated, corrupt or a bomb, or `check`
    ///   found the error the whole file's import would stop at (exit 65).
    static func openForImport(path: String, check: InflatedPrefixCheck? = nil) throws -> Opened {
        if path == standardInputPath {
            var status = stat()
            guard fstat(STDIN_FILENO, &status) == 0 else {
                throw TraceFileError(file: standardInputName, reason: "standard input is closed")
            }
            // Redirected from a file that someone has already read partway, standard input
            // starts where they stopped: only a descriptor still at the start is mapped whole.
            let isAtStart = lseek(STDIN_FILENO, 0, SEEK_CUR) == 0
            return try open(STDIN_FILENO, status, name: standardInputName, isAtStart: isAtStart, check: check)
        }
        let (descriptor, status) = try openForReading(path, requiresRegularFile: false)
        defer { close(descriptor) }
        return try open(descriptor, status, name: path, isAtStart: true, check: check)
    }

    private static func open(
        _ descriptor: Int32, _ status: stat, name: String, isAtStart: Bool, check: InflatedPrefixCheck?
    ) throws -> Opened {
        let isRegular = (status.st_mode & S_IFMT) == S_IFREG
        if isRegular && isAtStart {
            var magic: [UInt8] = [0, 0]
            let got = magic.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 2, 0) }
            let isGzip = got == 2 && magic == gzipMagic
            if !isGzip, let mapping = MappedFile(descriptor: descriptor, count: Int(status.st_size)) {
                return .mapped(mapping)
            }
        }
        return try spool(descriptor, name: name, isRegular: isRegular, check: check)
    }

    private static let gzipMagic: [UInt8] = [0x1F, 0x8B]

    /// Copies the input, inflated when it starts with gzip's magic, to a spool file and maps it.
    private static func spool(
        _ descriptor: Int32, name: String, isRegular: Bool, check: InflatedPrefixCheck?
    ) throws -> Opened {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 1)
        defer { chunk.deallocate() }
        var count = 0
        // Two bytes at least, to see the magic: a pipe may deliver one at a time.
        while count < 2 {
            let got = try readChunk(descriptor, into: chunk, at: count, name: name)
            if got == 0 { break }
            count += got
        }
        guard count > 0 else { return .read([]) }
        let isGzip = count >= 2 && chunk[0] == gzipMagic[0] && chunk[1] == gzipMagic[1]
        // A stream has no size to check up front, so what it spools is capped; a regular file
        // is bounded by its own size, and its gzip stream by the bomb limits and a size cap.
        let limit: (bytes: Int, what: String)? =
            !isRegular
            ? (maximumStreamedTraceBytes, "a trace from a pipe or standard input (save it to a file first)")
            : isGzip ? (maximumInflatedTraceBytes, "a compressed trace (decompress it first)") : nil
        var spool = try TraceSpool(name: name, limit: limit, stopsAtNULByte: !isRegular || isGzip)
        if isGzip {
            var inflater: GzipInflater
            do { inflater = try GzipInflater() } catch {
                throw TraceFileError(file: name, reason: "zlib is out of memory")
            }
            var check = check
            var found: TraceFormatError?
            while count > 0 {
                let goOn: Bool
                do throws(GzipInflater.Failure) {
                    goOn = try inflater.feed(UnsafeRawBufferPointer(rebasing: chunk[0..<count])) {
                        (output, consumed) throws(TraceFileError) in
                        guard try spool.append(output) else { return false }
                        guard check?.isDue(inflated: spool.count, consumed: consumed) == true else { return true }
                        found = spool.trial(check)
                        return found == nil
                    }
                } catch {
                    throw describe(error, name: name)
                }
                if let found { throw found }
                if !goOn { return try spool.finish() }
                count = try readChunk(descriptor, into: chunk, at: 0, name: name)
            }
            guard inflater.isComplete else {
                throw TraceFormatError(file: name, problem: .compressedStream("truncated gzip stream"))
            }
            return try spool.finish()
        }
        while count > 0 {
            if try !spool.append(UnsafeRawBufferPointer(rebasing: chunk[0..<count])) { break }
            count = try readChunk(descriptor, into: chunk, at: 0, name: name)
        }
        return try spool.finish()
    }

    private static func describe(_ failure: GzipInflater.Failure, name: String) -> any Error {
        let detail: String
        switch failure {
        case .sink(let error): return error
        case .outOfMemory: return TraceFileError(file: name, reason: "zlib is out of memory")
        case .corrupt(let message): detail = "corrupt gzip stream: \(message)"
        case .trailingData(let offset):
            detail = "byte \(offset) of the gzip stream follows its last member but does not start another"
        case .expansionLimit:
            detail =
                "gzip stream inflates past \(describe(bytes: gzipExpansionCheckedAboveBytes)) at more than "
                + "\(maximumGzipExpansionRatio):1, refused as a decompression bomb"
        }
        return TraceFormatError(file: name, problem: .compressedStream(detail))
    }

    /// One `read(2)` into `buffer` from `offset`, retried when interrupted; 0 at the end.
    private static func readChunk(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int, name: String
    ) throws(TraceFileError) -> Int {
        while true {
            let got = read(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            if got >= 0 { return got }
            if errno != EINTR { throw TraceFileError(file: name, reason: describeErrno()) }
        }
    }
}

/// A spool file with the checks that make streaming safe: a cap on what a stream may spool,
/// and a stop at the first NUL byte (no text format contains one: the importer reports it at
/// once, so `/dev/zero` or a compressed binary costs one chunk, not the whole cap).
private struct TraceSpool: ~Copyable {
    private var file: SpoolFile
    private let name: String
    private let limit: (bytes: Int, what: String)?
    private let stopsAtNULByte: Bool
    /// The first bytes, to tell UTF-16 and UTF-32 (a byte-order mark first, NULs everywhere)
    /// from binary: those are read on, for the importer to name.
    private var head: [UInt8] = []

    init(name: String, limit: (bytes: Int, what: String)?, stopsAtNULByte: Bool) throws(TraceFileError) {
        file = try SpoolFile(for: name)
        self.name = name
        self.limit = limit
        self.stopsAtNULByte = stopsAtNULByte
    }

    /// Appends `bytes`; `false` when nothing more is worth reading.
    mutating func append(_ bytes: UnsafeRawBufferPointer) throws(TraceFileError) -> Bool {
        if let limit, bytes.count > limit.bytes - file.count {
            throw TraceFileError(
                file: name, reason: "larger than \(TraceFile.describe(bytes: limit.bytes)), the limit for \(limit.what)"
            )
        }
        try file.write(bytes)
        if head.count < 4 { head.append(contentsOf: bytes.prefix(4 - head.count)) }
        guard stopsAtNULByte, let base = bytes.baseAddress else { return true }
        return memchr(base, 0, bytes.count) == nil || TraceFile.startsWithWideByteOrderMark(head)
    }

    /// Bytes written so far.
    var count: Int { file.count }

    /// What `check` finds importing the bytes written so far; `nil` when it finds nothing
    /// final, or the system will not map them (the whole file is then imported as usual).
    func trial(_ check: InflatedPrefixCheck?) -> TraceFormatError? {
        guard let check, let prefix = file.mapWritten() else { return nil }
        return check.error(in: prefix)
    }

    consuming func finish() throws(TraceFileError) -> TraceFile.Opened {
        let count = file.count
        guard count > 0 else { return .read([]) }
        guard let mapping = file.map() else {
            throw TraceFileError(file: name, reason: "cannot map its temporary copy: \(TraceFile.describeErrno())")
        }
        return .mapped(mapping)
    }
}
