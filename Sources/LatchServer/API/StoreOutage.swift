import LatchHTTP

/// What every wire answers while the store is out of reach (a lost or refused database
/// connection, a pool with no free connection, a unit that kept failing to serialize): 503 with
/// `Retry-After`, in the wire's own error shape, never a 500. The domain only ever sees
/// ``StoreError/unavailable(_:)``; each API turns it into this ``HTTPError`` in one place, and
/// its renderer words it.
enum StoreOutage {
    /// Seconds a client waits before retrying: a restarted database or a failover is usually back
    /// within a few seconds.
    static let retryAfter = 1

    /// The 503 for `error` when it is a store outage; `nil` for every other error.
    static func httpError(for error: any Error) -> HTTPError? {
        guard case StoreError.unavailable = error else { return nil }
        return .serviceUnavailable("The service is temporarily unavailable; try again shortly.", retryAfter: retryAfter)
    }

    /// Logs the outage (a warning, with the store's own description, which names no secret).
    static func log(_ error: any Error, _ log: ServerLog, request: HTTPRequest) {
        log.warning("store unavailable", [("error", "\(error)")], request: request)
    }
}
