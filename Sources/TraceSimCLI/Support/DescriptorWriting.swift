import Foundation

/// Writes bytes to a file descriptor with plain POSIX `write`, the one place the CLI's output
/// reaches the kernel. `FileHandle.write` traps on any error; this reports it instead.
enum DescriptorWriting {
    /// Writes all of `bytes`, retrying interrupted and partial writes.
    /// - Returns: `nil` when every byte was written, otherwise the `errno` of the failure.
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        guard let base = bytes.baseAddress else { return nil }
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(descriptor, base + offset, bytes.count - offset)
            if written > 0 {
                offset += written
                continue
            }
            let code = written == 0 ? EIO : errno
            switch code {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK:
                // A descriptor inherited in non-blocking mode: wait until it takes more.
                var request = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&request, 1, -1)
            default: return code
            }
        }
        return nil
    }

    /// Writes all of `text`'s UTF-8 bytes; see `writeAll(_:to:)`.
    static func writeAll(_ text: String, to descriptor: Int32) -> Int32? {
        var text = text
        return text.withUTF8 { writeAll(UnsafeRawBufferPointer($0), to: descriptor) }
    }

    /// The C library's message for an `errno`, such as "No space left on device".
    static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }

    private static func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.write(descriptor, bytes, count)
        #elseif canImport(Musl)
            Musl.write(descriptor, bytes, count)
        #else
            Darwin.write(descriptor, bytes, count)
        #endif
    }
}
