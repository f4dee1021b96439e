internal import CCrypto
import Foundation

/// A local certificate authority for serving HTTPS in development: a self-signed CA that a
/// developer trusts once, and the short-lived server certificates it issues for loopback names.
///
/// Everything is X.509 v3 (RFC 5280) with EC P-256 keys and ECDSA-SHA256 signatures:
/// - the CA: subject `O=Latch development, CN=Latch development CA <8 hex digits>`,
///   basicConstraints `critical, CA:TRUE, pathlen:0`, keyUsage `critical, keyCertSign, cRLSign`,
///   subjectKeyIdentifier, about 10 years of validity, a random 128-bit serial number;
/// - a server certificate: subjectAltName `IP:127.0.0.1, IP:::1, DNS:localhost` plus the names
///   asked for, extendedKeyUsage `serverAuth`, keyUsage `critical, digitalSignature`,
///   basicConstraints `critical, CA:FALSE`, subject and authority key identifiers, at most 825
///   days of validity (the most Apple platforms accept for a TLS server certificate).
///
/// Keys are PKCS #8 PEM (RFC 5208, RFC 7468 § 10), certificates PEM (RFC 7468 § 5). The CA key
/// can sign a certificate for any name, so keep it out of production machines and out of
/// version control.
///
/// ```swift
/// let authority = try DevelopmentCertificateAuthority.generate()
/// let server = try authority.issueServerCertificate(dnsNames: ["latch.test"])
/// // serve server.certificatePEM + server.privateKeyPEM; clients trust authority.certificatePEM
/// ```
public struct DevelopmentCertificateAuthority: Sendable, CustomStringConvertible {
    /// The CA certificate, for clients' trust stores (`curl --cacert`, `SSL_CERT_FILE`, the system
    /// or browser store).
    public let certificatePEM: String
    /// The CA's private key, unencrypted PKCS #8.
    public let privateKeyPEM: String
    /// The CA's common name, e.g. `Latch development CA 3f9a0c1d`.
    public let commonName: String

    /// The longest server-certificate validity accepted, in days.
    public static let maximumServerValidityDays = 825

    /// A server certificate issued by the CA.
    public struct ServerCertificate: Sendable, CustomStringConvertible {
        /// The certificate, as PEM. Serve it alone: clients hold the CA certificate.
        public let certificatePEM: String
        /// Its private key, unencrypted PKCS #8.
        public let privateKeyPEM: String
        /// The serial number, uppercase hexadecimal.
        public let serialNumber: String
        /// The DNS names the certificate is valid for.
        public let dnsNames: [String]
        /// The IP addresses the certificate is valid for, as given.
        public let ipAddresses: [String]

        /// Names, addresses and serial number; never the key.
        public var description: String {
            "ServerCertificate(serial: \(serialNumber), DNS: \(dnsNames), IP: \(ipAddresses))"
        }
    }

    /// Makes a new CA with a fresh key.
    ///
    /// - Parameters:
    ///   - validityDays: How long the CA certificate is valid; 3650 (about 10 years) by default.
    ///   - now: The issuing time; validity starts one hour earlier to allow for clock skew.
    /// - Throws: ``CryptoError`` if libcrypto fails.
    public static func generate(validityDays: Int = 3650, now: Date = Date()) throws(CryptoError)
        -> DevelopmentCertificateAuthority
    {
        guard (1...36_500).contains(validityDays) else { throw CryptoError("CA validity must be 1...36500 days") }
        let key = try KeyGenerator.generate(.es256)
        let commonName = "Latch development CA \(SecureRandom.hex(byteCount: 4))"
        let builder = try CertificateBuilder()
        try builder.setRandomSerialNumber()
        try builder.setValidity(from: now, days: validityDays)
        try builder.setNames(commonName: commonName, organization: "Latch development", issuer: nil)
        try builder.setPublicKey(key)
        try builder.addExtension(NID_basic_constraints, "critical,CA:TRUE,pathlen:0", issuer: nil)
        try builder.addExtension(NID_key_usage, "critical,keyCertSign,cRLSign", issuer: nil)
        try builder.addExtension(NID_subject_key_identifier, "hash", issuer: nil)
        let certificate = try builder.sign(with: key)
        return DevelopmentCertificateAuthority(
            certificatePEM: try certificate.pem(), privateKeyPEM: try PEMCodec.writePrivateKey(key), commonName: commonName)
    }

    /// Loads a CA made earlier by ``generate(validityDays:now:)`` (or any CA certificate and key).
    ///
    /// - Throws: ``CryptoError`` if either PEM does not parse, the certificate is not a CA
    ///   (basicConstraints `CA:TRUE`), or the key does not belong to it.
    public init(certificatePEM: String, privateKeyPEM: String) throws(CryptoError) {
        let certificate = try X509Certificate(pem: certificatePEM)
        let key = try PEMCodec.readPrivateKey(privateKeyPEM)
        guard certificate.isCertificateAuthority else {
            throw CryptoError("the certificate is not a CA certificate (basicConstraints CA:TRUE)")
        }
        guard certificate.belongs(to: key) else { throw CryptoError("the private key does not belong to the CA certificate") }
        self.init(certificatePEM: certificatePEM, privateKeyPEM: privateKeyPEM, commonName: certificate.commonName ?? "")
    }

    private init(certificatePEM: String, privateKeyPEM: String, commonName: String) {
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
        self.commonName = commonName
    }

    /// Issues a server certificate with a fresh key for `localhost`, `127.0.0.1` and `::1`, plus
    /// `dnsNames` and `ipAddresses`.
    ///
    /// - Parameters:
    ///   - dnsNames: More host names, ASCII (IDNA A-labels), optionally with a leading `*.`.
    ///   - ipAddresses: More IPv4 or IPv6 addresses, as text.
    ///   - validityDays: At most ``maximumServerValidityDays``, the default.
    ///   - now: The issuing time; validity starts one hour earlier to allow for clock skew.
    /// - Throws: ``CryptoError`` for a malformed name or address, a validity out of range, or a
    ///   libcrypto failure.
    public func issueServerCertificate(
        dnsNames: [String] = [], ipAddresses: [String] = [],
        validityDays: Int = DevelopmentCertificateAuthority.maximumServerValidityDays, now: Date = Date()
    ) throws(CryptoError) -> ServerCertificate {
        guard (1...Self.maximumServerValidityDays).contains(validityDays) else {
            throw CryptoError("server certificate validity must be 1...\(Self.maximumServerValidityDays) days")
        }
        for name in dnsNames where !Self.isValidDNSName(name) {
            throw CryptoError("'\(name.prefix(64))' is not a valid DNS name for a certificate")
        }
        let allDNSNames = Self.unique(["localhost"] + dnsNames.map { $0.lowercased() })
        let allAddresses = Self.unique(["127.0.0.1", "::1"] + ipAddresses)

        let issuer = try X509Certificate(pem: certificatePEM)
        let issuerKey = try PEMCodec.readPrivateKey(privateKeyPEM)
        let key = try KeyGenerator.generate(.es256)
        let builder = try CertificateBuilder()
        try builder.setRandomSerialNumber()
        try builder.setValidity(from: now, days: validityDays)
        try builder.setNames(
            commonName: dnsNames.first?.lowercased() ?? "localhost", organization: "Latch development", issuer: issuer)
        try builder.setPublicKey(key)
        try builder.addExtension(NID_basic_constraints, "critical,CA:FALSE", issuer: issuer)
        try builder.addExtension(NID_key_usage, "critical,digitalSignature", issuer: issuer)
        try builder.addExtension(NID_ext_key_usage, "serverAuth", issuer: issuer)
        try builder.addExtension(NID_subject_key_identifier, "hash", issuer: issuer)
        try builder.addExtension(NID_authority_key_identifier, "keyid:always", issuer: issuer)
        try builder.addSubjectAlternativeNames(dnsNames: allDNSNames, ipAddresses: allAddresses)
        let certificate = try builder.sign(with: issuerKey)
        return ServerCertificate(
            certificatePEM: try certificate.pem(), privateKeyPEM: try PEMCodec.writePrivateKey(key),
            serialNumber: certificate.serialNumberHex, dnsNames: allDNSNames, ipAddresses: allAddresses)
    }

    /// The common name; never the key.
    public var description: String { "DevelopmentCertificateAuthority(\(commonName))" }

    /// A host name of LDH labels (RFC 1123 § 2.1, RFC 5890 A-labels), at most 253 characters, each
    /// label 1...63 characters not starting or ending with `-`; a leading `*.` wildcard is allowed
    /// (RFC 6125 § 6.4.3).
    static func isValidDNSName(_ name: String) -> Bool {
        var labels = name.split(separator: ".", omittingEmptySubsequences: false)
        if labels.first == "*" && labels.count > 2 { labels.removeFirst() }
        guard !name.isEmpty, name.utf8.count <= 253, !labels.isEmpty else { return false }
        return labels.allSatisfy { label in
            let bytes = Array(label.utf8)
            guard (1...63).contains(bytes.count), bytes.first != UInt8(ascii: "-"), bytes.last != UInt8(ascii: "-") else {
                return false
            }
            return bytes.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
            }
        }
    }

    private static func unique(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }
}
