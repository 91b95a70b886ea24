import Foundation

/// What an output path names once its symbolic links are followed: the CLI writes each kind
/// differently, so that a report never turns a link, a device or a read-only file into
/// something else.
enum OutputTarget {
    /// The process's standard output or error (`/dev/stdout`, `/proc/self/fd/2`, ...).
    case stream(StandardStreams.Stream)
    /// Another open descriptor (`/dev/fd/3`): written as it is, never reopened.
    case descriptor(Int32)
    /// A path that does not exist yet, to be created (the end of a dangling link included).
    case absent(path: String)
    /// An existing file system object and its `stat`.
    case existing(path: String, status: stat)
    /// The path cannot be followed; the `errno`.
    case unresolvable(code: Int32)

    /// More links than this in a row is a loop, as the kernel's own limit says.
    private static let linkLimit = 40

    /// Follows `path`'s final component through symbolic links to what it names.
    static func resolve(_ path: String) -> OutputTarget {
        var current = path
        for _ in 0...linkLimit {
            if let alias = alias(current) { return alias }
            var status = stat()
            guard lstat(current, &status) == 0 else {
                return errno == ENOENT ? .absent(path: current) : .unresolvable(code: errno)
            }
            guard status.st_mode & S_IFMT == S_IFLNK else { return .existing(path: current, status: status) }
            guard let link = readLink(current) else { return .unresolvable(code: errno) }
            current = link.hasPrefix("/") ? link : folder(of: current) + link
        }
        return .unresolvable(code: ELOOP)
    }

    /// The folder part of `path`, with its trailing slash ("" for a bare name).
    static func folder(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
    }

    /// The standard streams and open descriptors by the names Linux and the BSDs give them.
    /// Following these links instead would name a pipe ("pipe:[123]") or replace the file the
    /// shell opened for the stream, losing what was already written to it.
    private static func alias(_ path: String) -> OutputTarget? {
        switch path {
        case "/dev/stdout": return .stream(.output)
        case "/dev/stderr": return .stream(.error)
        default: break
        }
        for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
            guard let number = Int32(path.dropFirst(prefix.count)) else { return nil }
            switch number {
            case 1: return .stream(.output)
            case 2: return .stream(.error)
            default: return .descriptor(number)
            }
        }
        return nil
    }

    private static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
