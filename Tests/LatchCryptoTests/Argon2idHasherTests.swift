import Foundation
import LatchCrypto
import Testing

@Suite struct Argon2idHasherTests {
    /// Cheap parameters so the suite stays fast; one test below uses the defaults.
    static let fast = Argon2idHasher(parameters: .init(memoryKiB: 64, iterations: 1, parallelism: 1))

    @Test func phcFormat() throws {
        let phc = try Self.fast.hash("correct horse")
        let fields = phc.split(separator: "$", omittingEmptySubsequences: false)
        #expect(fields.count == 6)
        #expect(fields[0] == "" && fields[1] == "argon2id" && fields[2] == "v=19" && fields[3] == "m=64,t=1,p=1")
        #expect(fields[4].count == 22)  // 16 bytes, unpadded standard base64
        #expect(fields[5].count == 43)  // 32 bytes
        #expect(!phc.contains("=" + "$") && !phc.hasSuffix("="))
        #expect(try Self.fast.hash("correct horse") != phc)  // fresh salt
    }

    @Test func verifyAndWrongPassword() throws {
        let phc = try Self.fast.hash("correct horse ✓")
        #expect(try Self.fast.verify("correct horse ✓", against: phc))
        #expect(try !Self.fast.verify("correct horse", against: phc))
        #expect(try !Self.fast.verify("", against: phc))
        // Verification uses the stored parameters, not the hasher's.
        #expect(try Argon2idHasher().verify("correct horse ✓", against: phc))
        let empty = try Self.fast.hash("")
        #expect(try Self.fast.verify("", against: empty))
        #expect(try !Self.fast.verify(" ", against: empty))
    }

    @Test func malformedInputNeverVerifies() throws {
        let phc = try Self.fast.hash("pw")
        let argon2i = phc.replacingOccurrences(of: "$argon2id$", with: "$argon2i$")
        let cases = [
            "", "$", "$$$$$", "plain", "$argon2id$", phc + "$", String(phc.dropLast(5)), argon2i,
            phc.replacingOccurrences(of: "m=64", with: "m=-1"),
            phc.replacingOccurrences(of: "m=64", with: "m=99999999999"),
            phc.replacingOccurrences(of: "t=1", with: "t=1000000"),
            phc.replacingOccurrences(of: "p=1", with: "p=0"),
            phc.replacingOccurrences(of: "v=19", with: "v=x"),
            phc + "\u{0}garbage",
            "$argon2id$v=19$m=64,t=1,p=1$!!!$!!!",
        ]
        for text in cases {
            #expect(try !Self.fast.verify("pw", against: text), "\(text)")
        }
    }

    @Test func needsRehash() throws {
        let hasher = Argon2idHasher()  // defaults: m=19456, t=2, p=1
        #expect(hasher.parameters == .init(memoryKiB: 19456, iterations: 2, parallelism: 1))
        let salt = "$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g"
        #expect(!hasher.needsRehash("$argon2id$v=19$m=19456,t=2,p=1" + salt))
        #expect(!hasher.needsRehash("$argon2id$v=19$m=65536,t=3,p=4" + salt))
        #expect(hasher.needsRehash("$argon2id$v=19$m=19455,t=2,p=1" + salt))
        #expect(hasher.needsRehash("$argon2id$v=19$m=19456,t=1,p=1" + salt))
        #expect(hasher.needsRehash("$argon2id$v=19$m=65536,t=1,p=4" + salt))
        let stronger = Argon2idHasher(parameters: .init(memoryKiB: 19456, iterations: 2, parallelism: 2))
        #expect(stronger.needsRehash("$argon2id$v=19$m=19456,t=2,p=1" + salt))
        #expect(hasher.needsRehash("$argon2i$v=19$m=19456,t=2,p=1" + salt))
        #expect(hasher.needsRehash("$argon2id$v=16$m=19456,t=2,p=1" + salt))
        #expect(hasher.needsRehash("$2b$12$abcdefghijklmnopqrstuv"))
        #expect(hasher.needsRehash(""))
        #expect(try hasher.needsRehash(Self.fast.hash("x")))
    }

    @Test func invalidParametersThrow() {
        #expect(throws: CryptoError.self) {
            try Argon2idHasher(parameters: .init(memoryKiB: 4, iterations: 1, parallelism: 1)).hash("x")
        }
        #expect(throws: CryptoError.self) {
            try Argon2idHasher(parameters: .init(memoryKiB: 64, iterations: 0, parallelism: 1)).hash("x")
        }
        #expect(throws: CryptoError.self) {
            try Argon2idHasher(parameters: .init(memoryKiB: 64, iterations: 1, parallelism: -1)).hash("x")
        }
    }

    @Test func defaultParameters() throws {
        let hasher = Argon2idHasher()
        let phc = try hasher.hash("hunter2")
        #expect(phc.hasPrefix("$argon2id$v=19$m=19456,t=2,p=1$"))
        #expect(try hasher.verify("hunter2", against: phc))
        #expect(!hasher.needsRehash(phc))
    }

    /// Reference vector from phc-winner-argon2 `src/test.c` (password "password", salt
    /// "somesalt", Argon2id v19, m = 65536, t = 2, p = 1, 32-byte tag).
    @Test func knownAnswer() throws {
        let phc = "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc"
        #expect(try Argon2idHasher().verify("password", against: phc))
        #expect(try !Argon2idHasher().verify("Password", against: phc))
    }
}
