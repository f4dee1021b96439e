import LatchCrypto
import Testing

/// HMAC-SHA256 against the test vectors of RFC 4231 § 4.2–4.4, and its constant-time check.
@Suite struct HMACSHA256Tests {
    @Test("RFC 4231 test cases 1 and 2")
    func knownAnswers() throws {
        let first = try HMACSHA256.mac(Array("Hi There".utf8), key: [UInt8](repeating: 0x0B, count: 20))
        #expect(HKDFTests.hex(first) == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        let second = try HMACSHA256.mac(Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8))
        #expect(HKDFTests.hex(second) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test("isValid accepts only the full MAC of the same message and key")
    func validation() throws {
        let key = [UInt8](repeating: 7, count: 32)
        let message = Array("device".utf8)
        let mac = try HMACSHA256.mac(message, key: key)
        #expect(mac.count == HMACSHA256.length)
        #expect(HMACSHA256.isValid(mac, for: message, key: key))
        #expect(!HMACSHA256.isValid(Array(mac.prefix(16)), for: message, key: key))
        #expect(!HMACSHA256.isValid(mac, for: message + [0], key: key))
        #expect(!HMACSHA256.isValid(mac, for: message, key: [UInt8](repeating: 8, count: 32)))
        var flipped = mac
        flipped[31] ^= 1
        #expect(!HMACSHA256.isValid(flipped, for: message, key: key))
        #expect(!HMACSHA256.isValid(mac, for: message, key: []))
    }
}
