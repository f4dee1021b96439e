internal import LatchLocking

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// A bounded set of connections, opened on demand and lent out one unit of work at a time.
/// A connection that failed is closed instead of returned; after such a failure the idle ones are
/// closed too (a restarted server ended them all), so the next units connect afresh.
// @unchecked Sendable: every stored var is only touched with `lock` held; a lent connection is used by one thread only.
final class PostgresPool: @unchecked Sendable {
    private let connectionString: String
    private let configuration: PostgresConfiguration
    private let lock = ConditionLock()
    private var idle: [PostgresConnection] = []
    private var statistics = PostgresPoolStatistics()
    private var closed = false

    init(connectionString: String, configuration: PostgresConfiguration) {
        self.connectionString = connectionString
        self.configuration = configuration
        statistics.capacity = max(1, configuration.maxConnections)
    }

    /// The counters now.
    var snapshot: PostgresPoolStatistics { lock.withLock { statistics } }

    /// Counts one retried unit.
    func countRetry() { lock.withLock { statistics.retries += 1 } }

    /// Lends a connection: an idle one, a new one while fewer than the capacity are open, or the
    /// first one returned within the acquire timeout.
    func checkOut() throws(PostgresError) -> PostgresConnection {
        lock.lock()
        var waited = false
        let deadline = Self.seconds() + configuration.acquireTimeoutSeconds
        while true {
            if closed {
                lock.unlock()
                throw PostgresError(kind: .unavailable, message: "database is closed")
            }
            if let connection = idle.popLast() {
                statistics.inUse += 1
                lock.unlock()
                return connection
            }
            if statistics.open < statistics.capacity {
                statistics.open += 1
                statistics.inUse += 1
                lock.unlock()
                do {
                    return try PostgresConnection(
                        connectionString: connectionString, defaults: configuration.connectionDefaults,
                        statementText: configuration.statementText)
                } catch {
                    lock.withLock {
                        statistics.open -= 1
                        statistics.inUse -= 1
                        statistics.connectionFailures += 1
                        lock.broadcast()
                    }
                    throw error
                }
            }
            if !waited {
                waited = true
                statistics.waits += 1
            }
            let remaining = deadline - Self.seconds()
            if remaining <= 0 {
                statistics.waitTimeouts += 1
                lock.unlock()
                throw PostgresError(
                    kind: .unavailable,
                    message: "no database connection free within \(configuration.acquireTimeoutSeconds) s")
            }
            _ = lock.wait(seconds: remaining)
        }
    }

    /// Takes `connection` back: idle again, or closed when it failed or the pool closed.
    func checkIn(_ connection: PostgresConnection) {
        var stale: [PostgresConnection] = []
        lock.withLock {
            statistics.inUse -= 1
            if connection.isBroken || closed || connection.inTransaction {
                statistics.open -= 1
                if connection.isBroken {
                    statistics.connectionFailures += 1
                    // The others were most likely ended with it (a restart, a failover).
                    stale = idle
                    statistics.open -= idle.count
                    idle = []
                }
            } else {
                idle.append(connection)
            }
            lock.broadcast()
        }
        _ = stale  // closed here, outside the lock, as the array goes
    }

    /// Closes the idle connections and refuses new checkouts; lent ones close when returned.
    func close() {
        let connections: [PostgresConnection] = lock.withLock {
            closed = true
            let all = idle
            statistics.open -= idle.count
            idle = []
            lock.broadcast()
            return all
        }
        _ = connections
    }

    private static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
