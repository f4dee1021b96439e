extension HTTPServerConfiguration {
    /// The certificate, private key and protocol settings of an HTTPS server (HTTP over TLS,
    /// RFC 9110 §4.2.2), served by libmicrohttpd's own TLS support (GnuTLS).
    ///
    /// Both values are PEM text (RFC 7468): the certificate chain starts with the server's own
    /// certificate, followed by any intermediates; the private key is PKCS #8 (`BEGIN PRIVATE
    /// KEY`) or a traditional RSA or EC key, unencrypted. They are handed to libmicrohttpd as
    /// `MHD_OPTION_HTTPS_MEM_CERT` and `MHD_OPTION_HTTPS_MEM_KEY`; GnuTLS checks that the key
    /// belongs to the certificate when the daemon starts.
    ///
    /// ```swift
    /// var configuration = HTTPServerConfiguration(host: "0.0.0.0", port: 8443)
    /// configuration.tls = .init(certificateChainPEM: chain, privateKeyPEM: key)
    /// ```
    public struct TLS: Sendable, Equatable {
        /// The server's certificate followed by any intermediate certificates, as PEM.
        public var certificateChainPEM: String
        /// The certificate's private key, as unencrypted PEM.
        public var privateKeyPEM: String
        /// The GnuTLS priority string (`MHD_OPTION_HTTPS_PRIORITIES`; GnuTLS manual, "Priority
        /// strings"). Default: ``modernPriorities``.
        public var priorities: String

        /// TLS 1.3 and 1.2 only (RFC 8446, RFC 5246; RFC 8996 deprecates earlier versions), AEAD
        /// ciphers only (AES-GCM, ChaCha20-Poly1305), ephemeral elliptic-curve key exchange only
        /// (ECDHE; in TLS 1.3 the X25519, X448 and NIST P-256/384/521 groups), with the server's
        /// preference order: the "modern" profile of RFC 9325 §4.
        public static let modernPriorities =
            "SECURE256:+SECURE128:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2:-CIPHER-ALL:+AES-256-GCM:+AES-128-GCM:"
            + "+CHACHA20-POLY1305:-MAC-ALL:+AEAD:-KX-ALL:+ECDHE-ECDSA:+ECDHE-RSA:-GROUP-ALL:+GROUP-X25519:"
            + "+GROUP-SECP256R1:+GROUP-SECP384R1:+GROUP-X448:+GROUP-SECP521R1:%SERVER_PRECEDENCE"

        /// Creates TLS settings from PEM text.
        public init(certificateChainPEM: String, privateKeyPEM: String, priorities: String = TLS.modernPriorities) {
            self.certificateChainPEM = certificateChainPEM
            self.privateKeyPEM = privateKeyPEM
            self.priorities = priorities
        }

        /// Creates TLS settings from the bytes of PEM files (read as UTF-8; PEM is ASCII).
        public init(
            certificateChainPEM: some Sequence<UInt8>, privateKeyPEM: some Sequence<UInt8>,
            priorities: String = TLS.modernPriorities
        ) {
            self.init(
                certificateChainPEM: String(decoding: Array(certificateChainPEM), as: UTF8.self),
                privateKeyPEM: String(decoding: Array(privateKeyPEM), as: UTF8.self), priorities: priorities)
        }

        /// Checks what can be checked before GnuTLS parses the values: PEM markers and no NUL.
        func validate() throws(HTTPServerError) {
            func refuse(_ message: String) -> HTTPServerError {
                HTTPServerError(kind: .invalidTLSCredentials, message: message)
            }
            guard !certificateChainPEM.utf8.contains(0), !privateKeyPEM.utf8.contains(0), !priorities.utf8.contains(0)
            else { throw refuse("TLS certificate, key and priorities must not contain NUL bytes") }
            guard certificateChainPEM.contains("-----BEGIN CERTIFICATE-----") else {
                throw refuse("the TLS certificate chain is not PEM: it has no '-----BEGIN CERTIFICATE-----' line")
            }
            guard privateKeyPEM.contains("-----BEGIN "), privateKeyPEM.contains("PRIVATE KEY-----") else {
                throw refuse("the TLS private key is not PEM: it has no '-----BEGIN … PRIVATE KEY-----' line")
            }
            guard !privateKeyPEM.contains("ENCRYPTED") else {
                throw refuse("the TLS private key is encrypted; give it unencrypted")
            }
            guard !priorities.isEmpty else { throw refuse("the TLS priority string is empty") }
        }
    }
}
