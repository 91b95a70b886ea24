import Foundation

/// Refuses a command line whose output would overwrite one of its inputs or another of its
/// outputs. Paths are compared by what they name, device and inode, not by spelling: `x.gpx`,
/// `./x.gpx`, a hard link and a symbolic link to it are all the same file.
enum OutputCollisions {
    /// A path and the part it plays, such as ("--junit", "report.xml") or ("the trace", "a.gpx").
    typealias Role = (role: String, path: String)

    /// Throws a usage error naming both roles when an output names an input or another output.
    ///
    /// Only regular files and paths still to be created can collide: a device or a pipe
    /// (`/dev/null`, `/dev/stdout`) is written in sequence, so two reports sent there lose nothing.
    static func check(outputs: [Role], inputs: [Role], command: String) throws(UsageError) {
        let inputIdentities = inputs.map { (role: $0, identity: inputIdentity($0.path)) }
        var earlier: [(role: Role, identity: FileIdentity)] = []
        for output in outputs {
            guard let identity = outputIdentity(output.path) else { continue }
            if let input = inputIdentities.first(where: { $0.identity == identity }) {
                throw UsageError(
                    "\(output.role) '\(output.path)' is the same file as \(input.role.role) '\(input.role.path)': "
                        + "TraceSim never overwrites its input",
                    command: command)
            }
            if let other = earlier.first(where: { $0.identity == identity }) {
                throw UsageError(
                    "\(other.role.role) '\(other.role.path)' and \(output.role) '\(output.path)' name the same file: "
                        + "each output needs its own path",
                    command: command)
            }
            earlier.append((output, identity))
        }
    }

    /// A file by device and inode; a file still to be created by its folder's device and inode
    /// and its name in that folder.
    private struct FileIdentity: Equatable {
        var device: UInt64
        var inode: UInt64
        var name: String?
    }

    private static func inputIdentity(_ path: String) -> FileIdentity? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    private static func outputIdentity(_ path: String) -> FileIdentity? {
        switch OutputTarget.resolve(path) {
        case .existing(_, let status) where status.st_mode & S_IFMT == S_IFREG:
            return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        case .absent(let target):
            let folder = OutputTarget.folder(of: target)
            var status = stat()
            guard stat(folder.isEmpty ? "." : folder, &status) == 0 else { return nil }
            return FileIdentity(
                device: UInt64(status.st_dev), inode: UInt64(status.st_ino),
                name: String(target.dropFirst(folder.count)))
        default:
            return nil
        }
    }
}
