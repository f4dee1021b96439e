import Foundation
import LatchCrypto
import LatchWire
import Testing

@Suite struct JWTTests {
    @Test(arguments: SigningAlgorithm.allCases)
    func signAndVerify(_ algorithm: SigningAlgorithm) throws {
        let key = Fixtures.key(for: algorithm)
        let token = try JWT.sign(payload: Fixtures.claims, key: key)
        #expect(token.split(separator: ".").count == 3)
        let header = try #require(Base64URL.decode(token.split(separator: ".")[0]))
        #expect(
            String(decoding: header, as: UTF8.self)
                == #"{"alg":"\#(algorithm.rawValue)","kid":"\#(key.id)","typ":"JWT"}"#)
        #expect(try JWT.verify(token, key: Fixtures.lookup(Fixtures.es256, Fixtures.rs256)) == Fixtures.claims)
        #expect(JWT.unverifiedPayload(token) == Fixtures.claims)
    }

    @Test func customTypeAndEscapedKid() throws {
        let key = try SigningKey.generate(.es256, id: "a\"b\\c\u{1}")
        let token = try JWT.sign(payload: [], key: key, type: "at+jwt")
        let header = try #require(Base64URL.decode(token.split(separator: ".")[0]))
        let object = try #require(JSONSerialization.jsonObject(with: Data(header)) as? [String: String])
        #expect(object == ["alg": "ES256", "kid": "a\"b\\c\u{1}", "typ": "at+jwt"])
        #expect(try JWT.verify(token, key: Fixtures.lookup(key)) == [])
    }

    @Test(arguments: SigningAlgorithm.allCases)
    func tamperedTokensAreRejected(_ algorithm: SigningAlgorithm) throws {
        let key = Fixtures.key(for: algorithm)
        let parts = try JWT.sign(payload: Fixtures.claims, key: key).split(separator: ".").map(String.init)
        let otherPayload = Base64URL.encode(Array(#"{"iss":"https://latch.example","sub":"admin"}"#.utf8))
        var signature = try #require(Base64URL.decode(parts[2]))
        signature[5] ^= 0x80
        let lookup = Fixtures.lookup(key)
        #expect(throws: JWTError.badSignature) {
            try JWT.verify([parts[0], otherPayload, parts[2]].joined(separator: "."), key: lookup)
        }
        #expect(throws: JWTError.badSignature) {
            try JWT.verify([parts[0], parts[1], Base64URL.encode(signature)].joined(separator: "."), key: lookup)
        }
        #expect(throws: JWTError.badSignature) { try JWT.verify(parts[0] + "." + parts[1] + ".", key: lookup) }
    }

    @Test func algNoneIsRejected() throws {
        let header = Base64URL.encode(Array(#"{"alg":"none","kid":"ec-1","typ":"JWT"}"#.utf8))
        let token = header + "." + Base64URL.encode(Fixtures.claims) + "."
        #expect(throws: JWTError.algorithmMismatch) { try JWT.verify(token, key: Fixtures.lookup(Fixtures.es256)) }
        // Even with a (valid ES256) signature attached.
        let signed = try JWT.sign(payload: Fixtures.claims, key: Fixtures.es256).split(separator: ".")
        let withSignature = header + "." + signed[1] + "." + signed[2]
        #expect(throws: JWTError.algorithmMismatch) {
            try JWT.verify(withSignature, key: Fixtures.lookup(Fixtures.es256))
        }
    }

    @Test func algorithmMismatchIsRejected() throws {
        // Header claims RS256 for an ES256 kid, with an RS256 signature over it by the RSA key.
        let header = Base64URL.encode(Array(#"{"alg":"RS256","kid":"ec-1"}"#.utf8))
        let input = header + "." + Base64URL.encode(Fixtures.claims)
        let token = try input + "." + Base64URL.encode(Fixtures.rs256.sign(Array(input.utf8)))
        #expect(throws: JWTError.algorithmMismatch) { try JWT.verify(token, key: Fixtures.lookup(Fixtures.es256)) }
        let hs =
            Base64URL.encode(Array(#"{"alg":"HS256","kid":"rsa-1"}"#.utf8)) + "." + Base64URL.encode(Fixtures.claims)
            + ".AAAA"
        #expect(throws: JWTError.algorithmMismatch) { try JWT.verify(hs, key: Fixtures.lookup(Fixtures.rs256)) }
    }

    @Test func unknownOrMissingKidIsRejected() throws {
        let token = try JWT.sign(payload: Fixtures.claims, key: Fixtures.es256)
        #expect(throws: JWTError.unknownKey) { try JWT.verify(token, key: Fixtures.lookup(Fixtures.rs256)) }
        #expect(throws: JWTError.unknownKey) { try JWT.verify(token, key: { _ in nil }) }
        let noKid =
            Base64URL.encode(Array(#"{"alg":"ES256"}"#.utf8)) + "." + Base64URL.encode(Fixtures.claims) + ".AAAA"
        #expect(throws: JWTError.unknownKey) { try JWT.verify(noKid, key: Fixtures.lookup(Fixtures.es256)) }
    }

    @Test func headerWithoutKidReachesAnOptionalLookup() throws {
        let header = Base64URL.encode(Array(#"{"alg":"ES256"}"#.utf8))
        let input = header + "." + Base64URL.encode(Fixtures.claims)
        let token = try input + "." + Base64URL.encode(Fixtures.es256.sign(Array(input.utf8)))
        #expect(try JWT.verify(token, keyForID: { $0 == nil ? Fixtures.es256 : nil }) == Fixtures.claims)
        #expect(throws: JWTError.unknownKey) { try JWT.verify(token, keyForID: { $0.flatMap { _ in Fixtures.es256 } }) }
        // The key still fixes the algorithm, and `none` is refused before any lookup.
        #expect(throws: JWTError.algorithmMismatch) { try JWT.verify(token, keyForID: { _ in Fixtures.rs256 }) }
        let none = Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "." + Base64URL.encode(Fixtures.claims) + "."
        #expect(throws: JWTError.algorithmMismatch) { try JWT.verify(none, keyForID: { _ in Fixtures.es256 }) }
    }

    @Test func malformedTokensAreRejected() throws {
        let valid = try JWT.sign(payload: Fixtures.claims, key: Fixtures.es256)
        let parts = valid.split(separator: ".").map(String.init)
        let payload = parts[1]
        let json = { (text: String) in Base64URL.encode(Array(text.utf8)) }
        let cases = [
            "", ".", "..", "...", "abc", parts[0], parts[0] + "." + payload, valid + ".", valid + ".x",
            "!!!." + payload + "." + parts[2],  // bad base64
            parts[0] + ".@@@." + parts[2],
            parts[0] + "." + payload + ".%%%",
            parts[0] + "=." + payload + "." + parts[2],  // padding is not allowed
            json("not json") + "." + payload + "." + parts[2],
            json("[1,2]") + "." + payload + "." + parts[2],
            json(#"{"kid":"ec-1"}"#) + "." + payload + "." + parts[2],  // no alg
            json(#"{"alg":5,"kid":"ec-1"}"#) + "." + payload + "." + parts[2],
            json(#"{"alg":"ES256","kid":"ec-1","crit":["exp"]}"#) + "." + payload + "." + parts[2],
            "." + payload + "." + parts[2],
            "\u{0}.\u{0}.\u{0}", "é.é.é",
        ]
        for token in cases {
            #expect(throws: JWTError.malformed, "\(token)") {
                try JWT.verify(token, key: Fixtures.lookup(Fixtures.es256))
            }
        }
        #expect(JWT.unverifiedPayload("abc") == nil)
        #expect(JWT.unverifiedPayload("a.@@.c") == nil)
    }

    @Test func explicitTypeIsChecked() throws {
        let key = Fixtures.es256
        let access = try JWT.sign(payload: Fixtures.claims, key: key, type: "at+jwt")
        let id = try JWT.sign(payload: Fixtures.claims, key: key, type: "JWT")
        #expect(try JWT.verify(access, type: "at+jwt", key: Fixtures.lookup(key)) == Fixtures.claims)
        #expect(try JWT.verify(access, type: "AT+JWT", key: Fixtures.lookup(key)) == Fixtures.claims)
        #expect(throws: JWTError.wrongType) { try JWT.verify(id, type: "at+jwt", key: Fixtures.lookup(key)) }
        let typeless = try JWT.sign(payload: Fixtures.claims, key: key, type: "")
        #expect(throws: JWTError.wrongType) { try JWT.verify(typeless, type: "at+jwt", key: Fixtures.lookup(key)) }
    }

    @Test func base64AlphabetAndPaddingAreRejected() throws {
        let key = Fixtures.es256
        let token = try JWT.sign(payload: Array(repeating: 0xFB, count: 30), key: key)
        let parts = token.split(separator: ".").map(String.init)
        #expect(parts[1].contains("-") || parts[1].contains("_"))
        let standard = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        #expect(throws: JWTError.malformed) {
            try JWT.verify([parts[0], standard, parts[2]].joined(separator: "."), key: Fixtures.lookup(key))
        }
        #expect(throws: JWTError.malformed) {
            try JWT.verify([parts[0] + "==", parts[1], parts[2]].joined(separator: "."), key: Fixtures.lookup(key))
        }
    }
}
