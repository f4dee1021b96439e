/// Why ``HTTPServer/start()`` or ``HTTPServer/replaceCertificate(chainPEM:privateKeyPEM:)`` failed.
public struct HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure; compare with the static members, e.g. `error.kind == .addressInUse`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// A short name.
        public let name: String
        /// The address and port are already bound by another socket (`EADDRINUSE`).
        public static let addressInUse = Kind(name: "addressInUse")
        /// ``HTTPServerConfiguration/host`` is not a numeric IP address or `localhost`.
        public static let invalidAddress = Kind(name: "invalidAddress")
        /// The configuration is out of range (port, thread count, limits).
        public static let invalidConfiguration = Kind(name: "invalidConfiguration")
        /// Creating, binding or listening on the socket failed for another reason.
        public static let socketFailed = Kind(name: "socketFailed")
        /// libmicrohttpd refused to start the daemon.
        public static let daemonFailed = Kind(name: "daemonFailed")
        /// ``HTTPServer/start()`` was called on a server that is running or was shut down.
        public static let alreadyStarted = Kind(name: "alreadyStarted")
        /// The libmicrohttpd in use was built without TLS support.
        public static let tlsUnavailable = Kind(name: "tlsUnavailable")
        /// The TLS certificate, private key or priority string was refused (malformed, or the key
        /// does not belong to the certificate).
        public static let invalidTLSCredentials = Kind(name: "invalidTLSCredentials")
        /// A certificate was given to a server that serves plain HTTP.
        public static let notServingTLS = Kind(name: "notServingTLS")
        /// The server is not running (not started yet, or shut down).
        public static let notRunning = Kind(name: "notRunning")
        /// The name.
        public var description: String { name }
    }

    /// The kind of failure.
    public var kind: Kind
    /// A human-readable explanation naming the address and the system error.
    public var message: String

    /// Creates an error.
    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
