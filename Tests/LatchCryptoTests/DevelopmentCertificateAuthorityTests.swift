import Foundation
import LatchCrypto
import Testing

@Suite(.enabled(if: OpenSSLTool.isAvailable))
struct DevelopmentCertificateAuthorityTests {
    /// One CA and one server certificate (with extra names) for the read-only checks.
    private static let authority = try! DevelopmentCertificateAuthority.generate()
    private static let server = try! authority.issueServerCertificate(
        dnsNames: ["latch.test", "*.apps.latch.test"], ipAddresses: ["10.1.2.3", "fd00::5"])

    private func tool() throws -> OpenSSLTool {
        let tool = try OpenSSLTool()
        try tool.write(Self.authority.certificatePEM, to: "ca.pem")
        try tool.write(Self.server.certificatePEM, to: "leaf.pem")
        try tool.write(Self.server.privateKeyPEM, to: "leaf.key")
        return tool
    }

    @Test func opensslVerifiesTheServerCertificateForItsNames() throws {
        let openssl = try tool()
        let plain = try openssl.run(["verify", "-x509_strict", "-CAfile", "ca.pem", "leaf.pem"])
        #expect(plain.status == 0 && plain.output.contains("leaf.pem: OK"), "\(plain.output)")
        for check in [
            ["-verify_ip", "127.0.0.1"], ["-verify_ip", "::1"], ["-verify_hostname", "localhost"],
            ["-verify_hostname", "latch.test"], ["-verify_hostname", "x.apps.latch.test"], ["-verify_ip", "10.1.2.3"],
            ["-verify_ip", "fd00::5"],
        ] {
            let result = try openssl.run(["verify", "-purpose", "sslserver", "-CAfile", "ca.pem"] + check + ["leaf.pem"])
            #expect(result.status == 0, "\(check): \(result.output)")
        }
        let elsewhere = try openssl.run(["verify", "-CAfile", "ca.pem", "-verify_hostname", "example.com", "leaf.pem"])
        #expect(elsewhere.status != 0, "the certificate must not be valid for other names")
        let asClient = try openssl.run(["verify", "-purpose", "sslclient", "-CAfile", "ca.pem", "leaf.pem"])
        #expect(asClient.status != 0, "the certificate must be for servers only")
    }

    @Test func serverCertificateHasTheDevelopmentProfile() throws {
        let text = try tool().run(["x509", "-in", "leaf.pem", "-noout", "-text"]).output
        for expected in [
            "Version: 3 (0x2)", "ecdsa-with-SHA256", "ASN1 OID: prime256v1", "CA:FALSE",
            "X509v3 Key Usage: critical", "Digital Signature", "TLS Web Server Authentication",
            "X509v3 Subject Key Identifier", "X509v3 Authority Key Identifier",
            "DNS:localhost, DNS:latch.test, DNS:*.apps.latch.test, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, "
                + "IP Address:10.1.2.3, IP Address:FD00:0:0:0:0:0:0:5",
            "Issuer: O = Latch development, CN = \(Self.authority.commonName)",
        ] {
            #expect(text.contains(expected), "missing \(expected) in\n\(text)")
        }
        #expect(!text.contains("Certificate Sign"))
        #expect(Self.server.dnsNames == ["localhost", "latch.test", "*.apps.latch.test"])
        #expect(Self.server.ipAddresses == ["127.0.0.1", "::1", "10.1.2.3", "fd00::5"])
    }

    @Test func authorityHasTheCAProfile() throws {
        let openssl = try tool()
        let text = try openssl.run(["x509", "-in", "ca.pem", "-noout", "-text"]).output
        for expected in [
            "Version: 3 (0x2)", "ASN1 OID: prime256v1", "X509v3 Basic Constraints: critical", "CA:TRUE",
            "X509v3 Key Usage: critical", "Certificate Sign, CRL Sign", "X509v3 Subject Key Identifier",
            "Subject: O = Latch development, CN = Latch development CA ",
        ] {
            #expect(text.contains(expected), "missing \(expected) in\n\(text)")
        }
        #expect(Self.authority.commonName.wholeMatch(of: /Latch development CA [0-9a-f]{8}/) != nil)
        let selfSigned = try openssl.run(["verify", "-x509_strict", "-CAfile", "ca.pem", "ca.pem"])
        #expect(selfSigned.status == 0, "\(selfSigned.output)")
        #expect(Self.authority.privateKeyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
    }

    @Test func keyMatchesTheCertificateAndIsPKCS8() throws {
        let openssl = try tool()
        #expect(Self.server.privateKeyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        let fromKey = try openssl.run(["pkey", "-in", "leaf.key", "-pubout"])
        let fromCertificate = try openssl.run(["x509", "-in", "leaf.pem", "-noout", "-pubkey"])
        #expect(fromKey.status == 0 && fromCertificate.status == 0)
        #expect(fromKey.output == fromCertificate.output)
        try openssl.write(Self.authority.privateKeyPEM, to: "ca.key")
        #expect(try openssl.run(["pkey", "-in", "ca.key", "-pubout"]).output != fromKey.output)
    }

    @Test func serialNumbersAreRandom128BitValues() throws {
        let openssl = try tool()
        let printed = try openssl.run(["x509", "-in", "leaf.pem", "-noout", "-serial"]).output
        #expect(printed.trimmingCharacters(in: .whitespacesAndNewlines) == "serial=\(Self.server.serialNumber)")
        #expect(Self.server.serialNumber.count == 32)
        let another = try Self.authority.issueServerCertificate()
        #expect(another.serialNumber != Self.server.serialNumber)
    }

    @Test func validityIsBoundedAndStartsBeforeNow() throws {
        let now = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01 00:00:00 UTC
        let authority = try DevelopmentCertificateAuthority.generate(now: now)
        let server = try authority.issueServerCertificate(now: now)
        let openssl = try OpenSSLTool()
        try openssl.write(server.certificatePEM, to: "leaf.pem")
        try openssl.write(authority.certificatePEM, to: "ca.pem")
        #expect(
            try openssl.run(["x509", "-in", "leaf.pem", "-noout", "-startdate", "-enddate"]).output
                == "notBefore=Dec 31 23:00:00 2025 GMT\nnotAfter=Apr  4 23:00:00 2028 GMT\n")
        #expect(try openssl.run(["x509", "-in", "ca.pem", "-noout", "-enddate"]).output == "notAfter=Dec 29 23:00:00 2035 GMT\n")
        #expect(throws: CryptoError.self) { try authority.issueServerCertificate(validityDays: 826) }
        #expect(throws: CryptoError.self) { try authority.issueServerCertificate(validityDays: 0) }
    }

    @Test func savedAuthorityLoadsAndKeepsIssuing() throws {
        let loaded = try DevelopmentCertificateAuthority(
            certificatePEM: Self.authority.certificatePEM, privateKeyPEM: Self.authority.privateKeyPEM)
        #expect(loaded.commonName == Self.authority.commonName)
        let issued = try loaded.issueServerCertificate()
        let openssl = try tool()
        try openssl.write(issued.certificatePEM, to: "again.pem")
        #expect(try openssl.run(["verify", "-CAfile", "ca.pem", "again.pem"]).status == 0)
        #expect(!"\(loaded)".contains("PRIVATE"))
        #expect(!"\(issued)".contains("PRIVATE"))
    }

    @Test func mismatchedOrNonCAInputsAreRefused() throws {
        let other = try DevelopmentCertificateAuthority.generate()
        #expect(throws: CryptoError.self) {
            try DevelopmentCertificateAuthority(certificatePEM: Self.authority.certificatePEM, privateKeyPEM: other.privateKeyPEM)
        }
        #expect(throws: CryptoError.self) {
            try DevelopmentCertificateAuthority(
                certificatePEM: Self.server.certificatePEM, privateKeyPEM: Self.server.privateKeyPEM)
        }
        #expect(throws: CryptoError.self) {
            try DevelopmentCertificateAuthority(certificatePEM: "garbage", privateKeyPEM: Self.authority.privateKeyPEM)
        }
    }

    @Test(arguments: ["", "bad name", "a,b", "-x.test", "x-.test", "ex@mple.test", "*.test", "a..b", "ünicode.test"])
    func malformedDNSNamesAreRefused(_ name: String) {
        #expect(throws: CryptoError.self) { try Self.authority.issueServerCertificate(dnsNames: [name]) }
    }

    @Test(arguments: ["", "localhost", "300.1.1.1", "1.2.3", "::g", "127.0.0.1,IP:1.1.1.1"])
    func malformedAddressesAreRefused(_ address: String) {
        #expect(throws: CryptoError.self) { try Self.authority.issueServerCertificate(ipAddresses: [address]) }
    }
}
