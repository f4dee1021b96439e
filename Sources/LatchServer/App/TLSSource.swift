import Foundation
import LatchCrypto

/// Where `latchd` takes its HTTPS certificate from.
public enum TLSSource: Sendable, Equatable {
    /// A PEM certificate chain and a PEM private key, re-read on every reload (SIGHUP).
    case files(certificate: String, key: String)
    /// A local development CA in the data directory, made once, with a server certificate for
    /// `127.0.0.1`, `::1` and `localhost` signed by it (`latchd serve --dev --tls`).
    case development
}

/// The PEM material for a ``TLSSource``, and where a client finds the CA to trust.
struct TLSMaterial {
    let certificateChainPEM: String
    let privateKeyPEM: String
    /// The development CA a client must trust, for ``TLSSource/development``.
    let certificateAuthorityPath: String?

    /// Reads (or, for the development CA, makes once) the material.
    static func load(_ source: TLSSource, directory: DataDirectory, now: Date = Date()) throws -> TLSMaterial {
        switch source {
        case .files(let certificate, let key):
            guard let chain = FileManager.default.contents(atPath: certificate), !chain.isEmpty else {
                throw ConfigurationError("--tls-cert: cannot read \(certificate)")
            }
            guard let privateKey = FileManager.default.contents(atPath: key), !privateKey.isEmpty else {
                throw ConfigurationError("--tls-key: cannot read \(key)")
            }
            return TLSMaterial(
                certificateChainPEM: String(decoding: chain, as: UTF8.self),
                privateKeyPEM: String(decoding: privateKey, as: UTF8.self), certificateAuthorityPath: nil)
        case .development:
            return try development(in: directory, now: now)
        }
    }

    /// The development CA (`dev-ca.pem`, key `dev-ca.key`) and its server certificate
    /// (`dev-server.pem`, key `dev-server.key`), created on first use; the server certificate is
    /// issued again when it is missing or within 30 days of expiry. Keys are mode 0600.
    private static func development(in directory: DataDirectory, now: Date) throws -> TLSMaterial {
        let caPath = directory.path + "/dev-ca.pem"
        let caKeyPath = directory.path + "/dev-ca.key"
        let serverPath = directory.path + "/dev-server.pem"
        let serverKeyPath = directory.path + "/dev-server.key"
        let authority: DevelopmentCertificateAuthority
        if let pem = read(caPath), let key = read(caKeyPath) {
            authority = try DevelopmentCertificateAuthority(certificatePEM: pem, privateKeyPEM: key)
        } else {
            authority = try DevelopmentCertificateAuthority.generate(now: now)
            try write(authority.privateKeyPEM, to: caKeyPath, mode: 0o600)
            try write(authority.certificatePEM, to: caPath, mode: 0o644)
        }
        let reissueBefore = TimeInterval(DevelopmentCertificateAuthority.maximumServerValidityDays - 30) * 86_400
        let issuedAt = (try? FileManager.default.attributesOfItem(atPath: serverPath)[.modificationDate]) as? Date
        if let pem = read(serverPath), let key = read(serverKeyPath), let issuedAt,
            now.timeIntervalSince(issuedAt) < reissueBefore
        {
            return TLSMaterial(certificateChainPEM: pem, privateKeyPEM: key, certificateAuthorityPath: caPath)
        }
        let server = try authority.issueServerCertificate(
            dnsNames: ["localhost"], ipAddresses: ["127.0.0.1", "::1"], now: now)
        try write(server.privateKeyPEM, to: serverKeyPath, mode: 0o600)
        try write(server.certificatePEM, to: serverPath, mode: 0o644)
        return TLSMaterial(
            certificateChainPEM: server.certificatePEM, privateKeyPEM: server.privateKeyPEM,
            certificateAuthorityPath: caPath)
    }

    private static func read(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Writes `text` through a temporary file and a rename, so a reader never sees half a file.
    private static func write(_ text: String, to path: String, mode: Int) throws {
        let temporary = path + ".tmp-\(getpid())-\(SecureRandom.hex(byteCount: 4))"
        guard
            FileManager.default.createFile(
                atPath: temporary, contents: Data(text.utf8), attributes: [.posixPermissions: mode])
        else { throw ConfigurationError("cannot write \(temporary)") }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw ConfigurationError("cannot write \(path)")
        }
    }
}
