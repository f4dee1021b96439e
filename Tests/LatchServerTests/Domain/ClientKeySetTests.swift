import Foundation
import LatchCrypto
import LatchServer
import Testing

/// What a `private_key_jwt` client may register as its JWKS (``ClientKeySet``): RS256 and ES256
/// public signing keys only, each with a unique `kid` (one key may have none).
@Suite("Client key sets")
struct ClientKeySetTests {
    static let rsa = try! SigningKey.generate(.rs256, id: "k1")
    static let ec = try! SigningKey.generate(.es256, id: "k2")

    private static func json(_ keys: [SigningKey]) -> String {
        String(decoding: try! JSONEncoder().encode(JWKSet(keys: keys.map(\.publicJWK))), as: UTF8.self)
    }

    @Test("RS256 and ES256 public keys are read; kid picks the key, and no kid the only key")
    func accepted() throws {
        let set = try ClientKeySet(Self.json([Self.rsa, Self.ec]))
        #expect(set.keys.map(\.id) == ["k1", "k2"])
        #expect(set.key(for: "k1")?.algorithm == .rs256)
        #expect(set.key(for: "k2")?.algorithm == .es256)
        #expect(set.key(for: "k3") == nil)
        #expect(set.key(for: nil) == nil)
        let single = try ClientKeySet(Self.json([Self.ec]))
        #expect(single.key(for: nil)?.publicJWK.x == Self.ec.publicJWK.x)
        let ec = Self.ec.publicJWK
        let bare = try ClientKeySet(#"{"keys":[{"kty":"EC","crv":"P-256","x":"\#(ec.x!)","y":"\#(ec.y!)"}]}"#)
        #expect(bare.keys.map(\.id) == [nil])
        #expect(bare.key(for: nil) != nil)
        #expect(bare.key(for: "k2") == nil)
    }

    @Test("private members, other key types, a misfitting alg or use, and bad kids are refused")
    func refused() {
        let n = Self.rsa.publicJWK.n ?? ""
        let rsa = #""kty":"RSA","n":"\#(n)","e":"AQAB""#
        let cases: [(String, String)] = [
            ("not JSON", "nope"),
            ("not an object", "[]"),
            ("no keys member", "{}"),
            ("no keys", #"{"keys":[]}"#),
            ("a key not an object", #"{"keys":[1]}"#),
            ("HMAC key", #"{"keys":[{"kty":"oct","kid":"h","k":"c2VjcmV0"}]}"#),
            ("private exponent", #"{"keys":[{\#(rsa),"kid":"k1","d":"AQAB"}]}"#),
            ("EC private key", #"{"keys":[{"kty":"EC","crv":"P-256","kid":"k","x":"AA","y":"AA","d":"AA"}]}"#),
            ("alg not fitting kty", #"{"keys":[{\#(rsa),"kid":"k1","alg":"ES256"}]}"#),
            ("HS256 alg", #"{"keys":[{\#(rsa),"kid":"k1","alg":"HS256"}]}"#),
            ("alg none", #"{"keys":[{\#(rsa),"kid":"k1","alg":"none"}]}"#),
            ("encryption key", #"{"keys":[{\#(rsa),"kid":"k1","use":"enc"}]}"#),
            ("other curve", #"{"keys":[{"kty":"EC","crv":"P-384","kid":"k","x":"AA","y":"AA"}]}"#),
            ("kid not a string", #"{"keys":[{\#(rsa),"kid":7}]}"#),
            ("empty kid", #"{"keys":[{\#(rsa),"kid":""}]}"#),
            ("duplicate kid", #"{"keys":[{\#(rsa),"kid":"k1"},{\#(rsa),"kid":"k1"}]}"#),
            ("two keys, one without kid", #"{"keys":[{\#(rsa),"kid":"k1"},{\#(rsa)}]}"#),
            ("short RSA modulus", #"{"keys":[{"kty":"RSA","kid":"k1","n":"\#(String(n.prefix(171)))","e":"AQAB"}]}"#),
            ("too many keys", #"{"keys":[\#((1...11).map { #"{\#(rsa),"kid":"k\#($0)"}"# }.joined(separator: ","))]}"#),
            ("too large", #"{"keys":[{\#(rsa),"kid":"\#(String(repeating: "x", count: 70_000))"}]}"#),
        ]
        for (name, text) in cases {
            #expect(throws: AuthFailure.invalidParameter(.jwks), "\(name)") { try ClientKeySet(text) }
        }
    }
}
