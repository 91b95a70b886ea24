#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bytes read from a pipe, handed out a line at a time, in time linear in the bytes.
///
/// Each byte is searched for the newline once: the search goes on from where the last one
/// stopped, and the bytes of a taken line are dropped once, when the next chunk comes.
/// Searching the whole partial line again after every chunk makes a long line arriving in
/// pieces quadratic.
package struct LineBuffer: Sendable {
    private var bytes: [UInt8] = []
    /// Bytes searched for a newline so far, all lines together: the work done, which tests
    /// compare with the bytes appended.
    package private(set) var bytesSearched = 0
    /// Where the next line starts.
    private var start = 0
    /// Where the search for its newline goes on.
    private var searched = 0

    package init() {}

    /// Bytes of the line being read so far, no newline among them yet (after `nextLine`
    /// returned `nil`), or of lines not taken yet.
    package var pendingCount: Int { bytes.count - start }

    /// The next whole line, without its newline; `nil` until one has arrived.
    /// - Complexity: O(bytes not searched before).
    package mutating func nextLine() -> ArraySlice<UInt8>? {
        let from = searched
        // memchr: the C library's vectorised search, which a debug build's loop is not.
        let found = bytes.withUnsafeBufferPointer { bytes -> Int? in
            guard let base = bytes.baseAddress, from < bytes.count,
                let hit = memchr(base + from, 0x0A, bytes.count - from)
            else { return nil }
            return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
        guard let newline = found else {
            bytesSearched += bytes.count - from
            searched = bytes.count
            return nil
        }
        bytesSearched += newline + 1 - from
        let line = bytes[start..<newline]
        start = newline + 1
        searched = start
        return line
    }

    /// Adds what one read returned.
    /// - Complexity: O(`chunk.count` + the partial line moved to the front, once per line).
    package mutating func append(_ chunk: ArraySlice<UInt8>) {
        if start > 0 {
            bytes.removeSubrange(0..<start)
            searched -= start
            start = 0
        }
        bytes.append(contentsOf: chunk)
    }
}
