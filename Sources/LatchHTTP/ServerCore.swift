internal import LatchLocking

#if canImport(Darwin)
    import Darwin
#else
    import Glibc
#endif

/// What libmicrohttpd's callbacks share for one running server: the responder, the limits and the
/// counters. Immutable apart from its locked counters, so any worker thread may use it.
final class ServerCore: Sendable {
    let responder: any HTTPResponder
    let maxBodyBytes: Int
    let maxHeaderBytes: Int
    let maxDiscardedBodyBytes: Int
    let discardTimeout: Duration
    let errorLog: @Sendable (String) -> Void
    /// Milliseconds a client has to send a request (``HTTPServerConfiguration/headerTimeoutSeconds``); 0: no deadline.
    let requestDeadline: Int64
    /// Milliseconds a kept-alive connection may stay silent before libmicrohttpd closes it.
    let idleTimeout: Int64
    /// The open connections of every generation of the server, for the request deadlines.
    let connections: ConnectionRegistry
    /// Where abnormal endings are counted and libmicrohttpd's messages thinned out, server-wide.
    let endings: AbnormalEndingLog

    /// Requests whose head has started arriving and whose completion was not yet reported.
    let inFlight = Locked<Int>(0)
    /// Open connections of the daemon this core belongs to (`MHD_OPTION_NOTIFY_CONNECTION`).
    let openConnections = Locked<Int>(0)
    /// Set when a graceful shutdown begins or the daemon is being retired after a certificate
    /// change: responses then carry `Connection: close`.
    let draining = Locked<Bool>(false)
    /// Runs blocking answers off the workers; shared by every generation of the server.
    let blockingPool: BlockingRequestPool
    /// Connections suspended for a blocking answer and not yet resumed, and whether the daemon is
    /// stopping; under one lock, so that no connection is suspended once ``closeSuspensions()`` has
    /// begun (libmicrohttpd must not stop with one suspended, nor be resumed into once stopped).
    private let suspensions = Locked(Suspensions())

    private struct Suspensions {
        var count = 0
        var closed = false
    }
    /// While the daemon starts, libmicrohttpd's log lines are also kept here, so that a refusal
    /// (say, of a TLS key) can be reported in the thrown error; `nil` once started.
    let startupLog = Locked<[String]?>([])

    init(
        configuration: HTTPServerConfiguration, responder: any HTTPResponder, connections: ConnectionRegistry,
        endings: AbnormalEndingLog, blockingPool: BlockingRequestPool
    ) {
        self.responder = responder
        self.blockingPool = blockingPool
        self.maxBodyBytes = configuration.maxBodyBytes
        self.maxHeaderBytes = configuration.maxHeaderBytes
        self.maxDiscardedBodyBytes = configuration.maxDiscardedBodyBytes
        self.discardTimeout = .milliseconds(Int(configuration.discardTimeoutSeconds * 1000))
        self.errorLog = configuration.errorLog
        self.requestDeadline = Int64(max(0, configuration.headerTimeoutSeconds)) * 1000
        self.idleTimeout = Int64(max(0, configuration.idleTimeoutSeconds)) * 1000
        self.connections = connections
        self.endings = endings
    }

    /// Counts a connection about to be suspended for a blocking answer; `false` once the daemon is
    /// stopping, when the answer is made on the worker instead.
    func beginSuspension() -> Bool {
        suspensions.withLock { state in
            guard !state.closed else { return false }
            state.count += 1
            return true
        }
    }

    /// Counts a suspended connection as resumed, or one counted by ``beginSuspension()`` as never
    /// suspended.
    func endSuspension() {
        suspensions.withLock { $0.count -= 1 }
    }

    /// Refuses further suspensions, then waits until every suspended connection of this daemon has
    /// been resumed: each is as soon as its answer is made, so this waits as long as the slowest of
    /// them takes.
    func closeSuspensions() {
        suspensions.withLock { $0.closed = true }
        while suspensions.withLock({ $0.count }) > 0 { usleep(1_000) }
    }

    /// Milliseconds within which the next request on a connection whose response has just been
    /// sent must arrive: libmicrohttpd closes it after ``idleTimeout`` of silence, and a client
    /// that keeps it alive by dripping bytes still has to finish its request within the deadline.
    var nextRequestDeadline: Int64 { idleTimeout + requestDeadline }
}
