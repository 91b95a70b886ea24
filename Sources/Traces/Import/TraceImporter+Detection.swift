#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension TraceImporter {
    /// The format a file's content shows, as `load(path:options:)` would detect it, from the
    /// file's first `FormatDetector.sniffBytes` only: for choosing which files of a folder are
    /// traces without importing any of them.
    ///
    /// A gzip file (told by its first bytes) is inflated only as far as that head. What the
    /// importer would refuse before detecting anything gives `nil` here: an empty or blank
    /// head, a NUL byte in it (binary data, a tar archive), UTF-16 or UTF-32 text. The file
    /// name plays no part: `load` lets the extension break ties only so that a damaged `.gpx`
    /// gets a GPX error, and a folder's `notes.gpx` that shows no GPX is not a trace to pick.
    /// A gzip stream damaged inside the head is judged on what inflated before the damage;
    /// importing the file then reports the damage.
    ///
    /// - Parameter path: a regular file (FIFOs and devices are refused before they are
    ///   opened, so a folder's FIFO cannot block the caller).
    /// - Returns: the detected format, or `nil` when the content shows none TraceSim reads.
    /// - Throws: `TraceFileError` when the file is not a regular file or cannot be opened or
    ///   read.
    /// - Complexity: O(1) in the file's size for a plain file (16 KiB read); a gzip file is
    ///   read until 16 KiB have inflated, a few tens of kilobytes for any real trace.
    public static func detectFormat(atPath path: String) throws(TraceFileError) -> TraceFormat? {
        let (descriptor, _) = try TraceFile.openForReading(path, requiresRegularFile: true)
        defer { close(descriptor) }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { chunk.deallocate() }
        let count = try read(
            descriptor, into: UnsafeMutableRawBufferPointer(rebasing: chunk[0..<sniffBytes]), at: 0, path: path)
        let isGzip = count >= 2 && chunk[0] == 0x1F && chunk[1] == 0x8B
        let head =
            try isGzip ? inflatedHead(descriptor, chunk, path: path) : Array(chunk.prefix(count))
        return head.withUnsafeBufferPointer { buffer in
            let source = TextSource(file: path, bytes: buffer)
            guard TextSource.wideEncoding(source.bytes) == nil, !source.bytes.contains(0) else { return nil }
            return FormatDetector.detect(source, pathExtension: "")
        }
    }

    private static var sniffBytes: Int { FormatDetector.sniffBytes }

    /// The first `sniffBytes` of the inflated stream, reading the file through `chunk` only
    /// while more are needed.
    private static func inflatedHead(
        _ descriptor: Int32, _ chunk: UnsafeMutableRawBufferPointer, path: String
    ) throws(TraceFileError) -> [UInt8] {
        var inflater: GzipInflater
        do { inflater = try GzipInflater() } catch { throw TraceFileError(file: path, reason: "zlib is out of memory") }
        var head: [UInt8] = []
        var offset = 0
        while true {
            let count = try read(descriptor, into: chunk, at: offset, path: path)
            guard count > 0 else { return head }
            offset += count
            do throws(GzipInflater.Failure) {
                let goOn = try inflater.feed(UnsafeRawBufferPointer(rebasing: chunk[0..<count])) { output, _ in
                    head.append(contentsOf: output.prefix(sniffBytes - head.count))
                    return head.count < sniffBytes
                }
                if !goOn { return head }
            } catch .outOfMemory {
                throw TraceFileError(file: path, reason: "zlib is out of memory")
            } catch {
                // Corrupt, or data after the last member: detection judges what came before.
                return head
            }
        }
    }

    /// Fills `buffer` from `offset`; fewer bytes only at the end of the file.
    /// - Returns: how many bytes were read.
    private static func read(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int, path: String
    ) throws(TraceFileError) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var count = 0
        while count < buffer.count {
            let got = pread(descriptor, base + count, buffer.count - count, off_t(offset + count))
            if got < 0 {
                if errno == EINTR { continue }
                throw TraceFileError(file: path, reason: TraceFile.describeErrno())
            }
            if got == 0 { break }
            count += got
        }
        return count
    }
}
