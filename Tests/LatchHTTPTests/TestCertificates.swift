import Foundation
import LatchHTTP

/// A throwaway certificate authority and server certificates for TLS tests, made with the
/// `openssl` command in a temporary directory, in the profile of LatchCrypto's
/// `DevelopmentCertificateAuthority` (EC P-256; a `CA:TRUE, pathlen:0` root; leaves for
/// `127.0.0.1`, `::1` and `localhost` with `serverAuth`). This test target depends on LatchHTTP
/// alone, so it cannot call that type itself.
final class TestCertificates: Sendable {
    /// A server certificate and its key, as PEM.
    struct Leaf: Sendable {
        var certificatePEM: String
        var privateKeyPEM: String
        /// The serial number as uppercase hex, as `openssl x509 -serial` prints it.
        var serial: String

        /// The server's TLS settings for this certificate.
        var tls: HTTPServerConfiguration.TLS {
            HTTPServerConfiguration.TLS(certificateChainPEM: certificatePEM, privateKeyPEM: privateKeyPEM)
        }
    }

    let directory: URL
    /// The CA certificate's file, for `curl --cacert` and Python's `cafile`.
    var caPath: String { directory.appendingPathComponent("ca.pem").path }

    private init(directory: URL) {
        self.directory = directory
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Creates the CA.
    static func makeAuthority() async throws -> TestCertificates {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latch-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let certificates = TestCertificates(directory: directory)
        try await certificates.openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "ca.key",
            "-out", "ca.pem", "-days", "30", "-subj", "/O=Latch development/CN=Latch test CA", "-addext",
            "basicConstraints=critical,CA:TRUE,pathlen:0", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ])
        return certificates
    }

    /// Issues a server certificate signed by the CA.
    func issueLeaf(name: String = "leaf") async throws -> Leaf {
        let extensions = """
            basicConstraints=critical,CA:FALSE
            keyUsage=critical,digitalSignature
            extendedKeyUsage=serverAuth
            subjectKeyIdentifier=hash
            authorityKeyIdentifier=keyid:always
            subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1
            """
        try extensions.write(to: directory.appendingPathComponent("\(name).cnf"), atomically: true, encoding: .utf8)
        try await openssl([
            "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "\(name).key",
            "-out", "\(name).csr", "-subj", "/O=Latch development/CN=localhost",
        ])
        let serial = (0..<16).map { _ in String(format: "%02X", UInt8.random(in: 0...255)) }.joined()
        try await openssl([
            "x509", "-req", "-in", "\(name).csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial", "0x\(serial)",
            "-days", "30", "-extfile", "\(name).cnf", "-out", "\(name).pem",
        ])
        let printed = try await openssl(["x509", "-in", "\(name).pem", "-noout", "-serial"])
        return Leaf(
            certificatePEM: try String(contentsOf: directory.appendingPathComponent("\(name).pem"), encoding: .utf8),
            privateKeyPEM: try String(contentsOf: directory.appendingPathComponent("\(name).key"), encoding: .utf8),
            serial: printed.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "serial=", with: ""))
    }

    @discardableResult
    private func openssl(_ arguments: [String]) async throws -> String {
        let outcome = try await ExternalTool.run("sh", ["-c", "cd \"$0\" && exec openssl \"$@\"", directory.path] + arguments)
        guard outcome.status == 0 else { throw TestCertificateError.opensslFailed(outcome.stderr) }
        return outcome.stdout
    }
}

enum TestCertificateError: Error {
    case opensslFailed(String)
}
