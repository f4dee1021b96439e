import Foundation
import LatchCrypto
import LatchServer
import LatchTesting
import Testing

/// The claims and signatures of issued tokens: RFC 9068 access tokens and OpenID Connect ID tokens,
/// checked against the JWKS served over HTTP with LatchCrypto.
@Suite("Token claims and signatures")
struct TokenClaimsTests {
    @Test("the access token carries the RFC 9068 and OIDC claims and verifies against the JWKS (ES256)")
    func accessTokenClaims() async throws {
        let server = try LatchTestServer.start()
        defer { server.stop() }
        let issuedAt = Int(server.clock.now().timeIntervalSince1970)
        let (user, tokens) = try await TokenHelpers.userWithTokens(server, email: "Ada.Claims@Example.COM")
        let tenant = try server.app.services.admin.tenant(named: "default")
        let settings = TenantSettings()

        let access = try DecodedJWT(tokens.accessToken)
        #expect(access.alg == "ES256")
        #expect(access.header["typ"] as? String == "at+jwt")
        #expect(access.string("iss") == server.baseURL + "/default/v2.0")
        #expect(access.string("sub") == user.id)
        #expect(access.string("aud") == "latch-dev")
        #expect(access.string("client_id") == "latch-dev")
        #expect(access.int("iat") == issuedAt)
        #expect(access.int("nbf") == issuedAt)
        #expect(access.int("exp") == issuedAt + settings.accessTokenLifetime)
        #expect(access.int("auth_time") == issuedAt)
        #expect(access.claims["amr"] as? [String] == ["pwd"])
        #expect(access.string("scp") == "openid offline_access")
        #expect(access.string("tid") == tenant.id)
        #expect(access.string("email") == "ada.claims@example.com")
        #expect(access.claims["email_verified"] as? Bool == true)
        #expect(access.string("jti")?.isEmpty == false)
        let sid = try #require(access.string("sid"))
        #expect(!sid.isEmpty)

        let jwks = try await TokenHelpers.jwks(WireClient(server))
        let kid = try #require(access.kid)
        let jwk = try #require(jwks.key(withID: kid), "the token's kid must be published in the JWKS")
        #expect(jwk.alg == "ES256" && jwk.kty == "EC" && jwk.crv == "P-256" && jwk.use == "sig")
        let payload = try TokenHelpers.verify(tokens.accessToken, with: jwks)
        let verified = try #require(try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
        #expect(verified["sub"] as? String == user.id)
    }

    @Test("the ID token carries the OIDC claims, shares the session, has no scp, and verifies")
    func idTokenClaims() async throws {
        let server = try LatchTestServer.start()
        defer { server.stop() }
        let issuedAt = Int(server.clock.now().timeIntervalSince1970)
        let (user, tokens) = try await TokenHelpers.userWithTokens(server)
        let tenant = try server.app.services.admin.tenant(named: "default")
        let idToken = try #require(tokens.idToken, "scope openid must yield an ID token")

        let id = try DecodedJWT(idToken)
        let access = try DecodedJWT(tokens.accessToken)
        #expect(id.alg == "ES256")
        #expect(id.header["typ"] as? String == "JWT")
        #expect(id.kid == access.kid)
        #expect(id.string("iss") == server.baseURL + "/default/v2.0")
        #expect(id.string("sub") == user.id)
        #expect(id.string("aud") == "latch-dev")
        #expect(id.int("iat") == issuedAt)
        #expect(id.int("nbf") == issuedAt)
        #expect(id.int("exp") == issuedAt + TenantSettings().idTokenLifetime)
        #expect(id.int("auth_time") == issuedAt)
        #expect(id.claims["amr"] as? [String] == ["pwd"])
        #expect(id.string("sid") == access.string("sid"))
        #expect(id.string("tid") == tenant.id)
        #expect(id.string("email") == user.email)
        #expect(id.claims["email_verified"] as? Bool == true)
        #expect(id.claims["scp"] == nil)

        let jwks = try await TokenHelpers.jwks(WireClient(server))
        _ = try TokenHelpers.verify(idToken, with: jwks)
    }

    @Test("no ID token without the openid scope, no refresh token without offline_access")
    func scopeDrivenTokens() async throws {
        let server = try LatchTestServer.start()
        defer { server.stop() }
        let (_, withoutOpenID) = try await TokenHelpers.userWithTokens(server, scope: "offline_access")
        #expect(withoutOpenID.idToken == nil)
        #expect(withoutOpenID.refreshToken != nil)
        let (_, withoutOffline) = try await TokenHelpers.userWithTokens(server, scope: "openid")
        #expect(withoutOffline.idToken != nil)
        #expect(withoutOffline.refreshToken == nil)
    }

    @Test("tokens from a code sign-up say amr otp; a refresh keeps auth_time, amr and sid")
    func signUpAndRefreshClaims() async throws {
        let server = try LatchTestServer.start()
        defer { server.stop() }
        let signedUpAt = Int(server.clock.now().timeIntervalSince1970)
        let email = TokenHelpers.uniqueEmail("signup")
        let tokens = try await TokenHelpers.signUp(server, email: email)
        let first = try DecodedJWT(tokens.accessToken)
        #expect(first.claims["amr"] as? [String] == ["otp"])
        #expect(first.string("email") == email)
        #expect(first.claims["email_verified"] as? Bool == true)
        #expect(first.int("auth_time") == signedUpAt)

        server.clock.advance(by: 120)
        let refreshed = try TokenGrant(try await TokenHelpers.refresh(WireClient(server), tokens.refreshToken))
        let second = try DecodedJWT(refreshed.accessToken)
        #expect(second.int("iat") == signedUpAt + 120)
        #expect(second.int("auth_time") == signedUpAt, "auth_time is when the user authenticated, not the refresh")
        #expect(second.claims["amr"] as? [String] == ["otp"])
        #expect(second.string("sid") == first.string("sid"))
        #expect(second.string("sub") == first.string("sub"))
        #expect(second.string("jti") != first.string("jti"))
        let idToken = try DecodedJWT(try #require(refreshed.idToken))
        #expect(idToken.int("auth_time") == signedUpAt)
    }

    @Test("client_info=1 returns the MSAL account identifiers")
    func clientInfo() async throws {
        let server = try LatchTestServer.start()
        defer { server.stop() }
        let (user, tokens) = try await TokenHelpers.userWithTokens(server)
        let response = try await WireClient(server).post(
            "oauth2/v2.0/token",
            ["grant_type": "refresh_token", "refresh_token": try #require(tokens.refreshToken), "client_info": "1"])
        #expect(response.status == 200)
        #expect(response.headers["cache-control"] == "no-store", "RFC 6749 § 5.1")
        #expect(response.headers["pragma"] == "no-cache", "RFC 6749 § 5.1")
        #expect(response.string("token_type") == "Bearer")
        #expect((response["expires_in"] as? NSNumber)?.intValue == TenantSettings().accessTokenLifetime)
        let info = try #require(response.string("client_info"))
        let json = try #require(TokenHelpers.base64URLDecode(info[...]))
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: String])
        let tenant = try server.app.services.admin.tenant(named: "default")
        #expect(object == ["uid": user.id, "utid": tenant.id])
    }

    @Test("a tampered, re-keyed or alg=none token does not verify against the JWKS")
    func tamperedTokensFail() async throws {
        let server = try LatchTestServer.start()
        defer { server.stop() }
        let (_, tokens) = try await TokenHelpers.userWithTokens(server)
        let jwks = try await TokenHelpers.jwks(WireClient(server))
        let parts = tokens.accessToken.split(separator: ".").map(String.init)
        try #require(parts.count == 3)

        var claims = try DecodedJWT(tokens.accessToken).claims
        claims["sub"] = "someone-else"
        let forgedPayload = TokenHelpers.base64URLEncode(try JSONSerialization.data(withJSONObject: claims))
        let forged = [parts[0], forgedPayload, parts[2]].joined(separator: ".")
        #expect(throws: JWTError.self) { try TokenHelpers.verify(forged, with: jwks) }

        let kid = try #require(DecodedJWT(tokens.accessToken).kid)
        let noneHeader = TokenHelpers.base64URLEncode(Data(#"{"alg":"none","kid":"\#(kid)"}"#.utf8))
        let unsigned = [noneHeader, parts[1], ""].joined(separator: ".")
        #expect(throws: JWTError.self) { try TokenHelpers.verify(unsigned, with: jwks) }

        // A token signed by a key the tenant never published.
        let stranger = try SigningKey.generate(.es256, id: kid)
        let impostor = try JWT.sign(
            payload: Array(try JSONSerialization.data(withJSONObject: claims)), key: stranger, type: "at+jwt")
        #expect(throws: JWTError.self) { try TokenHelpers.verify(impostor, with: jwks) }

        // The server refuses them all as bearer tokens.
        for token in [forged, unsigned, impostor] {
            let response = try await TokenHelpers.userinfo(WireClient(server), authorization: "Bearer \(token)")
            #expect(response.status == 401)
        }
    }
}
