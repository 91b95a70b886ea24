#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A trace file mapped read-only into memory, whose pages an importer hands back once it has
/// read past them, so a multi-gigabyte trace never needs more than a few megabytes of it
/// resident at once.
///
/// Handing pages back is safe at any time: the mapping is private and never written, so a
/// page the kernel dropped is read again from the file if anything looks back (an error
/// message counting lines from the start, say). The one hazard of any mapping remains: a
/// file truncated by another process while it is imported stops the process with SIGBUS.
package final class MappedFile {
    /// The whole file.
    let bytes: UnsafeBufferPointer<UInt8>
    private var releasedUpTo: UnsafePointer<UInt8>
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
    /// Pages are handed back in batches this large: one system call per batch.
    private static let releaseBatchBytes = 8 << 20

    /// Maps `descriptor`'s first `count` bytes; `nil` when the system will not map it (the
    /// caller then reads the file instead).
    init?(descriptor: Int32, count: Int) {
        guard count > 0, let mapped = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED
        else { return nil }
        let base = UnsafePointer(mapped.assumingMemoryBound(to: UInt8.self))
        bytes = UnsafeBufferPointer(start: base, count: count)
        releasedUpTo = base
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }

    /// Hands back the whole pages before `position`; cheap enough to call once per line. A
    /// position outside the file (a parser reading from a buffer of its own, after an
    /// encoding conversion, say) is ignored.
    @inline(__always)
    func release(before position: UnsafePointer<UInt8>) {
        guard position - releasedUpTo >= Self.releaseBatchBytes else {
            // Behind the last release: a new pass over the file (the text check, then the
            // importer) has started, and its pages are counted from here.
            if position < releasedUpTo { restartPass(at: position) }
            return
        }
        releasePages(before: position)
    }

    private func restartPass(at position: UnsafePointer<UInt8>) {
        guard let base = bytes.baseAddress, position >= base else { return }
        releasedUpTo = base + (position - base) / Self.pageSize * Self.pageSize
    }

    private func releasePages(before position: UnsafePointer<UInt8>) {
        guard let base = bytes.baseAddress, position >= base, position <= base + bytes.count else { return }
        let offset = (position - base) / Self.pageSize * Self.pageSize
        let end = base + offset
        guard end > releasedUpTo else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: releasedUpTo), end - releasedUpTo, MADV_DONTNEED)
        releasedUpTo = end
    }
}
