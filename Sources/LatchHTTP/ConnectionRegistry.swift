internal import LatchLocking

#if canImport(Darwin)
    import Darwin
#else
    import Glibc
#endif

/// The open connections of a server (every generation of its daemon), so that one thread can cut
/// off those whose request is overdue: libmicrohttpd 0.9.75 only times out silence
/// (`MHD_OPTION_CONNECTION_TIMEOUT`), which a client sending a byte now and then never trips.
///
/// Connections are added and removed by libmicrohttpd's workers as they are accepted and closed,
/// into one of several shards so that workers seldom wait for each other; ``expireOverdue(now:)``
/// walks them all. A connection's socket is shut down only while its shard is locked and the
/// connection is still in it: libmicrohttpd closes the socket only after reporting the
/// connection closed (`MHD_CONNECTION_NOTIFY_CLOSED`), whose removal waits for that lock, so the
/// descriptor shut down is always still this connection's.
final class ConnectionRegistry: Sendable {
    private final class Shard: Sendable {
        let connections = Locked<[ObjectIdentifier: ConnectionState]>([:])
    }

    private let shards: [Shard]

    init(shards: Int) {
        self.shards = (0..<max(1, shards)).map { _ in Shard() }
    }

    private func shard(for connection: ConnectionState) -> Shard {
        shards[Int(bitPattern: UInt(bitPattern: ObjectIdentifier(connection).hashValue) >> 4) % shards.count]
    }

    func insert(_ connection: ConnectionState) {
        _ = shard(for: connection).connections.withLock { $0.updateValue(connection, forKey: ObjectIdentifier(connection)) }
    }

    func remove(_ connection: ConnectionState) {
        _ = shard(for: connection).connections.withLock { $0.removeValue(forKey: ObjectIdentifier(connection)) }
    }

    /// The connections open now.
    var count: Int {
        shards.reduce(0) { total, shard in total + shard.connections.withLock { $0.count } }
    }

    /// Shuts down (`shutdown(2)`, both directions) every connection whose request deadline is at
    /// or before `now`, marking it expired; returns how many.
    func expireOverdue(now: Int64) -> Int {
        var expired = 0
        for shard in shards {
            shard.connections.withLock { connections in
                for connection in connections.values where connection.expire(at: now) {
                    _ = shutdown(connection.descriptor, Int32(SHUT_RDWR))
                    expired += 1
                }
            }
        }
        return expired
    }
}
