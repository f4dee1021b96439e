import Foundation
import Latch

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension LatchTestServer {
    /// A configuration for an SDK client of this server: its origin, tenant and client id, its test
    /// clock (so ``clock`` moves token expiry too), an in-memory credential store, and a transport
    /// that reaches the server in either ``Mode``.
    /// - Parameters:
    ///   - tenant: the tenant; ``tenant`` by default.
    ///   - clientID: the client id; ``clientID`` by default.
    ///   - challengeTypes: what the app can handle.
    ///   - credentialStore: where tokens are kept; a fresh ``InMemoryCredentialStore`` when `nil`.
    ///   - retryPolicy: automatic retries; ``RetryPolicy/none`` by default, so failures show at once.
    ///   - transport: how requests are sent; ``transport`` when `nil`. Wrap ``transport`` to record.
    public func makeConfiguration(
        tenant: String? = nil, clientID: String? = nil,
        challengeTypes: [LatchConfiguration.ChallengeType] = [.oob, .password],
        credentialStore: (any CredentialStore)? = nil, retryPolicy: RetryPolicy = .none, transport: HTTPTransport? = nil
    ) -> LatchConfiguration {
        let clock = self.clock
        return LatchConfiguration(
            serverURL: URL(string: baseURL)!, tenant: tenant ?? self.tenant, clientID: clientID ?? self.clientID,
            challengeTypes: challengeTypes, credentialStore: credentialStore ?? InMemoryCredentialStore(),
            retryPolicy: retryPolicy, transport: transport ?? self.transport, clock: { clock.now() })
    }

    /// A client of this server, configured by ``makeConfiguration(tenant:clientID:challengeTypes:credentialStore:retryPolicy:transport:)``
    /// and then by `configure`.
    ///
    /// ```swift
    /// let server = try LatchTestServer.start(mode: .inProcess)
    /// defer { server.stop() }
    /// let client = try server.makeClient()
    /// _ = try server.createUser(email: "ada@example.com", password: "Quartz-Lantern-58!")
    /// let step = try await client.signIn(username: "ada@example.com", password: "Quartz-Lantern-58!")
    /// ```
    /// - Throws: ``LatchError/Code/invalidConfiguration`` when the client refuses the configuration.
    public func makeClient(
        tenant: String? = nil, clientID: String? = nil,
        challengeTypes: [LatchConfiguration.ChallengeType] = [.oob, .password],
        credentialStore: (any CredentialStore)? = nil, retryPolicy: RetryPolicy = .none, transport: HTTPTransport? = nil,
        configure: (inout LatchConfiguration) -> Void = { _ in }
    ) throws -> LatchClient {
        var configuration = makeConfiguration(
            tenant: tenant, clientID: clientID, challengeTypes: challengeTypes, credentialStore: credentialStore,
            retryPolicy: retryPolicy, transport: transport)
        configure(&configuration)
        return try LatchClient(configuration: configuration)
    }

    /// How an SDK client reaches this server: `URLSession` in ``Mode/live``; straight to the router
    /// in ``Mode/inProcess``, where nothing listens.
    public var transport: HTTPTransport {
        guard mode == .inProcess else { return .urlSession }
        return HTTPTransport { [self] request in
            guard let url = request.url else { throw URLError(.badURL) }
            var target = url.path
            if let query = url.query { target += "?" + query }
            let headers = (request.allHTTPHeaderFields ?? [:]).map { ($0.key, $0.value) }
            let response = await send(
                method: request.httpMethod ?? "GET", target: target, headers: headers,
                body: Array(request.httpBody ?? Data()))
            guard
                let http = HTTPURLResponse(
                    url: url, statusCode: response.status, httpVersion: "HTTP/1.1", headerFields: response.headers)
            else { throw URLError(.badServerResponse) }
            return (Data(response.body), http)
        }
    }
}
