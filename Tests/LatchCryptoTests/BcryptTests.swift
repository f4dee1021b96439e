import LatchCrypto
import Testing

/// bcrypt against published vectors (OpenBSD's and crypt_blowfish's test strings) and hashes
/// made by the system's libxcrypt.
@Suite struct BcryptTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let password: String
        let hash: String
        var testDescription: String { "\(hash.prefix(7)) \(password.count) characters" }
    }

    static let vectors = [
        Vector(password: "U*U", hash: "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"),
        Vector(password: "U*U*", hash: "$2a$05$CCCCCCCCCCCCCCCCCCCCC.VGOzA784oUp/Z0DY336zx7pLYAy0lwK"),
        Vector(password: "U*U*U", hash: "$2a$05$XXXXXXXXXXXXXXXXXXXXXOAcXxm9kjPGEMsLznoKqmqw7tc8WCx4a"),
        Vector(password: "", hash: "$2a$05$CCCCCCCCCCCCCCCCCCCCC.7uG0VCzI2bS7j6ymqJi9CdcdxiRTWNy"),
        Vector(
            password: "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789chars after 72 are ignored",
            hash: "$2a$05$abcdefghijklmnopqrstuu5s2v8.iXieOjg/.AySBTTZIIVFJeBui"),
        Vector(
            password: "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
            hash: "$2a$05$abcdefghijklmnopqrstuu5s2v8.iXieOjg/.AySBTTZIIVFJeBui"),
        Vector(
            password: "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
            hash: "$2b$04$abcdefghijklmnopqrstuuRAip/W0RPQX4QKkqYqXE3GIXWH518Sm"),
        Vector(password: "", hash: "$2b$04$......................w74bL5gU7LSJClZClCa.Pkz14aTv/XO"),
        Vector(password: "correct horse", hash: "$2y$05$abcdefghijklmnopqrstuuHNbAKRhpaujgo33bRWs.NLUTJO3lOy2"),
        Vector(password: "h\u{e9}llo w\u{f6}rld", hash: "$2b$06$0123456789abcdefghijkeO0cy/PMfMQUZWwe7yFyXFwEMbLNRKsS"),
    ]

    @Test(arguments: vectors)
    func knownAnswers(_ vector: Vector) throws {
        #expect(Bcrypt.verify(Array(vector.password.utf8), against: vector.hash))
        #expect(!Bcrypt.verify(Array((vector.password + "x").utf8), against: vector.hash) || vector.password.utf8.count >= 72)
        let setting = try #require(Bcrypt.Setting(vector.hash))
        let remade = try Bcrypt.hash(
            Array(vector.password.utf8), salt: setting.salt, cost: setting.cost, variant: setting.variant)
        // The salt's last character carries 2 bits; a canonical string re-encodes to itself.
        #expect(remade.suffix(31) == vector.hash.suffix(31))
    }

    @Test("a hash made at cost 4 verifies its password and no other")
    func hashAndVerifyRoundTrip() throws {
        let salt: [UInt8] = Array(0..<16)
        let hash = try Bcrypt.hash(Array("Quartz-Meadow".utf8), salt: salt, cost: 4)
        #expect(hash.hasPrefix("$2b$04$"))
        #expect(hash.utf8.count == 60)
        #expect(Bcrypt.verify(Array("Quartz-Meadow".utf8), against: hash))
        #expect(!Bcrypt.verify(Array("Quartz-meadow".utf8), against: hash))
    }

    @Test("malformed strings, unknown variants and costs out of range are refused, never run")
    func malformed() {
        let good = "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"
        for bad in [
            "", "$2a$05$", String(good.dropLast()), good + "x", "$2x$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW",
            "$2a$03$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW",
            "$2a$32$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW",
            "$2a$+5$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW",
            "$2a$05$CCCCCCCCCCCCCCCCCCCCC!E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW",
            "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOe\u{e9}",
        ] {
            #expect(!Bcrypt.verify(Array("U*U".utf8), against: bad), "\(bad)")
        }
        #expect(!Bcrypt.verify(Array("U*U".utf8), against: good, maximumCost: 4))
        #expect(throws: CryptoError.self) { try Bcrypt.hash([], salt: [UInt8](repeating: 0, count: 16), cost: 3) }
        #expect(throws: CryptoError.self) { try Bcrypt.hash([], salt: [UInt8](repeating: 0, count: 15), cost: 4) }
    }
}
