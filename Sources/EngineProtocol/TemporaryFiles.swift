#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files being written under a temporary name, to remove if the program is stopped before
/// they are renamed into place (`TerminationSignals`): a signal leaves no half-written report
/// next to its target, as a failed write leaves none.
package struct TemporaryFiles: Sendable {
    private var paths: [String] = []

    package init() {}

    /// Removes `path` at `removeAll()` unless it is forgotten first.
    package mutating func add(_ path: String) {
        paths.append(path)
    }

    /// Keeps `path` at `removeAll()`: it was renamed into place, or removed already.
    package mutating func forget(_ path: String) {
        if let index = paths.lastIndex(of: path) { paths.remove(at: index) }
    }

    /// Removes every file not forgotten. A writer that renames its file after this finds it
    /// gone and fails, so its target stays as it was.
    package mutating func removeAll() {
        for path in paths { unlink(path) }
        paths.removeAll()
    }
}
