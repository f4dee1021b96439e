import Foundation
import LatchChildProcess
import LatchLocking
import Testing

@testable import LatchHTTP

/// HTTPS through libmicrohttpd's TLS (GnuTLS), checked with clients nobody here wrote: curl,
/// Python's `ssl` and `http.client`, and `openssl s_client`.
@Suite(.enabled(if: HTTPServer.supportsTLS && ["curl", "openssl", "python3"].allSatisfy(ExternalTool.isAvailable)))
struct TLSTests {
    private func makeServer(_ leaf: TestCertificates.Leaf, errorLog: @escaping @Sendable (String) -> Void = { _ in })
        throws -> TestServer
    {
        try TestServer(tls: leaf.tls, errorLog: errorLog) { router in
            router.add("GET", "/hello") { _ in .text(200, "hello over tls") }
            router.add("GET", "/slow") { _ in
                usleep(800_000)
                return .text(200, "slow over tls")
            }
        }
    }

    /// Prints the serial number (uppercase hex) of the certificate a new connection is shown.
    private func servedSerial(port: Int) async throws -> String {
        let script = """
            import ssl, subprocess, sys
            pem = ssl.get_server_certificate(("127.0.0.1", int(sys.argv[1])))
            print(subprocess.run(["openssl", "x509", "-noout", "-serial"], input=pem.encode(), capture_output=True,
                                 check=True).stdout.decode().strip().removeprefix("serial="))
            """
        let outcome = try await ExternalTool.run("python3", ["-c", script, "\(port)"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func curlTrustingTheCAReusesOneConnection() async throws {
        let authority = try await TestCertificates.makeAuthority()
        let server = try makeServer(try await authority.issueLeaf())
        #expect(server.server.scheme == "https")
        let url = "https://127.0.0.1:\(server.port)/hello"
        let outcome = try await ExternalTool.run("curl", ["-sS", "-v", "--cacert", authority.caPath, url, url])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout == "hello over tlshello over tls")
        #expect(outcome.stderr.contains("Re-using existing connection"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("SSL certificate verify ok"))
    }

    @Test func pythonKeepsOneTLSConnectionAlive() async throws {
        let authority = try await TestCertificates.makeAuthority()
        let server = try makeServer(try await authority.issueLeaf())
        let script = """
            import http.client, json, ssl, sys
            context = ssl.create_default_context(cafile=sys.argv[2])
            connection = http.client.HTTPSConnection("127.0.0.1", int(sys.argv[1]), context=context)
            bodies, sockets = [], []
            for _ in range(2):
                connection.request("GET", "/hello")
                response = connection.getresponse()
                bodies.append(response.read().decode())
                sockets.append(connection.sock.getsockname() if connection.sock else None)
            print(json.dumps({"bodies": bodies, "same": sockets[0] is not None and sockets[0] == sockets[1],
                              "version": connection.sock.version()}))
            """
        let outcome = try await ExternalTool.run("python3", ["-c", script, "\(server.port)", authority.caPath])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let result = try JSONParser.parseObject(Array(outcome.stdout.utf8))
        #expect(result["bodies"] as? [any Sendable] as? [String] == ["hello over tls", "hello over tls"])
        #expect(result["same"] as? Bool == true)
        #expect(result["version"] as? String == "TLSv1.3")
    }

    @Test func urllibOverTLSReadsThe413ForALargeBody() async throws {
        let authority = try await TestCertificates.makeAuthority()
        let server = try TestServer(
            tls: try await authority.issueLeaf().tls
        ) { router in
            router.add("POST", "/upload") { request in .text(200, "got \(request.body.count)") }
        }
        let script = """
            import json, ssl, sys, urllib.error, urllib.request
            context = ssl.create_default_context(cafile=sys.argv[2])
            request = urllib.request.Request(sys.argv[1], data=b"x" * (4 << 20), method="POST")
            try:
                urllib.request.urlopen(request, timeout=20, context=context)
                print(json.dumps({"outcome": "ok"}))
            except urllib.error.HTTPError as error:
                print(json.dumps({"outcome": "http", "status": error.code, "body": json.loads(error.read())}))
            except Exception as error:
                print(json.dumps({"outcome": "error", "detail": repr(error)}))
            """
        let outcome = try await ExternalTool.run(
            "python3", ["-c", script, "https://127.0.0.1:\(server.port)/upload", authority.caPath])
        let result = try JSONParser.parseObject(Array(outcome.stdout.utf8))
        #expect(result["status"] as? Int == 413, "\(result) \(outcome.stderr)")
        #expect((result["body"] as? [String: any Sendable])?["error"] as? String == "invalid_request")
    }

    @Test func clientsNotTrustingTheCARefuseTheCertificate() async throws {
        let authority = try await TestCertificates.makeAuthority()
        let server = try makeServer(try await authority.issueLeaf())
        let url = "https://127.0.0.1:\(server.port)/hello"
        // curl checks against the system bundle, which does not hold the test CA.
        let curl = try await ExternalTool.run("curl", ["-sS", url])
        #expect(curl.status == 60, "\(curl.stderr)")  // CURLE_PEER_FAILED_VERIFICATION
        #expect(curl.stderr.contains("SSL certificate problem"), "\(curl.stderr)")
        let script = """
            import ssl, sys, urllib.request
            try:
                urllib.request.urlopen(sys.argv[1], timeout=10)
                print("accepted")
            except Exception as error:
                print(type(getattr(error, "reason", error)).__name__)
            """
        let python = try await ExternalTool.run("python3", ["-c", script, url])
        #expect(python.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "SSLCertVerificationError", "\(python)")
    }

    @Test func onlyTLS12And13WithAEADCiphersAreOffered() async throws {
        let authority = try await TestCertificates.makeAuthority()
        let server = try makeServer(try await authority.issueLeaf())
        func handshake(_ options: [String]) async throws -> ExternalTool.Outcome {
            try await ExternalTool.run(
                "openssl", ["s_client", "-connect", "127.0.0.1:\(server.port)", "-CAfile", authority.caPath] + options,
                input: "Q\n", timeout: 20)
        }
        let modern = try await handshake(["-tls1_3"])
        #expect(modern.status == 0, "\(modern.stderr)")
        #expect(modern.stdout.contains("Verify return code: 0 (ok)"))
        let tls12 = try await handshake(["-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-GCM-SHA256"])
        #expect(tls12.status == 0, "\(tls12.stderr)")
        // The client may offer TLS 1.1 (SECLEVEL=0) and CBC suites, which a GnuTLS "NORMAL"
        // server with TLS 1.1 enabled accepts; the modern priorities must refuse them.
        let tls11 = try await handshake(["-tls1_1", "-cipher", "DEFAULT:@SECLEVEL=0"])
        #expect(tls11.status != 0, "TLS 1.1 was accepted")
        let cbc = try await handshake(["-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-SHA256:ECDHE-ECDSA-AES128-SHA"])
        #expect(cbc.status != 0, "a CBC cipher suite was accepted")
        let finiteFieldGroup = try await handshake(["-tls1_3", "-groups", "ffdhe2048"])
        #expect(finiteFieldGroup.status != 0, "a finite-field Diffie-Hellman group was accepted")
    }

    @Test func replacedCertificateIsSeenByNewConnectionsWhileRequestsInFlightFinish() async throws {
        let authority = try await TestCertificates.makeAuthority()
        let first = try await authority.issueLeaf(name: "first")
        let second = try await authority.issueLeaf(name: "second")
        let server = try makeServer(first)
        let port = server.port
        #expect(try await servedSerial(port: port) == first.serial)

        let slow = Task {
            try await ExternalTool.run("curl", ["-sS", "--cacert", authority.caPath, "https://127.0.0.1:\(port)/slow"])
        }
        let deadline = ContinuousClock.now + .seconds(5)
        while server.server.inFlightRequests == 0 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        try server.server.replaceCertificate(chainPEM: second.certificatePEM, privateKeyPEM: second.privateKeyPEM)
        #expect(try await servedSerial(port: port) == second.serial)
        let finished = try await slow.value
        #expect(finished.status == 0, "\(finished.stderr)")
        #expect(finished.stdout == "slow over tls")

        let again = try await ExternalTool.run("curl", ["-sS", "--cacert", authority.caPath, "https://127.0.0.1:\(port)/hello"])
        #expect(again.stdout == "hello over tls")
    }

    @Test func connectionOpenedBeforeTheReplacementIsServedThenClosed() async throws {
        let authority = try await TestCertificates.makeAuthority()
        let first = try await authority.issueLeaf(name: "first")
        let second = try await authority.issueLeaf(name: "second")
        let server = try makeServer(first)
        // One request, then (on a signal over standard input) a second on the same connection.
        let script = """
            import http.client, json, ssl, sys
            context = ssl.create_default_context(cafile=sys.argv[2])
            connection = http.client.HTTPSConnection("127.0.0.1", int(sys.argv[1]), context=context)
            results = []
            for _ in range(2):
                connection.request("GET", "/hello")
                response = connection.getresponse()
                results.append([response.read().decode(), response.getheader("Connection")])
                if len(results) == 1:
                    print("ready", flush=True)
                    sys.stdin.readline()
            print(json.dumps(results))
            """
        let (input, output) = (Pipe(), Pipe())
        let child = try ChildProcess(
            executable: "/usr/bin/env", arguments: ["python3", "-c", script, "\(server.port)", authority.caPath],
            environment: ProcessInfo.processInfo.environment,
            standardInput: .descriptor(input.fileHandleForReading.fileDescriptor),
            standardOutput: .descriptor(output.fileHandleForWriting.fileDescriptor), standardError: .descriptor(STDERR_FILENO))
        try input.fileHandleForReading.close()
        try output.fileHandleForWriting.close()
        let reader = output.fileHandleForReading
        var ready = Data()
        while !String(decoding: ready, as: UTF8.self).contains("ready\n") {
            let chunk = reader.availableData
            guard !chunk.isEmpty else { break }
            ready.append(chunk)
        }
        try server.server.replaceCertificate(chainPEM: second.certificatePEM, privateKeyPEM: second.privateKeyPEM)
        #expect(server.server.retiringDaemons == 1)
        signal(SIGPIPE, SIG_IGN)  // a child that exits early must not take the test process with it
        try? input.fileHandleForWriting.write(contentsOf: Data("go\n".utf8))
        let rest = String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        let results = try JSONParser.parseValue(Array(rest.utf8)) as? [any Sendable]
        let later = results?.last as? [any Sendable]
        #expect((results?.first as? [any Sendable])?.first as? String == "hello over tls", "\(rest)")
        #expect(later?.first as? String == "hello over tls", "\(rest)")
        #expect(later?.last as? String == "close", "the retired daemon should ask the client to reconnect")
        // With its last connection closed, the retired daemon is stopped.
        let deadline = ContinuousClock.now + .seconds(5)
        while server.server.retiringDaemons > 0 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(server.server.retiringDaemons == 0)
    }

    @Test func badCertificateIsRefusedAndTheOldOneKeepsServing() async throws {
        let authority = try await TestCertificates.makeAuthority()
        let first = try await authority.issueLeaf(name: "first")
        let second = try await authority.issueLeaf(name: "second")
        let log = LogCollector()
        let server = try makeServer(first, errorLog: log.sink)
        #expect {
            try server.server.replaceCertificate(chainPEM: "not a certificate", privateKeyPEM: second.privateKeyPEM)
        } throws: { ($0 as? HTTPServerError)?.kind == .invalidTLSCredentials }
        // A well-formed key that belongs to another certificate: GnuTLS refuses the pair.
        #expect {
            try server.server.replaceCertificate(chainPEM: second.certificatePEM, privateKeyPEM: first.privateKeyPEM)
        } throws: { error in
            (error as? HTTPServerError)?.kind == .invalidTLSCredentials && "\(error)".contains("refused")
        }
        let corrupted = second.certificatePEM.replacingOccurrences(of: "M", with: "A")
        #expect {
            try server.server.replaceCertificate(chainPEM: corrupted, privateKeyPEM: second.privateKeyPEM)
        } throws: { ($0 as? HTTPServerError)?.kind == .invalidTLSCredentials }
        #expect(try await servedSerial(port: server.port) == first.serial)
        let curl = try await ExternalTool.run(
            "curl", ["-sS", "--cacert", authority.caPath, "https://127.0.0.1:\(server.port)/hello"])
        #expect(curl.stdout == "hello over tls", "\(curl.stderr)")
    }

    @Test func startRefusesABadKeyClearly() async throws {
        let authority = try await TestCertificates.makeAuthority()
        let first = try await authority.issueLeaf(name: "first")
        let second = try await authority.issueLeaf(name: "second")
        let configuration = HTTPServerConfiguration(
            port: 0, tls: .init(certificateChainPEM: first.certificatePEM, privateKeyPEM: second.privateKeyPEM),
            errorLog: { _ in })
        let server = HTTPServer(configuration: configuration, responder: Router())
        #expect { try server.start() } throws: { ($0 as? HTTPServerError)?.kind == .invalidTLSCredentials }
    }

    @Test func plainServerHasNoCertificateToReplace() throws {
        let server = try TestServer { _ in }
        #expect(server.server.scheme == "http")
        #expect {
            try server.server.replaceCertificate(chainPEM: "", privateKeyPEM: "")
        } throws: { ($0 as? HTTPServerError)?.kind == .notServingTLS }
    }
}
