import Synchronization

/// What libmicrohttpd's callbacks share for one running server: the responder, the limits and the
/// counters. Immutable apart from its atomics, so any worker thread may use it.
final class ServerCore: Sendable {
    let responder: any HTTPResponder
    let maxBodyBytes: Int
    let maxHeaderBytes: Int
    let maxDiscardedBodyBytes: Int
    let discardTimeout: Duration
    let errorLog: @Sendable (String) -> Void

    /// Requests whose head has started arriving and whose completion was not yet reported.
    let inFlight = Atomic<Int>(0)
    /// Open connections of the daemon this core belongs to (`MHD_OPTION_NOTIFY_CONNECTION`).
    let openConnections = Atomic<Int>(0)
    /// Set when a graceful shutdown begins or the daemon is being retired after a certificate
    /// change: responses then carry `Connection: close`.
    let draining = Atomic<Bool>(false)
    /// While the daemon starts, libmicrohttpd's log lines are also kept here, so that a refusal
    /// (say, of a TLS key) can be reported in the thrown error; `nil` once started.
    let startupLog = Mutex<[String]?>([])

    init(configuration: HTTPServerConfiguration, responder: any HTTPResponder) {
        self.responder = responder
        self.maxBodyBytes = configuration.maxBodyBytes
        self.maxHeaderBytes = configuration.maxHeaderBytes
        self.maxDiscardedBodyBytes = configuration.maxDiscardedBodyBytes
        self.discardTimeout = .milliseconds(Int(configuration.discardTimeoutSeconds * 1000))
        self.errorLog = configuration.errorLog
    }
}
