import Foundation
import LatchCrypto
import LatchServer
import LatchTesting
import Testing

/// The tokens of one successful `oauth2/v2.0/token` answer.
struct TokenGrant: Sendable {
    let accessToken: String
    let refreshToken: String?
    let idToken: String?
    let scope: String?

    /// Reads the tokens of a 200 answer; records an issue and throws when the answer is not one.
    init(_ response: WireResponse, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try #require(
            response.status == 200, "token request failed: \(response.status) \(String(decoding: response.body, as: UTF8.self))",
            sourceLocation: sourceLocation)
        accessToken = try #require(response.string("access_token"), sourceLocation: sourceLocation)
        refreshToken = response.string("refresh_token")
        idToken = response.string("id_token")
        scope = response.string("scope")
    }
}

/// A compact JWS split into its decoded JSON header and claims, without verifying anything.
struct DecodedJWT: @unchecked Sendable {  // JSON values from JSONSerialization are immutable plists
    let header: [String: Any]
    let claims: [String: Any]

    init(_ token: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3, "a compact JWS has three segments", sourceLocation: sourceLocation)
        let header = try #require(TokenHelpers.base64URLDecode(parts[0]), sourceLocation: sourceLocation)
        let claims = try #require(TokenHelpers.base64URLDecode(parts[1]), sourceLocation: sourceLocation)
        self.header = try #require(
            try JSONSerialization.jsonObject(with: header) as? [String: Any], sourceLocation: sourceLocation)
        self.claims = try #require(
            try JSONSerialization.jsonObject(with: claims) as? [String: Any], sourceLocation: sourceLocation)
    }

    func string(_ key: String) -> String? { claims[key] as? String }
    func int(_ key: String) -> Int? { (claims[key] as? NSNumber)?.intValue }
    var kid: String? { header["kid"] as? String }
    var alg: String? { header["alg"] as? String }
}

/// Ways to obtain and check tokens over the wire, shared by the token, operations and durability suites.
enum TokenHelpers {
    /// A password the policy accepts.
    static let password = "Quartz-Meadow-Lantern-83"

    /// A fresh e-mail address.
    static func uniqueEmail(_ prefix: String = "user") -> String {
        "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())@example.com"
    }

    /// Signs in with a password: `initiate` → `challenge` → `token` (grant `password`).
    static func passwordSignIn(
        _ client: WireClient, email: String, password: String = TokenHelpers.password,
        scope: String = "openid offline_access", headers: [String: String] = [:]
    ) async throws -> WireResponse {
        let initiate = try await client.post(
            "oauth2/v2.0/initiate", ["username": email, "challenge_type": "password redirect"], headers: headers)
        try #require(initiate.status == 200, "initiate: \(initiate.status) \(initiate.json)")
        let challenge = try await client.post(
            "oauth2/v2.0/challenge",
            ["continuation_token": try #require(initiate.continuationToken), "challenge_type": "password redirect"],
            headers: headers)
        try #require(challenge.string("challenge_type") == "password", "challenge: \(challenge.json)")
        return try await client.post(
            "oauth2/v2.0/token",
            [
                "grant_type": "password", "continuation_token": try #require(challenge.continuationToken),
                "password": password, "scope": scope,
            ],
            headers: headers)
    }

    /// Creates a verified user with ``password`` and signs it in.
    static func userWithTokens(
        _ server: LatchTestServer, tenant: String = "default", email: String = TokenHelpers.uniqueEmail(),
        scope: String = "openid offline_access"
    ) async throws -> (user: User, tokens: TokenGrant) {
        let user = try server.createUser(email: email, password: password, tenant: tenant)
        let response = try await passwordSignIn(WireClient(server, tenant: tenant), email: email, scope: scope)
        return (user, try TokenGrant(response))
    }

    /// Signs up over the wire (`signup/start` → `challenge` → code from the outbox → `continue`) and
    /// exchanges the final continuation token for tokens.
    static func signUp(
        _ server: LatchTestServer, email: String, password: String? = TokenHelpers.password,
        scope: String = "openid offline_access"
    ) async throws -> TokenGrant {
        let client = WireClient(server)
        let challengeType = password == nil ? "oob redirect" : "oob password redirect"
        var form = ["username": email, "challenge_type": challengeType]
        if let password { form["password"] = password }
        let start = try await client.post("signup/v1.0/start", form)
        try #require(start.status == 200, "signup/start: \(start.json)")
        let challenge = try await client.post(
            "signup/v1.0/challenge",
            ["continuation_token": try #require(start.continuationToken), "challenge_type": challengeType])
        try #require(challenge.string("challenge_type") == "oob", "signup/challenge: \(challenge.json)")
        let code = try #require(try server.latestCode(to: email))
        let proceed = try await client.post(
            "signup/v1.0/continue",
            ["continuation_token": try #require(challenge.continuationToken), "grant_type": "oob", "oob": code])
        try #require(proceed.status == 200, "signup/continue: \(proceed.json)")
        let token = try await client.post(
            "oauth2/v2.0/token",
            ["grant_type": "continuation_token", "continuation_token": try #require(proceed.continuationToken), "scope": scope])
        return try TokenGrant(token)
    }

    /// Presents a refresh token at the token endpoint.
    static func refresh(_ client: WireClient, _ refreshToken: String?, scope: String? = nil) async throws -> WireResponse {
        var form = ["grant_type": "refresh_token"]
        if let refreshToken { form["refresh_token"] = refreshToken }
        if let scope { form["scope"] = scope }
        return try await client.post("oauth2/v2.0/token", form)
    }

    /// Fetches the tenant's JWKS over HTTP.
    static func jwks(_ client: WireClient) async throws -> JWKSet {
        let response = try await client.raw("GET", "/\(client.tenant)/discovery/v2.0/keys")
        try #require(response.status == 200, "jwks: \(response.status)")
        return try JSONDecoder().decode(JWKSet.self, from: response.body)
    }

    /// Verifies `token`'s signature against `jwks` with LatchCrypto and returns the payload bytes.
    static func verify(_ token: String, with jwks: JWKSet) throws -> [UInt8] {
        try JWT.verify(token) { kid in jwks.key(withID: kid).flatMap { try? SigningKey(publicJWK: $0) } }
    }

    /// GET `/{tenant}/oidc/userinfo` with an optional `Authorization` header value.
    static func userinfo(_ client: WireClient, authorization: String?) async throws -> WireResponse {
        try await client.raw(
            "GET", "/\(client.tenant)/oidc/userinfo", headers: authorization.map { ["Authorization": $0] } ?? [:])
    }

    /// Base64url without padding (RFC 7515 § 2), decoded independently of the code under test.
    static func base64URLDecode(_ segment: Substring) -> Data? {
        var text = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        return Data(base64Encoded: text)
    }

    /// Base64url without padding (RFC 7515 § 2), encoded independently of the code under test.
    static func base64URLEncode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
