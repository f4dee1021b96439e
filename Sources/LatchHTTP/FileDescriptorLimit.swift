#if canImport(Darwin)
    import Darwin
#else
    import Glibc
#endif

/// Fits the connection limit to the process's open-file limit (`RLIMIT_NOFILE`, getrlimit(2)):
/// every connection holds a descriptor, and a server that runs out of them cannot open its
/// database or accept anything at all.
enum FileDescriptorLimit {
    #if canImport(Darwin)
        private static let resource = RLIMIT_NOFILE
        private static let infinity = RLIM_INFINITY
    #else
        private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        /// `RLIM_INFINITY`, `(rlim_t) -1`, which Swift does not import.
        private static let infinity = rlim_t.max
    #endif

    /// Descriptors kept for everything but client connections: listening sockets, libmicrohttpd's
    /// inter-thread pipes, the database, log and certificate files, outgoing connections.
    static let reserve = 256

    /// Raises the soft limit toward the hard one until `connections` plus ``reserve`` fit, and
    /// returns the connection limit that fits then (`connections`, or fewer when even the hard
    /// limit is too low) with a line saying why it was lowered.
    static func fit(connections: Int) -> (limit: Int, note: String?) {
        var limits = rlimit()
        guard getrlimit(resource, &limits) == 0 else { return (connections, nil) }
        let needed = rlim_t(max(0, connections)) + rlim_t(reserve)
        if limits.rlim_cur != infinity && limits.rlim_cur < needed {
            var raised = limits
            raised.rlim_cur = limits.rlim_max == infinity ? needed : min(needed, limits.rlim_max)
            if setrlimit(resource, &raised) == 0 { limits = raised }
        }
        guard limits.rlim_cur != infinity, limits.rlim_cur < needed else { return (connections, nil) }
        let available = Int(limits.rlim_cur)
        let limit = max(1, available > 2 * reserve ? available - reserve : available / 2)
        return (
            min(limit, connections),
            "connection limit lowered from \(connections) to \(limit): the process may open only \(available) files "
                + "(RLIMIT_NOFILE; raise it with ulimit -n or LimitNOFILE=)"
        )
    }
}
