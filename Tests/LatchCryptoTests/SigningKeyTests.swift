import Foundation
import LatchCrypto
import LatchWire
import Testing

@Suite struct SigningKeyTests {
    @Test(arguments: SigningAlgorithm.allCases)
    func signAndVerifyRoundTrip(_ algorithm: SigningAlgorithm) throws {
        let key = Fixtures.key(for: algorithm)
        let message = Array("hello".utf8)
        let signature = try key.sign(message)
        #expect(signature.count == (algorithm == .es256 ? 64 : 256))
        #expect(key.isValidSignature(signature, for: message))
        #expect(!key.isValidSignature(signature, for: Array("hellO".utf8)))
        var flipped = signature
        flipped[flipped.count / 2] ^= 0x01
        #expect(!key.isValidSignature(flipped, for: message))
        #expect(!key.isValidSignature([], for: message))
        #expect(!key.isValidSignature(Array(signature.dropLast()), for: message))
        #expect(!key.isValidSignature(signature + [0], for: message))
        #expect(try key.isValidSignature(key.sign([]), for: []))
    }

    /// About 1 in 128 signatures has an R or S shorter than 32 bytes, exercising the left padding
    /// of the DER → R || S conversion (RFC 7518 § 3.4).
    @Test func es256SignaturesAreAlwaysFixedWidth() throws {
        let key = Fixtures.es256
        for index in 0..<512 {
            let message = [UInt8(index & 0xFF), UInt8(index >> 8)]
            let signature = try key.sign(message)
            #expect(signature.count == 64)
            #expect(key.isValidSignature(signature, for: message))
        }
    }

    @Test func verificationOnlyKeyCannotSignJWTs() throws {
        let imported = try SigningKey(publicJWK: Fixtures.es256.publicJWK)
        #expect(throws: CryptoError.self) { try JWT.sign(payload: Fixtures.claims, key: imported) }
    }

    @Test func es256RejectsDERAndZeroSignatures() throws {
        let key = Fixtures.es256
        #expect(!key.isValidSignature([UInt8](repeating: 0, count: 64), for: [1, 2, 3]))
        #expect(!key.isValidSignature([UInt8](repeating: 0xFF, count: 64), for: [1, 2, 3]))
        #expect(!key.isValidSignature([0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01], for: [1, 2, 3]))
    }

    @Test(arguments: SigningAlgorithm.allCases)
    func publicJWKShape(_ algorithm: SigningAlgorithm) throws {
        let jwk = Fixtures.key(for: algorithm).publicJWK
        #expect(jwk.alg == algorithm.rawValue)
        #expect(jwk.use == "sig")
        #expect(jwk.kid == Fixtures.key(for: algorithm).id)
        switch algorithm {
        case .es256:
            #expect(jwk.kty == "EC" && jwk.crv == "P-256" && jwk.n == nil && jwk.e == nil)
            #expect(jwk.x?.count == 43 && jwk.y?.count == 43)
        case .rs256:
            #expect(jwk.kty == "RSA" && jwk.crv == nil && jwk.x == nil && jwk.y == nil)
            #expect(jwk.e == "AQAB" && jwk.n?.count == 342)
        }
    }

    @Test(arguments: SigningAlgorithm.allCases)
    func jwkExportImportVerifies(_ algorithm: SigningAlgorithm) throws {
        let key = Fixtures.key(for: algorithm)
        let encoded = try JSONEncoder().encode(JWKSet(keys: [key.publicJWK]))
        let set = try JSONDecoder().decode(JWKSet.self, from: encoded)
        let imported = try SigningKey(publicJWK: #require(set.key(withID: key.id)))
        #expect(imported.publicJWK == key.publicJWK)
        #expect(imported.algorithm == algorithm && imported.id == key.id && !imported.canSign)
        let message = Array("payload".utf8)
        #expect(try imported.isValidSignature(key.sign(message), for: message))
        #expect(throws: CryptoError.self) { try imported.sign(message) }
        #expect(throws: CryptoError.self) { try imported.privateKeyPEM() }
    }

    @Test func jwkJSONMemberNames() throws {
        let json = try #require(String(data: JSONEncoder().encode(Fixtures.es256.publicJWK), encoding: .utf8))
        for member in [
            "\"kty\":\"EC\"", "\"crv\":\"P-256\"", "\"x\":", "\"y\":", "\"kid\":\"ec-1\"", "\"alg\":\"ES256\"",
            "\"use\":\"sig\"",
        ] {
            #expect(json.contains(member))
        }
        #expect(!json.contains("\"n\"") && !json.contains("null"))
    }

    @Test func invalidJWKsAreRejected() throws {
        let ec = Fixtures.es256.publicJWK
        var wrongAlg = ec
        wrongAlg.alg = "RS256"
        var noneAlg = ec
        noneAlg.alg = "none"
        var encUse = ec
        encUse.use = "enc"
        var otherCurve = ec
        otherCurve.crv = "P-384"
        var shortX = ec
        shortX.x = String(ec.x!.dropLast(2))
        var offCurve = ec
        offCurve.y = ec.x
        var smallRSA = Fixtures.rs256.publicJWK
        smallRSA.n = Base64URL.encode([0xC1] + [UInt8](repeating: 0x35, count: 127))
        for jwk in [wrongAlg, noneAlg, encUse, otherCurve, shortX, offCurve, smallRSA] {
            #expect(throws: CryptoError.self) { try SigningKey(publicJWK: jwk) }
        }
    }

    @Test(arguments: SigningAlgorithm.allCases)
    func pemRoundTrip(_ algorithm: SigningAlgorithm) throws {
        let key = Fixtures.key(for: algorithm)
        let pem = try key.privateKeyPEM()
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        #expect(pem.hasSuffix("-----END PRIVATE KEY-----\n"))
        let loaded = try SigningKey(privateKeyPEM: pem, id: key.id, algorithm: algorithm)
        #expect(loaded.publicJWK == key.publicJWK && loaded.canSign)
        let message = Array("pem".utf8)
        #expect(try key.isValidSignature(loaded.sign(message), for: message))
        #expect(try loaded.privateKeyPEM() == pem)
    }

    @Test func pemMustMatchAlgorithm() throws {
        let ecPEM = try Fixtures.es256.privateKeyPEM()
        let rsaPEM = try Fixtures.rs256.privateKeyPEM()
        #expect(throws: CryptoError.self) { try SigningKey(privateKeyPEM: ecPEM, id: "x", algorithm: .rs256) }
        #expect(throws: CryptoError.self) { try SigningKey(privateKeyPEM: rsaPEM, id: "x", algorithm: .es256) }
        #expect(throws: CryptoError.self) { try SigningKey(privateKeyPEM: "", id: "x", algorithm: .es256) }
        #expect(throws: CryptoError.self) {
            try SigningKey(
                privateKeyPEM: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", id: "x",
                algorithm: .es256)
        }
    }

    @Test func errorsDoNotContainKeyMaterial() throws {
        let pem = try Fixtures.es256.privateKeyPEM()
        let body = pem.split(separator: "\n")[1]
        do {
            _ = try SigningKey(privateKeyPEM: pem, id: "x", algorithm: .rs256)
            Issue.record("expected a throw")
        } catch {
            #expect(!error.description.contains(body))
        }
    }

    @Test func concurrentSigningWithOneKey() async throws {
        let key = Fixtures.es256
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<64 {
                group.addTask {
                    let message = Array("message \(index)".utf8)
                    guard let signature = try? key.sign(message) else { return false }
                    return key.isValidSignature(signature, for: message)
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 64 && results.allSatisfy { $0 })
    }
}
