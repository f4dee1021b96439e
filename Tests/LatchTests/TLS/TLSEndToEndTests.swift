#if canImport(LatchCurl)
    import Foundation
    import Latch
    import LatchCurl
    import LatchServer
    import LatchTesting
    import LatchWire
    import Testing

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// The SDK against a server on HTTPS with its development CA (`latchd serve --dev --tls`):
    /// through LatchCurl trusting the CA file everything works; a client that does not trust the CA
    /// fails fast with a network error; discovery advertises only https URLs.
    @Suite("SDK over HTTPS")
    struct TLSEndToEndTests {
        /// A live server on `https://127.0.0.1:PORT` and its CA file.
        private func start() throws -> (LatchTestServer, String) {
            let server = try LatchTestServer.start { $0.tls = .development }
            let ca = try #require(server.app.certificateAuthorityPath)
            #expect(server.baseURL.hasPrefix("https://127.0.0.1:"))
            #expect(FileManager.default.isReadableFile(atPath: ca))
            return (server, ca)
        }

        private func client(_ server: LatchTestServer, transport: HTTPTransport) throws -> LatchClient {
            let clock = server.clock
            return try LatchClient(
                configuration: LatchConfiguration(
                    serverURL: URL(string: server.baseURL)!, tenant: server.tenant, clientID: server.clientID,
                    credentialStore: InMemoryCredentialStore(), retryPolicy: SDKTest.fastRetries, transport: transport,
                    clock: { clock.now() }))
        }

        private func curl(trusting ca: String?) -> HTTPTransport {
            HTTPTransport(send: CurlHTTPClient(certificateAuthorityFile: ca, timeout: 20).data(for:))
        }

        @Test("sign-up, sign-in and refresh over https through CurlHTTPClient trusting the CA file")
        func signUpSignInRefresh() async throws {
            let (server, ca) = try start()
            defer { server.stop() }
            let client = try client(server, transport: curl(trusting: ca))
            let email = SDKTest.email("tls")

            let state = try SDKTest.codeRequired(try await client.signUp(username: email, password: SDKTest.password))
            let code = try #require(try server.latestCode(to: email))
            let signedUp = try SDKTest.completed(try await SDKTest.accountCreated(try await state.submitCode(code)).signIn())
            #expect(signedUp.account.username == email)
            #expect(!signedUp.accessToken.isEmpty)

            let signedIn = try SDKTest.completed(try await client.signIn(username: email, password: SDKTest.password))
            #expect(signedIn.account.id == signedUp.account.id)
            #expect(signedIn.account.claims?.issuer.hasPrefix("https://") == true)

            let refreshed = try await client.acquireTokenSilent(account: signedIn.account, forceRefresh: true)
            #expect(refreshed.accessToken != signedIn.accessToken)
            #expect(refreshed.account.id == signedIn.account.id)
        }

        /// The error of a password sign-in through `transport`, which does not trust the server's CA:
        /// a network error over `URLError(.serverCertificateUntrusted)` whose message names the
        /// certificate and holds no password, within seconds.
        private func expectUntrusted(through transport: HTTPTransport, _ name: String) async throws -> LatchError {
            let (server, _) = try start()
            defer { server.stop() }
            let email = SDKTest.email(name)
            try server.createUser(email: email, password: SDKTest.password)
            let started = Date()
            let error = try await #require(throws: LatchError.self) {
                try await client(server, transport: transport).signIn(username: email, password: SDKTest.password)
            }
            // A hang never ends; 60 s leaves room for a loaded 2-core machine running the whole suite.
            #expect(Date().timeIntervalSince(started) < 60)
            #expect(error.code == .networkError, "\(error)")
            #expect(error.isRetryable)
            #expect((error.underlyingError as? URLError)?.code == .serverCertificateUntrusted, "\(error)")
            #expect(error.message.contains("certificate"), "\(error.message)")
            #expect(!error.message.contains(SDKTest.password))
            return error
        }

        @Test("CurlHTTPClient without the CA fails with networkError over URLError -1202, naming the certificate")
        func curlWithoutCertificateAuthority() async throws {
            let error = try await expectUntrusted(through: curl(trusting: nil), "untrusted")
            let cause = try #require(error.underlyingError as? URLError)
            #expect(cause.errorCode == -1202)
            #expect(cause.userInfo[CurlHTTPClient.curlErrorCodeKey] as? Int == 60)
        }

        @Test("URLSession, which cannot trust the CA file on Linux, fails with a network error, not a hang")
        func urlSessionWithoutCertificateAuthority() async throws {
            // FoundationNetworking says URLError(.unknown); the SDK reports it as Apple platforms do,
            // keeping the original as the underlying error.
            let error = try await expectUntrusted(through: .urlSession, "urlsession")
            let cause = try #require(error.underlyingError as? URLError)
            #expect((cause.userInfo[NSUnderlyingErrorKey] as? URLError)?.code == .unknown)
        }

        @Test("discovery over https advertises only https endpoints")
        func discoveryIsHTTPS() async throws {
            let (server, ca) = try start()
            defer { server.stop() }
            let curl = CurlHTTPClient(certificateAuthorityFile: ca)
            let url = try #require(URL(string: server.baseURL + "/default/v2.0/.well-known/openid-configuration"))
            let (data, response) = try await curl.data(for: URLRequest(url: url))
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            for key in ["issuer", "token_endpoint", "jwks_uri", "authorization_endpoint", "userinfo_endpoint"] {
                let value = try #require(document[key] as? String, "\(key) missing")
                #expect(value.hasPrefix(server.baseURL + "/"), "\(key): \(value)")
            }
            let urls = document.values.compactMap { $0 as? String }.filter { $0.contains("://") }
            #expect(!urls.isEmpty && urls.allSatisfy { $0.hasPrefix("https://") }, "\(urls)")
        }
    }
#endif
