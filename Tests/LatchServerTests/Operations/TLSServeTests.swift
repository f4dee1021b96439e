import Foundation
import LatchChildProcess
import LatchCrypto
import LatchLocking
import Testing

/// `latchd serve` over HTTPS: the development CA under `--dev --tls`, certificate files with a
/// reload on SIGHUP, and the warning for plain HTTP beyond loopback. Clients are curl and openssl,
/// which take a CA file.
@Suite("latchd over HTTPS")
struct TLSServeTests {
    /// Runs a command and returns its status and standard output.
    static func run(_ executable: String, _ arguments: [String], input: String? = nil) throws -> (Int32, String) {
        let output = Pipe()
        let stdin = Pipe()
        let process = try ChildProcess(
            executable: executable, arguments: arguments, environment: ProcessInfo.processInfo.environment,
            standardInput: .descriptor(stdin.fileHandleForReading.fileDescriptor),
            standardOutput: .descriptor(output.fileHandleForWriting.fileDescriptor), standardError: .null)
        try stdin.fileHandleForReading.close()
        try output.fileHandleForWriting.close()
        signal(SIGPIPE, SIG_IGN)  // a child that exits early must not take the test process with it
        if let input { try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static func curl(_ url: String, caFile: String?) throws -> (Int32, String) {
        try run("/usr/bin/curl", ["-sS", "--max-time", "10"] + (caFile.map { ["--cacert", $0] } ?? []) + [url])
    }

    /// The serial number of the certificate a new connection to `port` sees.
    static func servedSerial(port: Int) throws -> String {
        let (_, pem) = try run(
            "/usr/bin/openssl", ["s_client", "-connect", "127.0.0.1:\(port)", "-servername", "localhost"], input: "")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("served-\(UUID().uuidString).pem").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try pem.write(toFile: file, atomically: true, encoding: .utf8)
        let (_, serial) = try run("/usr/bin/openssl", ["x509", "-noout", "-serial", "-in", file])
        return serial.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "serial=", with: "")
    }

    @Test("--dev --tls makes a development CA once; trusted clients get https URLs, untrusted ones are refused")
    func developmentCA() async throws {
        let directory = LatchdProcess.temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await LatchdProcess.start(dataDirectory: directory, arguments: ["--tls"])
        #expect(server.baseURL.hasPrefix("https://127.0.0.1:"))
        let ca = directory + "/dev-ca.pem"
        #expect(server.log.contains("trust:     \(ca)"))
        let (status, body) = try Self.curl(server.baseURL + "/default/v2.0/.well-known/openid-configuration", caFile: ca)
        #expect(status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        for key in ["issuer", "token_endpoint", "jwks_uri", "userinfo_endpoint", "authorization_endpoint"] {
            #expect((document[key] as? String)?.hasPrefix(server.baseURL + "/default/") == true, "\(key)")
        }
        let (untrusted, _) = try Self.curl(server.baseURL + "/healthz", caFile: nil)
        #expect(untrusted == 60, "curl without the CA must fail certificate verification")
        let firstCA = try String(contentsOfFile: ca, encoding: .utf8)
        server.send(SIGTERM)
        #expect(await server.waitForExit())

        // A second start keeps the same CA, so clients keep trusting it.
        let again = try await LatchdProcess.start(dataDirectory: directory, arguments: ["--tls"])
        defer { again.forceStop() }
        #expect(try String(contentsOfFile: ca, encoding: .utf8) == firstCA)
        #expect(try Self.curl(again.baseURL + "/healthz", caFile: ca).0 == 0)
    }

    @Test("--tls-cert/--tls-key: SIGHUP swaps in a new certificate; a bad pair is refused and the old one keeps serving")
    func reloadOnSIGHUP() async throws {
        let directory = LatchdProcess.temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let authority = try DevelopmentCertificateAuthority.generate()
        let caFile = directory + "/ca.pem"
        try authority.certificatePEM.write(toFile: caFile, atomically: true, encoding: .utf8)
        let certFile = directory + "/server.pem"
        let keyFile = directory + "/server.key"
        let first = try authority.issueServerCertificate(dnsNames: ["localhost"], ipAddresses: ["127.0.0.1"])
        try first.certificatePEM.write(toFile: certFile, atomically: true, encoding: .utf8)
        try first.privateKeyPEM.write(toFile: keyFile, atomically: true, encoding: .utf8)

        let server = try await LatchdProcess.start(
            dataDirectory: directory + "/data", arguments: ["--tls-cert", certFile, "--tls-key", keyFile])
        defer { server.forceStop() }
        #expect(try Self.curl(server.baseURL + "/healthz", caFile: caFile).0 == 0)
        #expect(try Self.servedSerial(port: server.port).caseInsensitiveCompare(first.serialNumber) == .orderedSame)

        let second = try authority.issueServerCertificate(dnsNames: ["localhost"], ipAddresses: ["127.0.0.1"])
        try second.certificatePEM.write(toFile: certFile, atomically: true, encoding: .utf8)
        try second.privateKeyPEM.write(toFile: keyFile, atomically: true, encoding: .utf8)
        server.send(SIGHUP)
        var served = ""
        for _ in 0..<100 {
            served = try Self.servedSerial(port: server.port)
            if served.caseInsensitiveCompare(second.serialNumber) == .orderedSame { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(served.caseInsensitiveCompare(second.serialNumber) == .orderedSame)
        #expect(server.log.contains("certificate reloaded"))

        // A key that does not match: refused, and the second certificate keeps serving.
        try first.privateKeyPEM.write(toFile: keyFile, atomically: true, encoding: .utf8)
        server.send(SIGHUP)
        for _ in 0..<100 where !server.log.contains("certificate not reloaded") {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(server.log.contains("certificate not reloaded"))
        #expect(try Self.servedSerial(port: server.port).caseInsensitiveCompare(second.serialNumber) == .orderedSame)
        #expect(try Self.curl(server.baseURL + "/healthz", caFile: caFile).0 == 0)
    }

    @Test("plain HTTP on a non-loopback address warns loudly; on loopback it does not")
    func exposureWarning() async throws {
        let directory = LatchdProcess.temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let exposed = try await LatchdProcess.start(dataDirectory: directory, arguments: ["--listen", "0.0.0.0:0"])
        defer { exposed.forceStop() }
        #expect(exposed.log.contains("plain HTTP on 0.0.0.0"))
        let loopback = try await LatchdProcess.start(dataDirectory: directory + "-2")
        defer {
            loopback.forceStop()
            try? FileManager.default.removeItem(atPath: directory + "-2")
        }
        #expect(!loopback.log.contains("plain HTTP on"))
    }

    @Test("--tls without --dev and without certificate files is a usage error")
    func tlsNeedsASource() throws {
        let (status, _) = try Self.run(try LatchdProcess.executable().path, ["serve", "--tls", "--data-dir", "/nonexistent/x"])
        #expect(status == 2)
    }
}
