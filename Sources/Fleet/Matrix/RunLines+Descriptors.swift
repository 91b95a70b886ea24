#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension RunLines {
    /// Descriptors kept free for everything else a merge or summary opens: the standard
    /// streams, the runtime's own, an output file.
    static let reservedDescriptors = 32

    /// Whether `parts` files can be held open side by side: raises the process's soft limit on
    /// open files towards its hard limit when it is too low (a `ulimit -n` of 1,024 against a
    /// merge of 4,000 parts), and says `false` when even the hard limit is too low, so that
    /// the parts are opened again for each chunk they are read in (`RunLines(path:keepsOpen:)`).
    package static func canHoldOpen(parts: Int) -> Bool {
        let needed = rlim_t(parts + reservedDescriptors)
        var limit = rlimit()
        guard getrlimit(limitResource, &limit) == 0 else { return false }
        if limit.rlim_cur >= needed { return true }
        guard limit.rlim_max >= needed else { return false }
        var raised = limit
        raised.rlim_cur = needed
        return setrlimit(limitResource, &raised) == 0
    }

    #if canImport(Glibc)
        private static let limitResource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        private static let limitResource = RLIMIT_NOFILE
    #endif
}
