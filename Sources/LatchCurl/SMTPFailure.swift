internal import CCurl

/// Why an SMTP send failed: the class of failure, the server's last reply code when there was
/// one (RFC 5321 § 4.2), and whether trying again later can help.
///
/// Following RFC 5321 § 4.2.1, a `5yz` reply is a permanent negative completion (``isPermanent``:
/// the same message to the same address will fail again, as for `550` mailbox unavailable), and a
/// `4yz` reply, a lost or refused connection, a time-out or a TLS failure is transient. A refused
/// login (`535`, RFC 4954 § 6) is a mistake in the server's configuration, not in the message, so
/// it counts as transient: once the operator fixes it, the waiting messages go out.
///
/// The description names the server, the class, the reply code and libcurl's explanation; it
/// never holds the password, the message or its recipients.
///
/// ```swift
/// do { try client.send(message, from: sender, to: [recipient]) }
/// catch let failure as SMTPFailure where failure.isPermanent { /* abandon */ }
/// ```
public struct SMTPFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// A class of failure. Equality is on the name alone.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// The class's name, as the description shows it.
        public let name: String

        /// The server could not be reached: no such host, connection refused or lost.
        public static let connection = Kind(name: "connection failed")
        /// The connection or the whole send took longer than allowed.
        public static let timeout = Kind(name: "timed out")
        /// TLS could not be set up, the certificate is not trusted, or (STARTTLS required) the
        /// server does not offer STARTTLS.
        public static let tls = Kind(name: "TLS failed")
        /// The server refused the credentials (RFC 4954 § 6).
        public static let authentication = Kind(name: "authentication failed")
        /// The server answered a command with a negative reply (RFC 5321 § 4.2.1).
        public static let rejected = Kind(name: "rejected")
        /// libcurl could not be set up for the send.
        public static let setup = Kind(name: "could not be set up")

        public var description: String { name }
    }

    /// The class of failure.
    public let kind: Kind
    /// The server's last reply code (`451`, `550`, …), or `nil` when none came.
    public let replyCode: Int?
    /// libcurl's result code (libcurl-errors(3)).
    public let curlCode: Int
    /// A human-readable account without secrets.
    public let description: String

    /// Whether the server refused for good: a `5yz` reply to anything but the login.
    public var isPermanent: Bool {
        guard let replyCode, kind != .authentication else { return false }
        return (500..<600).contains(replyCode)
    }

    public static func == (lhs: SMTPFailure, rhs: SMTPFailure) -> Bool {
        lhs.kind == rhs.kind && lhs.replyCode == rhs.replyCode
    }

    /// The replies that concern the login, not the message: `530` authentication required, `534`
    /// mechanism too weak, `535` credentials invalid, `538` encryption required (RFC 4954 § 6).
    static let authenticationReplies: Set<Int> = [530, 534, 535, 538]

    /// The failure of a send to `server` that ended with `code`, after reply `replyCode` (0 for
    /// none); `detail` is libcurl's message.
    static func from(_ code: CURLcode, replyCode: Int, detail: String, server: String) -> SMTPFailure {
        let kind: Kind =
            switch code {
            case CURLE_OPERATION_TIMEDOUT: .timeout
            case CURLE_LOGIN_DENIED: .authentication
            case _ where authenticationReplies.contains(replyCode): .authentication
            case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT, CURLE_GOT_NOTHING,
                CURLE_RECV_ERROR where replyCode == 0, CURLE_SEND_ERROR where replyCode == 0:
                .connection
            case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_CONNECT_ERROR,
                CURLE_USE_SSL_FAILED, CURLE_SSL_CIPHER, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CLIENTCERT:
                .tls
            default: replyCode >= 400 ? .rejected : .connection
            }
        let reason = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        let reply = replyCode > 0 ? ", reply \(replyCode)" : ""
        return SMTPFailure(
            kind: kind, replyCode: replyCode > 0 ? replyCode : nil, curlCode: Int(code.rawValue),
            description: "SMTP send to \(server) \(kind)\(reply): \(reason) (libcurl error \(code.rawValue))")
    }

    /// ``from(_:replyCode:detail:server:)`` for libcurl's result as a number (libcurl-errors(3)).
    static func from(curlResult: UInt32, replyCode: Int, detail: String, server: String) -> SMTPFailure {
        from(CURLcode(rawValue: curlResult), replyCode: replyCode, detail: detail, server: server)
    }

    /// A failure LatchCurl raises itself, before a transfer.
    static func setup(_ message: String, server: String, curlCode: Int = Int(CURLE_FAILED_INIT.rawValue)) -> SMTPFailure {
        SMTPFailure(
            kind: .setup, replyCode: nil, curlCode: curlCode, description: "SMTP send to \(server) \(Kind.setup): \(message)")
    }
}
