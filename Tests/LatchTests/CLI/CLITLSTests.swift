#if canImport(LatchCurl)
    import Foundation
    import LatchServer
    import LatchTesting
    import Testing

    /// The built `latch` against a server on HTTPS with its development CA: `--ca-file` makes it
    /// trust the CA (requests then go through LatchCurl); without it the certificate is refused with
    /// the network exit status and a message that says why.
    @Suite("latch over HTTPS")
    struct CLITLSTests {
        static let password = "Correct-Horse-Battery-42"

        @Test("--ca-file: signin and token over https exit 0")
        func trustedCertificateAuthority() async throws {
            let server = try LatchTestServer.start { $0.tls = .development }
            defer { server.stop() }
            let ca = try #require(server.app.certificateAuthorityPath)
            #expect(server.baseURL.hasPrefix("https://"))
            let home = try CLIHome()
            defer { home.remove() }
            let email = "tls-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            try server.createUser(email: email, password: Self.password)
            let global = ["--server", server.baseURL, "--ca-file", ca]

            let signin = try await CLIProcess.run(
                home: home, global + ["--json", "signin", "--email", email, "--password-stdin"], input: "\(Self.password)\n")
            #expect(signin.status == 0, "\(signin.stderr)")
            #expect(try signin.json()["status"] as? String == "signed_in")

            let token = try await CLIProcess.run(home: home, global + ["token", "--force-refresh"])
            #expect(token.status == 0, "\(token.stderr)")
            let accessToken = token.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(accessToken.split(separator: ".", omittingEmptySubsequences: false).count == 3)
        }

        @Test("without --ca-file the certificate is refused: exit 6 naming the certificate and --ca-file")
        func untrustedCertificate() async throws {
            let server = try LatchTestServer.start { $0.tls = .development }
            defer { server.stop() }
            let home = try CLIHome()
            defer { home.remove() }
            let email = "untrusted-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            try server.createUser(email: email, password: Self.password)

            let human = try await CLIProcess.run(
                home: home, ["--server", server.baseURL, "signin", "--email", email, "--password-stdin"],
                input: "\(Self.password)\n")
            #expect(human.status == 6, "\(human.stderr)")
            #expect(human.stderr.contains("certificate of the server at \(server.baseURL) is not trusted"), "\(human.stderr)")
            #expect(human.stderr.contains("--ca-file"), "\(human.stderr)")
            #expect(!human.stderr.contains(Self.password))

            let json = try await CLIProcess.run(
                home: home, ["--server", server.baseURL, "--json", "signin", "--email", email, "--password-stdin"],
                input: "\(Self.password)\n")
            #expect(json.status == 6, "\(json.stderr)")
            let error = try #require(try json.json()["error"] as? [String: Any])
            #expect(error["name"] as? String == "ERROR_NETWORK_REQUEST_FAILED")
            #expect((error["message"] as? String)?.contains("certificate") == true, "\(error)")
        }

        @Test("--ca-file with another CA: exit 6, the hint names the file")
        func wrongCertificateAuthority() async throws {
            let server = try LatchTestServer.start { $0.tls = .development }
            defer { server.stop() }
            let other = try LatchTestServer.start { $0.tls = .development }
            defer { other.stop() }
            let otherCA = try #require(other.app.certificateAuthorityPath)
            let home = try CLIHome()
            defer { home.remove() }
            let run = try await CLIProcess.run(
                home: home,
                ["--server", server.baseURL, "--ca-file", otherCA, "signin", "--email", "ada@example.com", "--password-stdin"],
                input: "\(Self.password)\n")
            #expect(run.status == 6, "\(run.stderr)")
            #expect(run.stderr.contains("is not trusted") && run.stderr.contains(otherCA), "\(run.stderr)")
        }
    }
#endif
