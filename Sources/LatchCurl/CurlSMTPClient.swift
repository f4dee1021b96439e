internal import CCurl
import Foundation

/// An SMTP client over libcurl: hands one finished message (RFC 5322) to a mail server for a
/// list of recipients.
///
/// One ``send(_:from:to:)`` is one SMTP mail transaction (RFC 5321 § 3.3): EHLO, STARTTLS when
/// ``security`` asks for it (RFC 3207), AUTH with ``credentials`` when set (RFC 4954), `MAIL
/// FROM`, one `RCPT TO` per recipient, and `DATA` with the message, which libcurl reads through its
/// read callback and dot-stuffs (RFC 5321 § 4.5.2). The message must already use CRLF line
/// endings.
///
/// ```swift
/// let client = try CurlSMTPClient(
///     url: URL(string: "smtp://mail.example.com:587")!, security: .startTLSRequired,
///     credentials: SMTPCredentials(username: "latch", password: password))
/// try client.send(Array(message.utf8), from: "no-reply@example.com", to: ["ada@example.com"])
/// ```
///
/// Every send:
/// - speaks `smtp` or `smtps` only (CURLOPT_PROTOCOLS_STR(3)): `smtps://` is TLS from the first
///   byte (RFC 8314 § 3.3), `smtp://` is upgraded as ``security`` says (CURLOPT_USE_SSL(3));
/// - always verifies the server's certificate chain and name (CURLOPT_SSL_VERIFYPEER(3),
///   CURLOPT_SSL_VERIFYHOST(3)), against ``certificateAuthorityFile`` when set (CURLOPT_CAINFO(3));
/// - gives up connecting after ``connectTimeout`` and in all after ``timeout``
///   (CURLOPT_CONNECTTIMEOUT_MS(3), CURLOPT_TIMEOUT_MS(3));
/// - blocks the calling thread: call it from a thread of its own (the outbox worker), never
///   from Swift concurrency.
///
/// Copies share a small pool of libcurl handles, so consecutive sends reuse the connection and
/// its TLS session. A failure throws ``SMTPFailure``.
///
/// Related libcurl documentation: libcurl-tutorial(3) "SMTP", CURLOPT_MAIL_FROM(3),
/// CURLOPT_MAIL_RCPT(3), CURLOPT_UPLOAD(3), CURLOPT_READFUNCTION(3).
public struct CurlSMTPClient: Sendable {
    /// The server: `smtp://host[:port]` or `smtps://host[:port]`, without user or password. A path
    /// is the name the client gives in EHLO (libcurl's default is the local host name).
    public let url: URL
    /// How the connection is protected; `smtps://` is always ``SMTPTransportSecurity/implicitTLS``.
    public let security: SMTPTransportSecurity
    /// The login, or `nil` to send without AUTH.
    public let credentials: SMTPCredentials?
    /// The PEM file of certificate authorities to trust, or `nil` for libcurl's default bundle.
    public let certificateAuthorityFile: String?
    /// The longest connecting (TCP and TLS) may take, in seconds.
    public let connectTimeout: TimeInterval
    /// The longest one send may take in all, in seconds.
    public let timeout: TimeInterval
    private let pool = CurlHandlePool(capacity: 2)

    /// Creates a client.
    /// - Parameters:
    ///   - url: `smtp://host[:port]` (port 25 or 587) or `smtps://host[:port]` (465).
    ///   - security: for `smtp://`, whether STARTTLS is required, tried or skipped; ignored (TLS
    ///     from the start) for `smtps://`.
    ///   - credentials: the AUTH login, or `nil`.
    ///   - certificateAuthorityFile: a PEM file of certificate authorities to trust.
    ///   - connectTimeout: seconds allowed to connect (default 10).
    ///   - timeout: seconds allowed for the whole send (default 30).
    /// - Throws: ``SMTPFailure`` of kind ``SMTPFailure/Kind/setup`` when the URL is not `smtp` or
    ///   `smtps` with a host, or holds a user or password.
    public init(
        url: URL, security: SMTPTransportSecurity = .startTLSRequired, credentials: SMTPCredentials? = nil,
        certificateAuthorityFile: String? = nil, connectTimeout: TimeInterval = 10, timeout: TimeInterval = 30
    ) throws(SMTPFailure) {
        let scheme = url.scheme?.lowercased()
        guard scheme == "smtp" || scheme == "smtps", url.host?.isEmpty == false else {
            throw .setup("only smtp:// and smtps:// URLs with a host can be used", server: "the server")
        }
        guard url.user == nil, url.password == nil else {
            throw .setup("the URL must not hold a user or password; pass credentials", server: Self.server(of: url))
        }
        self.url = url
        self.security = scheme == "smtps" ? .implicitTLS : (security == .implicitTLS ? .startTLSRequired : security)
        self.credentials = credentials
        self.certificateAuthorityFile = certificateAuthorityFile
        self.connectTimeout = connectTimeout
        self.timeout = timeout
    }

    /// `host:port` of the server, for messages.
    public var server: String { Self.server(of: url) }

    /// Sends `message` from `sender` to `recipients` in one mail transaction.
    /// - Parameters:
    ///   - message: the whole message, header and body, with CRLF line endings (RFC 5322 § 2.1).
    ///   - sender: the envelope sender (`MAIL FROM`), a bare address.
    ///   - recipients: the envelope recipients (`RCPT TO`), bare addresses; at least one.
    /// - Throws: ``SMTPFailure``; nothing was accepted unless the send returns.
    public func send(_ message: [UInt8], from sender: String, to recipients: [String]) throws(SMTPFailure) {
        let server = self.server
        for address in [sender] + recipients where !Self.isPlainAddress(address) {
            throw .setup("an envelope address holds a space, a line break or angle brackets", server: server)
        }
        guard !recipients.isEmpty else { throw .setup("a message needs at least one recipient", server: server) }
        guard let handle = pool.take() else {
            throw .setup(CurlGlobal.isReady ? "libcurl could not make a handle" : "libcurl failed to initialise", server: server)
        }
        let source = CurlUploadSource(message)
        var list: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(list) }
        let code: CURLcode
        do {
            for recipient in recipients {
                guard let appended = curl_slist_append(list, "<\(recipient)>") else {
                    throw SMTPFailure.setup("libcurl is out of memory", server: server)
                }
                list = appended
            }
            try configure(handle, sender: sender, recipients: list)
            try handle.set(CURLOPT_INFILESIZE_LARGE, offset: Int64(source.count))
            try handle.set(readCallback: CurlUploadSource.readCallback)
            try handle.set(CURLOPT_READDATA, pointer: Unmanaged.passUnretained(source).toOpaque())
            code = withExtendedLifetime(source) { handle.perform() }
        } catch let error as CurlSetupError {
            throw .setup(error.message, server: server, curlCode: Int(error.code.rawValue))
        } catch let failure as SMTPFailure {
            throw failure
        } catch {
            throw .setup("\(type(of: error))", server: server)
        }
        // The handle goes back to the pool without references to this send's memory.
        _ = try? handle.set(CURLOPT_MAIL_RCPT, list: nil)
        _ = try? handle.set(CURLOPT_READDATA, pointer: nil)
        let detail = handle.errorMessage
        let reply = handle.info(CURLINFO_RESPONSE_CODE) ?? 0
        pool.put(handle)
        guard code == CURLE_OK else { throw SMTPFailure.from(code, replyCode: reply, detail: detail, server: server) }
    }

    /// Sets the options of one send on a freshly reset handle.
    private func configure(_ handle: CurlEasyHandle, sender: String, recipients: UnsafeMutablePointer<curl_slist>?)
        throws(CurlSetupError)
    {
        try handle.set(CURLOPT_URL, url.absoluteString)
        try handle.set(CURLOPT_PROTOCOLS_STR, "smtp,smtps")
        try handle.set(CURLOPT_NOSIGNAL, 1)
        let useSSL: curl_usessl =
            switch security {
            case .implicitTLS, .startTLSRequired: CURLUSESSL_ALL
            case .startTLSOpportunistic: CURLUSESSL_TRY
            case .none: CURLUSESSL_NONE
            }
        try handle.set(CURLOPT_USE_SSL, Int(useSSL.rawValue))
        try handle.set(CURLOPT_SSL_VERIFYPEER, 1)
        try handle.set(CURLOPT_SSL_VERIFYHOST, 2)
        if let certificateAuthorityFile { try handle.set(CURLOPT_CAINFO, certificateAuthorityFile) }
        try handle.set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(connectTimeout))
        try handle.set(CURLOPT_TIMEOUT_MS, Self.milliseconds(timeout))
        if let credentials {
            try handle.set(CURLOPT_USERNAME, credentials.username)
            try handle.set(CURLOPT_PASSWORD, credentials.password)
        }
        try handle.set(CURLOPT_MAIL_FROM, "<\(sender)>")
        try handle.set(CURLOPT_MAIL_RCPT, list: recipients)
        try handle.set(CURLOPT_UPLOAD, 1)
    }

    /// Whether `address` can stand between angle brackets in `MAIL FROM` / `RCPT TO` as is.
    private static func isPlainAddress(_ address: String) -> Bool {
        !address.isEmpty
            && !address.unicodeScalars.contains { $0.value <= 32 || $0.value == 127 || "<>".unicodeScalars.contains($0) }
    }

    private static func milliseconds(_ seconds: TimeInterval) -> Int {
        max(1, Int((min(max(seconds, 0.001), Double(Int32.max) / 1000) * 1000).rounded(.up)))
    }

    /// `scheme://host:port` of `url`, never a user or path.
    private static func server(of url: URL) -> String {
        "\(url.scheme?.lowercased() ?? "smtp")://" + CurlFailure.server(of: url)
    }
}
