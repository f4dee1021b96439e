import LatchCrypto
import Testing

/// HKDF-SHA256 against the test vectors of RFC 5869 Appendix A.1–A.3.
@Suite struct HKDFTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let inputKey: [UInt8]
        let salt: [UInt8]
        let info: [UInt8]
        let outputKey: String
        var testDescription: String { name }
    }

    static let vectors = [
        Vector(
            name: "A.1 basic", inputKey: [UInt8](repeating: 0x0B, count: 22), salt: Array(0x00...0x0C),
            info: Array(0xF0...0xF9),
            outputKey: "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"),
        Vector(
            name: "A.2 longer inputs", inputKey: Array(0x00...0x4F), salt: Array(0x60...0xAF), info: Array(0xB0...0xFF),
            outputKey: "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c65e590e09"
                + "da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87"),
        Vector(
            name: "A.3 no salt, no info", inputKey: [UInt8](repeating: 0x0B, count: 22), salt: [], info: [],
            outputKey: "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"),
    ]

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    @Test(arguments: vectors)
    func knownAnswers(_ vector: Vector) throws {
        let derived = try HKDF.sha256(
            inputKey: vector.inputKey, salt: vector.salt, info: vector.info, outputLength: vector.outputKey.count / 2)
        #expect(Self.hex(derived) == vector.outputKey)
    }

    @Test func purposesAndLengths() throws {
        let master = SecureRandom.bytes(count: 32)
        let outbox = try HKDF.sha256(inputKey: master, info: Array("outbox".utf8), outputLength: 32)
        #expect(outbox.count == 32)
        #expect(try HKDF.sha256(inputKey: master, info: Array("outbox".utf8), outputLength: 32) == outbox)
        #expect(try HKDF.sha256(inputKey: master, info: Array("other".utf8), outputLength: 32) != outbox)
        #expect(outbox != master)
        // A shorter key is a prefix of a longer one with the same inputs (RFC 5869 § 2.3).
        #expect(try HKDF.sha256(inputKey: master, info: Array("outbox".utf8), outputLength: 16) == Array(outbox.prefix(16)))
        #expect(try HKDF.sha256(inputKey: master, info: [], outputLength: 255 * 32).count == 8160)
        #expect(throws: CryptoError.self) { try HKDF.sha256(inputKey: master, info: [], outputLength: 0) }
        #expect(throws: CryptoError.self) { try HKDF.sha256(inputKey: master, info: [], outputLength: 255 * 32 + 1) }
    }
}
