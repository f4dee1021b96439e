import Foundation
import LatchCurl

/// E-mail over SMTP: the `smtp_*` settings checked and turned into a client.
extension LatchServerConfiguration {
    /// The SMTP client and default sender the settings describe, or `nil` without ``smtpURL``.
    ///
    /// - The URL is `smtp://` (STARTTLS as ``smtpSecurity`` says; RFC 3207) or `smtps://` (TLS
    ///   from the start; RFC 8314), with a host, an optional port and an optional user; a path
    ///   is the name given in EHLO.
    /// - The password comes from ``smtpPasswordFile`` (surrounding whitespace dropped) or
    ///   ``smtpPassword``, never from the URL: a password there would show in `ps` and in logs.
    /// - A password is only sent where TLS is certain (`smtps://` or STARTTLS required), unless
    ///   the server is on the loopback interface.
    /// - Throws: ``ConfigurationError`` naming the setting that is wrong; messages never show the
    ///   password.
    public func smtpTransportSettings() throws -> (client: CurlSMTPClient, sender: MailAddress)? {
        guard let text = smtpURL else {
            if smtpPasswordFile != nil || smtpPassword != nil {
                throw ConfigurationError("an SMTP password is set but --smtp-url (LATCH_SMTP_URL) is not")
            }
            return nil
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "smtp" || scheme == "smtps", let host = components.host, !host.isEmpty
        else {
            throw ConfigurationError("--smtp-url must be smtp://[user@]host[:port] or smtps://[user@]host[:port]")
        }
        guard components.password == nil else {
            throw ConfigurationError(
                "--smtp-url must not hold a password (it would show in the process list and in logs); "
                    + "set LATCH_SMTP_PASSWORD or --smtp-password-file FILE instead")
        }
        var bare = components
        bare.user = nil
        guard let url = bare.url else { throw ConfigurationError("--smtp-url is not a valid URL") }
        let security: SMTPTransportSecurity = scheme == "smtps" ? .implicitTLS : smtpSecurity
        let password = try smtpPasswordValue()
        let username = components.percentEncodedUser.map { $0.removingPercentEncoding ?? $0 }
        var credentials: SMTPCredentials?
        switch (username, password) {
        case (let user?, let password?) where !user.isEmpty:
            credentials = SMTPCredentials(username: user, password: password)
        case (nil, _?), (""?, _?):
            throw ConfigurationError("an SMTP password needs a user in --smtp-url (smtp://user@host:port)")
        case (let user?, nil) where !user.isEmpty:
            throw ConfigurationError(
                "--smtp-url names user '\(user)' but no password is set: LATCH_SMTP_PASSWORD or --smtp-password-file FILE")
        default:
            credentials = nil
        }
        if credentials != nil, !security.guaranteesTLS, !Self.isLoopback(host) {
            throw ConfigurationError(
                "the SMTP password would be sent without certain TLS: use smtps://, or --smtp-starttls required")
        }
        let client: CurlSMTPClient
        do {
            client = try CurlSMTPClient(
                url: url, security: security, credentials: credentials,
                certificateAuthorityFile: smtpCertificateAuthorityFile)
        } catch {
            throw ConfigurationError("--smtp-url: \(error)")
        }
        return (client, try defaultSender())
    }

    /// Sets ``smtpSecurity`` from a `--smtp-starttls` value: `required`, `opportunistic` or `off`.
    /// - Throws: ``ConfigurationError`` for anything else.
    public mutating func setSMTPStartTLS(_ value: String) throws {
        smtpSecurity = try SMTPTransportSecurity.starttls(value)
    }

    /// ``smtpFrom``, or `no-reply@` the host of ``publicURL`` (`localhost` without one).
    func defaultSender() throws -> MailAddress {
        if let smtpFrom {
            guard let sender = MailAddress(parsing: smtpFrom) else {
                throw ConfigurationError("--smtp-from must be addr@example.com or 'Name <addr@example.com>'")
            }
            return sender
        }
        let host = publicURL.flatMap { URLComponents(string: $0)?.host } ?? "localhost"
        guard let sender = MailAddress(address: "no-reply@\(host)") else {
            throw ConfigurationError("set --smtp-from: no default sender can be made from the public URL's host")
        }
        return sender
    }

    /// The password from the file, else from the setting, else `nil`.
    private func smtpPasswordValue() throws -> String? {
        guard let path = smtpPasswordFile else { return smtpPassword.flatMap { $0.isEmpty ? nil : $0 } }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError("--smtp-password-file: cannot read '\(path)'")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationError("--smtp-password-file: '\(path)' is not UTF-8 text")
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw ConfigurationError("--smtp-password-file: '\(path)' is empty") }
        return trimmed
    }

    /// Whether `host` is the loopback interface, where nothing travels on a network.
    static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        return bare == "localhost" || bare == "::1" || bare.hasPrefix("127.")
    }
}

extension SMTPTransportSecurity {
    /// The value of `--smtp-starttls` / `smtp_starttls`: `required`, `opportunistic` or `off`.
    /// - Throws: ``ConfigurationError`` for anything else.
    public static func starttls(_ value: String, option: String = "--smtp-starttls") throws -> SMTPTransportSecurity {
        switch value.lowercased() {
        case "required": .startTLSRequired
        case "opportunistic": .startTLSOpportunistic
        case "off": SMTPTransportSecurity.none
        default: throw ConfigurationError("\(option) is required, opportunistic or off, not '\(value)'")
        }
    }
}
