import EngineProtocol
import Foundation

/// A file output that could not be written: the line to print and the exit code.
struct OutputFailure: Error, Sendable, Equatable {
    var exitCode: ExitCode
    var message: String

    /// The path cannot be written at all (73), such as a directory or a read-only file.
    static func cannotCreate(_ path: String, _ reason: String) -> OutputFailure {
        OutputFailure(exitCode: .cannotCreate, message: "error: \(path): cannot write: \(reason)")
    }

    /// Writing started and failed (74), such as a full disk; nothing partial was left behind.
    static func ioError(_ path: String, _ code: Int32) -> OutputFailure {
        OutputFailure(exitCode: .ioError, message: "output error: \(path): \(DescriptorWriting.describe(code))")
    }

    /// The failure class an `errno` belongs to: running out of room or a failing device is an
    /// I/O error; anything else means the path cannot be written.
    static func from(_ code: Int32, path: String) -> OutputFailure {
        switch code {
        case ENOSPC, EDQUOT, EIO, EFBIG, EPIPE: ioError(path, code)
        default: cannotCreate(path, DescriptorWriting.describe(code))
        }
    }
}

/// Writes the files TraceSim opens itself (`check --junit`, `check --markdown`, `convert`'s
/// output) so that none is ever left partial and none is turned into something it was not:
/// - a regular file (new or replaced) is written to a temporary file in the same folder,
///   flushed to disk and renamed over the path; a replaced file keeps its mode, owner and group;
/// - a symbolic link is followed and its target replaced, so the link survives;
/// - a character device or FIFO is opened for writing and written directly, never replaced; a
///   FIFO that no process opens for reading within `FIFOWait.limitSeconds` is refused (exit 73)
///   rather than waited on for ever;
/// - `/dev/stdout`, `/dev/stderr` and `/dev/fd/N` go to the already open stream or descriptor;
/// - a directory, socket or block device is refused (exit 73).
///
/// A file that is read-only for the user is refused rather than replaced (exit 73), root included:
/// root may bypass permissions, but a mode that grants nobody write access is an owner's statement
/// that the file must not change, and replacing it would silently discard that.
enum OutputFile {
    /// Writes `text` to `path`; `nil` on success.
    static func write(_ text: String, to path: String, console: Console) -> OutputFailure? {
        guard !path.isEmpty else { return .cannotCreate("''", "the path is empty") }
        switch OutputTarget.resolve(path) {
        case .stream(.output):
            console.output(text)
            return nil
        case .stream(.error):
            console.error(text)
            return nil
        case .descriptor(let number):
            return DescriptorWriting.writeAll(text, to: number).map { .from($0, path: path) }
        case .unresolvable(let code):
            return .cannotCreate(path, DescriptorWriting.describe(code))
        case .absent(let target):
            return replace(target, with: text, keeping: nil, reportedAs: path)
        case .existing(let target, let status):
            switch status.st_mode & S_IFMT {
            case S_IFREG:
                if let refusal = refusal(toReplace: target, status, reportedAs: path) { return refusal }
                return replace(target, with: text, keeping: status, reportedAs: path)
            case S_IFCHR:
                return writeDirectly(target, text, reportedAs: path)
            case S_IFIFO:
                switch FIFOWait.openForWriting(target) {
                case .success(let descriptor): return write(text, to: descriptor, reportedAs: path)
                case .failure(let failure): return .cannotCreate(path, failure.reason(peer: "reading"))
                }
            case S_IFDIR:
                return .cannotCreate(path, "it is a directory; give a file name")
            case S_IFBLK:
                return .cannotCreate(path, "it is a block device; reports go to files, character devices or pipes")
            default:
                return .cannotCreate(path, "it is not a file, character device or pipe")
            }
        }
    }

    private static func refusal(toReplace target: String, _ status: stat, reportedAs path: String) -> OutputFailure? {
        if access(target, W_OK) != 0 { return .cannotCreate(path, DescriptorWriting.describe(errno)) }
        if status.st_mode & 0o222 == 0 {
            let mode = String(status.st_mode & 0o7777, radix: 8)
            return .cannotCreate(path, "the file is read-only (mode \(mode)); TraceSim does not override that")
        }
        return nil
    }

    /// Opens an existing device or FIFO without creating or truncating it, as a shell's `>` would.
    private static func writeDirectly(_ target: String, _ text: String, reportedAs path: String) -> OutputFailure? {
        let descriptor = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return .cannotCreate(path, DescriptorWriting.describe(errno)) }
        return write(text, to: descriptor, reportedAs: path)
    }

    /// Writes `text` to a descriptor opened here and closes it.
    private static func write(_ text: String, to descriptor: Int32, reportedAs path: String) -> OutputFailure? {
        let written = DescriptorWriting.writeAll(text, to: descriptor)
        let closed = close(descriptor) == 0 ? nil : errno
        return (written ?? closed).map { .from($0, path: path) }
    }

    /// Writes a temporary file next to `target`, flushes it and renames it over `target`; on any
    /// failure the temporary file is removed and `target` is as it was.
    private static func replace(
        _ target: String, with text: String, keeping original: stat?, reportedAs path: String
    ) -> OutputFailure? {
        let folder = OutputTarget.folder(of: target)
        let name = String(target.dropFirst(folder.count))
        guard !name.isEmpty else { return .cannotCreate(path, "it names a directory; give a file name") }
        var temporary = ""
        var descriptor: Int32 = -1
        for _ in 0..<100 where descriptor < 0 {
            temporary = folder + ".\(name).tracesim-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
            // 0666 before the umask, as the shell creates files; a replaced file's mode is set below.
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor < 0 && errno != EEXIST { return creationFailure(errno, replacing: original != nil, path) }
        }
        guard descriptor >= 0 else { return .cannotCreate(path, "cannot create a temporary file next to it") }
        TerminationSignals.removeOnStop(temporary)
        defer { TerminationSignals.forgetTemporaryFile(temporary) }
        if let failure = fill(descriptor, with: text, keeping: original, reportedAs: path) {
            close(descriptor)
            unlink(temporary)
            return failure
        }
        guard close(descriptor) == 0 else {
            let code = errno
            unlink(temporary)
            return .from(code, path: path)
        }
        guard rename(temporary, target) == 0 else {
            let code = errno
            unlink(temporary)
            return .from(code, path: path)
        }
        // Make the rename itself durable; a file system that cannot sync a folder loses nothing.
        let directory = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            _ = fsync(directory)
            close(directory)
        }
        return nil
    }

    /// A writable file in a folder that is not still cannot be replaced whole: say so, rather than
    /// a bare "Permission denied" about a file the user may write.
    private static func creationFailure(_ code: Int32, replacing: Bool, _ path: String) -> OutputFailure {
        guard replacing, code == EACCES || code == EPERM || code == EROFS else { return .from(code, path: path) }
        return .cannotCreate(
            path, "cannot make a temporary file in its folder to replace it whole (\(DescriptorWriting.describe(code)))"
        )
    }

    private static func fill(
        _ descriptor: Int32, with text: String, keeping original: stat?, reportedAs path: String
    ) -> OutputFailure? {
        if let original {
            var created = stat()
            guard fstat(descriptor, &created) == 0 else { return .from(errno, path: path) }
            if (created.st_uid != original.st_uid || created.st_gid != original.st_gid)
                && fchown(descriptor, original.st_uid, original.st_gid) != 0
            {
                return .cannotCreate(
                    path, "cannot replace it and keep its owner and group (\(DescriptorWriting.describe(errno)))")
            }
            guard fchmod(descriptor, original.st_mode & 0o7777) == 0 else { return .from(errno, path: path) }
        }
        if let code = DescriptorWriting.writeAll(text, to: descriptor) { return .from(code, path: path) }
        guard fsync(descriptor) == 0 else { return .from(errno, path: path) }
        return nil
    }
}
