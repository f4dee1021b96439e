import Foundation
import LatchCrypto
import LatchWire
import Testing

@Suite struct SecureRandomTests {
    @Test func bytes() {
        #expect(SecureRandom.bytes(count: 0).isEmpty)
        #expect(SecureRandom.bytes(count: 33).count == 33)
        #expect(SecureRandom.bytes(count: 32) != SecureRandom.bytes(count: 32))
    }

    @Test func token() throws {
        let token = SecureRandom.token()
        #expect(token.count == 43)
        #expect(try #require(Base64URL.decode(token)).count == 32)
        #expect(SecureRandom.token(byteCount: 16).count == 22)
    }

    @Test func digitsHaveExactLengthAndOnlyDigits() {
        for count in [0, 1, 6, 8, 64, 500] {
            let code = SecureRandom.digits(count)
            #expect(code.count == count)
            #expect(code.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        }
    }

    @Test func digitsAreRoughlyUniform() {
        var histogram = [Int](repeating: 0, count: 10)
        for byte in SecureRandom.digits(20_000).utf8 { histogram[Int(byte - UInt8(ascii: "0"))] += 1 }
        // Expected 2000 each; 5 standard deviations ≈ 212.
        #expect(histogram.allSatisfy { (1_750...2_250).contains($0) }, "\(histogram)")
    }

    @Test func hex() {
        let hex = SecureRandom.hex(byteCount: 16)
        #expect(hex.count == 32)
        #expect(hex.allSatisfy { "0123456789abcdef".contains($0) })
    }
}

@Suite struct DigestTests {
    @Test func sha256KnownAnswers() {
        // FIPS 180-4 / NIST CSRC examples.
        #expect(Digest.sha256Hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Digest.sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            Digest.sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        let abc = Digest.sha256(Array("abc".utf8))
        #expect(abc.count == 32 && abc.first == 0xBA && abc.last == 0xAD)
        #expect(Digest.sha256("abc".utf8) == abc)
        #expect(Digest.sha256(AnySequence(Array("abc".utf8))) == abc)  // non-contiguous path
        #expect(Digest.sha256(Data("abc".utf8)) == abc)
    }
}

@Suite struct ConstantTimeTests {
    @Test func equals() {
        #expect(ConstantTime.equals([], []))
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2]))
        #expect(!ConstantTime.equals([], [0]))
        let secret = SecureRandom.bytes(count: 32)
        #expect(ConstantTime.equals(secret, Array(secret)))
    }
}

@Suite struct SecretBoxTests {
    static let key = SecureRandom.bytes(count: 32)

    @Test(arguments: [0, 1, 15, 16, 17, 1000])
    func roundTrip(_ length: Int) throws {
        let plaintext = SecureRandom.bytes(count: length)
        let sealed = try SecretBox.seal(plaintext, key: Self.key)
        #expect(sealed.count == 12 + length + 16)
        #expect(try SecretBox.open(sealed, key: Self.key) == plaintext)
        #expect(try SecretBox.seal(plaintext, key: Self.key) != sealed)  // fresh nonce
    }

    @Test func associatedData() throws {
        let sealed = try SecretBox.seal([1, 2, 3], key: Self.key, associatedData: Array("kid-1".utf8))
        #expect(try SecretBox.open(sealed, key: Self.key, associatedData: Array("kid-1".utf8)) == [1, 2, 3])
        #expect(throws: CryptoError.self) {
            try SecretBox.open(sealed, key: Self.key, associatedData: Array("kid-2".utf8))
        }
        #expect(throws: CryptoError.self) { try SecretBox.open(sealed, key: Self.key) }
    }

    @Test func tamperIsDetected() throws {
        let sealed = try SecretBox.seal(Array("private key".utf8), key: Self.key)
        for index in [0, 11, 12, 20, sealed.count - 16, sealed.count - 1] {
            var tampered = sealed
            tampered[index] ^= 0x01
            #expect(throws: CryptoError.self) { try SecretBox.open(tampered, key: Self.key) }
        }
        #expect(throws: CryptoError.self) { try SecretBox.open(Array(sealed.dropLast()), key: Self.key) }
        #expect(throws: CryptoError.self) { try SecretBox.open(sealed + [0], key: Self.key) }
        #expect(throws: CryptoError.self) { try SecretBox.open(Array(sealed.prefix(27)), key: Self.key) }
        #expect(throws: CryptoError.self) { try SecretBox.open(sealed, key: SecureRandom.bytes(count: 32)) }
    }

    @Test func keyLengthIsChecked() {
        #expect(throws: CryptoError.self) { try SecretBox.seal([1], key: [UInt8](repeating: 0, count: 16)) }
        #expect(throws: CryptoError.self) { try SecretBox.open([UInt8](repeating: 0, count: 40), key: []) }
    }
}
