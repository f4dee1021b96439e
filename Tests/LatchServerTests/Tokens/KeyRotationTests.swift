import Foundation
import LatchCrypto
import LatchServer
import LatchTesting
import Testing

/// Signing-key rotation: the JWKS publishes old and new keys, new tokens use the new key, and
/// tokens signed before the rotation keep verifying until they expire.
@Suite("Key rotation")
struct KeyRotationTests {
    @Test("after rotating to RS256 the JWKS lists both keys, new tokens use the new kid, old tokens still verify")
    func rotateToRS256() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = WireClient(server)
        let (_, before) = try await TokenHelpers.userWithTokens(server)
        let oldKid = try #require(try DecodedJWT(before.accessToken).kid)
        #expect(try DecodedJWT(before.accessToken).alg == "ES256")

        let tenant = try server.app.services.admin.tenant(named: "default")
        let record = try server.app.services.admin.rotateKey(tenant: tenant, algorithm: .rs256)
        #expect(record.id != oldKid)
        server.clock.advance(by: 6)  // past the key ring's 5 s cache

        // Published at once, but not signing until cached JWKS documents have expired.
        let early = try await TokenHelpers.jwks(client)
        #expect(Set(early.keys.map(\.kid)) == [oldKid, record.id])
        let (_, during) = try await TokenHelpers.userWithTokens(server)
        #expect(try DecodedJWT(during.accessToken).kid == oldKid)
        server.clock.advance(by: KeyRing.propagationDelay)

        let jwks = try await TokenHelpers.jwks(client)
        #expect(Set(jwks.keys.map(\.kid)) == [oldKid, record.id])
        #expect(jwks.key(withID: record.id)?.kty == "RSA")
        #expect(jwks.key(withID: record.id)?.alg == "RS256")
        #expect(jwks.key(withID: oldKid)?.alg == "ES256")

        let (_, after) = try await TokenHelpers.userWithTokens(server)
        for token in [after.accessToken, try #require(after.idToken)] {
            let decoded = try DecodedJWT(token)
            #expect(decoded.alg == "RS256")
            #expect(decoded.kid == record.id)
            _ = try TokenHelpers.verify(token, with: jwks)
        }
        for token in [before.accessToken, try #require(before.idToken)] {
            _ = try TokenHelpers.verify(token, with: jwks)
        }
        #expect(try await TokenHelpers.userinfo(client, authorization: "Bearer \(before.accessToken)").status == 200)
        #expect(try await TokenHelpers.userinfo(client, authorization: "Bearer \(after.accessToken)").status == 200)

        // A refresh of a pre-rotation session is signed with the new key.
        let refreshed = try TokenGrant(try await TokenHelpers.refresh(client, before.refreshToken))
        #expect(try DecodedJWT(refreshed.accessToken).kid == record.id)

        // Once every token the old key signed has expired (plus a margin), it leaves the JWKS.
        server.clock.advance(by: TimeInterval(TenantSettings().longestSignedTokenLifetime + 301))
        let later = try await TokenHelpers.jwks(client)
        #expect(later.keys.map(\.kid) == [record.id])
    }

    @Test("a rotation made by another process (latchd keys rotate) reaches the running server after the cache interval")
    func rotationFromAdminConsole() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = WireClient(server)
        let (_, before) = try await TokenHelpers.userWithTokens(server)
        let oldKid = try #require(try DecodedJWT(before.accessToken).kid)

        let console = try AdminConsole.open(
            dataDirectory: server.dataDirectory, location: LatchTestStore.location(dataDirectory: server.dataDirectory))
        let record = try console.admin.rotateKey(
            tenant: try console.admin.tenant(named: "default"), algorithm: .rs256, immediately: true)
        console.close()

        // The console stamps the key with the real time, which may be ahead of the test clock on a
        // slow machine: move the test clock past both, then past the 5 s key cache.
        server.clock.advance(by: max(0, Date().timeIntervalSince(server.clock.now())) + 6)
        let jwks = try await TokenHelpers.jwks(client)
        #expect(Set(jwks.keys.map(\.kid)) == [oldKid, record.id])
        let (_, after) = try await TokenHelpers.userWithTokens(server)
        let decoded = try DecodedJWT(after.accessToken)
        #expect(decoded.kid == record.id)
        #expect(decoded.alg == "RS256")
        _ = try TokenHelpers.verify(after.accessToken, with: jwks)
        _ = try TokenHelpers.verify(before.accessToken, with: jwks)
        #expect(try await TokenHelpers.userinfo(client, authorization: "Bearer \(before.accessToken)").status == 200)
    }
}
