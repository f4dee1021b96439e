/// Why a webhook did not take a message: it answered with a status other than 2xx, or it could not
/// be reached in time. The outbox worker retries either after a backoff. The description names the
/// endpoint's host and port and the reason, never the URL's path, the secret or the message.
public struct WebhookDeliveryFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Equatable {
        /// The endpoint answered with this status (not 2xx).
        case status(Int)
        /// No answer: connection refused, name not found, TLS failure, time limit; with the
        /// transfer's own explanation.
        case unreachable(String)
    }

    /// `host:port` of the endpoint.
    public let endpoint: String
    /// What went wrong.
    public let reason: Reason

    public var description: String {
        switch reason {
        case .status(let status): "SMS webhook \(endpoint) answered HTTP \(status)"
        case .unreachable(let detail): "SMS webhook \(endpoint) unreachable: \(detail)"
        }
    }
}
