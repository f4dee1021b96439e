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
    /// Set when a graceful shutdown begins: responses then carry `Connection: close`.
    let draining = Atomic<Bool>(false)

    init(configuration: HTTPServerConfiguration, responder: any HTTPResponder) {
        self.responder = responder
        self.maxBodyBytes = configuration.maxBodyBytes
        self.maxHeaderBytes = configuration.maxHeaderBytes
        self.maxDiscardedBodyBytes = configuration.maxDiscardedBodyBytes
        self.discardTimeout = .milliseconds(Int(configuration.discardTimeoutSeconds * 1000))
        self.errorLog = configuration.errorLog
    }
}
