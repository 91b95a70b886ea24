import CZlib

/// Inflates a gzip stream fed in chunks, member after member: `cat a.gz b.gz` is one valid
/// stream whose content is both files', as gzip(1) reads it.
///
/// zlib checks each member's CRC-32 and length. A stream that ends inside a member is
/// truncated; bytes after a member that do not start another are refused rather than dropped.
///
/// A gzip bomb is refused as it inflates, not after: see `TraceFile.maximumGzipExpansionRatio`.
struct GzipInflater: ~Copyable {
    private let stream: UnsafeMutablePointer<z_stream>
    private let output: UnsafeMutableRawBufferPointer
    /// Inside a member: the input may not end here.
    /// Whether zero bytes of padding followed the last member.
    private var isPadding = false
    private var isInMember = false
    private var membersStarted = 0
    /// Compressed bytes consumed and inflated bytes produced, across members.
    private(set) var consumed = 0
    private(set) var produced = 0

    /// Why inflating stopped short.
    enum Failure: Error {
        /// zlib's own words for the damage.
        case corrupt(String)
        /// Bytes after the last member that do not start another, at this offset.
        case trailingData(offset: Int)
        /// The output outgrew the input past the bomb limits.
        case expansionLimit
        /// zlib could not allocate its window.
        case outOfMemory
        /// The code the output is handed to failed.
        case sink(TraceFileError)
    }

    init() throws(Failure) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        output = .allocate(byteCount: 1 << 18, alignment: 1)
        guard tracesim_inflate_init_gzip(stream) == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            output.deallocate()
            throw .outOfMemory
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
        output.deallocate()
    }

    /// Whether the stream can end here: at least one member, and none left open.
    var isComplete: Bool { membersStarted > 0 && !isInMember }

    /// Inflates `input`, handing each run of output to `sink` before the next overwrites it,
    /// with the compressed bytes consumed so far (across calls) that produced it.
    /// - Returns: `false` when `sink` asked to stop (it returns `false` for that).
    mutating func feed(
        _ input: UnsafeRawBufferPointer,
        into sink: (_ output: UnsafeRawBufferPointer, _ consumed: Int) throws(TraceFileError) -> Bool
    ) throws(Failure) -> Bool {
        guard let base = input.baseAddress, !input.isEmpty else { return true }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
        defer {
            stream.pointee.next_in = nil
            stream.pointee.avail_in = 0
        }
        while true {
            if !isInMember {
                guard stream.pointee.avail_in > 0 else { return true }
                // A second member must open with gzip's magic; anything else is trailing data,
                // which zlib would only call an "incorrect header check".
                if membersStarted > 0 {
                    // Tapes and block devices pad a file with zeros after its last member;
                    // gzip(1) ignores them, and so does this. Nothing may follow the padding.
                    while stream.pointee.avail_in > 0, stream.pointee.next_in.pointee == 0 {
                        stream.pointee.next_in += 1
                        stream.pointee.avail_in -= 1
                        consumed += 1
                        isPadding = true
                    }
                    guard stream.pointee.avail_in > 0 else { return true }
                    guard !isPadding, stream.pointee.next_in.pointee == 0x1F else {
                        throw .trailingData(offset: consumed)
                    }
                    inflateReset(stream)
                }
                isInMember = true
                membersStarted += 1
            }
            let before = Int(stream.pointee.avail_in)
            stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = uInt(output.count)
            let status = inflate(stream, Z_NO_FLUSH)
            let count = output.count - Int(stream.pointee.avail_out)
            consumed += before - Int(stream.pointee.avail_in)
            produced += count
            if produced > TraceFile.gzipExpansionCheckedAboveBytes,
                produced / TraceFile.maximumGzipExpansionRatio > consumed
            {
                throw .expansionLimit
            }
            if count > 0 {
                let goOn: Bool
                do throws(TraceFileError) {
                    goOn = try sink(UnsafeRawBufferPointer(rebasing: output[0..<count]), consumed)
                } catch {
                    throw .sink(error)
                }
                if !goOn { return false }
            }
            switch status {
            case Z_STREAM_END:
                isInMember = false
            case Z_OK, Z_BUF_ERROR:
                // A full output buffer may hide more output; otherwise zlib wants more input.
                if count == output.count { continue }
                if stream.pointee.avail_in == 0 { return true }
                if status == Z_BUF_ERROR { throw .corrupt("no progress") }
            case Z_MEM_ERROR:
                throw .outOfMemory
            default:
                throw .corrupt(stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(status)")
            }
        }
    }
}
