/// How a connection to an SMTP server is protected.
///
/// ```swift
/// let security = SMTPTransportSecurity.startTLSRequired   // smtp:// with STARTTLS or nothing
/// ```
public enum SMTPTransportSecurity: String, Sendable, CaseIterable {
    /// TLS from the first byte (`smtps://`, usually port 465; RFC 8314 § 3.3).
    case implicitTLS = "implicit"
    /// `smtp://`, upgraded with STARTTLS (RFC 3207); a server that does not offer it fails the
    /// send before any credentials or mail are sent (CURLOPT_USE_SSL(3), `CURLUSESSL_ALL`).
    case startTLSRequired = "required"
    /// `smtp://`, upgraded with STARTTLS when the server offers it, else in the clear
    /// (`CURLUSESSL_TRY`). An attacker on the path can strip the offer (RFC 3207 § 6).
    case startTLSOpportunistic = "opportunistic"
    /// `smtp://` in the clear: only for a local development sink.
    case none = "off"

    /// Whether every byte of the session, credentials included, is certain to travel over TLS.
    public var guaranteesTLS: Bool { self == .implicitTLS || self == .startTLSRequired }
}
