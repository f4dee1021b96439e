import Foundation
import LatchCrypto
import LatchLocking
import LatchServer
import LatchTesting
import Testing

/// The JWKS of a provider configured by URL: fetched once, kept ten minutes, fetched early for an
/// unknown `kid` at most once a minute (`ProviderKeyCache`).
@Suite("Firebase: identity provider key cache")
struct FirebaseProviderKeyCacheTests {
    typealias Fixture = IdentityProviderFixture

    private static func document(_ keys: [SigningKey]) -> [UInt8] {
        Array(try! JSONEncoder().encode(JWKSet(keys: keys.map(\.publicJWK))))
    }

    @Test("fetched once, kept for the lifetime, refetched early for an unknown kid at most once per minute")
    func caching() throws {
        let clock = TestClock()
        let fetches = Locked(0)
        let published = Locked(Self.document([Fixture.rsa]))
        let cache = ProviderKeyCache(clock: clock) { url in
            #expect(url.absoluteString == "https://login.acme.test/jwks")
            fetches.withLock { $0 += 1 }
            return published.withLock { $0 }
        }
        let provider = IdentityProvider(
            tenantID: "t", providerID: "oidc.acme", issuer: Fixture.issuer, clientID: Fixture.clientID,
            jwksURL: "https://login.acme.test/jwks", jwksJSON: nil, createdAt: clock.now())

        #expect(cache.key("acme-rsa-1", of: provider) != nil)
        #expect(cache.key("acme-rsa-1", of: provider) != nil)
        #expect(fetches.withLock { $0 } == 1)

        // An unknown kid fetches again, but not twice within a minute.
        #expect(cache.key("acme-ec-1", of: provider) == nil)
        #expect(fetches.withLock { $0 } == 1)
        clock.advance(by: 61)
        published.withLock { $0 = Self.document([Fixture.rsa, Fixture.ec]) }
        #expect(cache.key("acme-ec-1", of: provider) != nil)
        #expect(fetches.withLock { $0 } == 2)
        #expect(cache.key("forged", of: provider) == nil)
        #expect(cache.key("forged", of: provider) == nil)
        #expect(fetches.withLock { $0 } == 2)

        // After the lifetime the document is read again; a failed fetch keeps the known keys.
        clock.advance(by: ProviderKeyCache.lifetime + 1)
        published.withLock { $0 = Array("not json".utf8) }
        #expect(cache.key("acme-rsa-1", of: provider) != nil)
        #expect(fetches.withLock { $0 } == 3)
    }

    @Test("a JWKS document: keys without alg or use are read by type; encryption and symmetric keys are skipped")
    func lenientDocument() throws {
        let rsa = Fixture.rsa.publicJWK
        let ec = Fixture.ec.publicJWK
        let json = """
            {"keys":[
              {"kty":"RSA","kid":"\(rsa.kid)","n":"\(rsa.n!)","e":"\(rsa.e!)"},
              {"kty":"EC","crv":"P-256","kid":"\(ec.kid)","x":"\(ec.x!)","y":"\(ec.y!)","use":"sig"},
              {"kty":"RSA","kid":"enc","n":"\(rsa.n!)","e":"\(rsa.e!)","use":"enc"},
              {"kty":"oct","kid":"hmac","k":"c2VjcmV0"}
            ]}
            """
        let keys = try ProviderKeySet.keys(of: json)
        #expect(Set(keys.keys) == [rsa.kid, ec.kid])
        #expect(keys[rsa.kid]?.algorithm == .rs256)
        #expect(keys[ec.kid]?.algorithm == .es256)
        #expect(throws: AuthFailure.invalidParameter(.jwks)) { try ProviderKeySet.keys(of: "[]") }
        #expect(throws: AuthFailure.invalidParameter(.jwks)) { try ProviderKeySet.keys(of: #"{"keys":[{"kty":"oct"}]}"#) }
    }
}
