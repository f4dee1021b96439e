import Foundation
import LatchCrypto
import LatchServer
import Testing

/// Imported password hashes in the domain: what an import may carry, the tagged text they are
/// stored as, and their verification and rehash through ``PasswordVerifier``.
@Suite struct ImportedPasswordHashTests {
    static let password = "Quartz-Meadow-Lantern-83"

    /// The `firebase/scrypt` README's sample project parameters, with an account hashed for
    /// ``password``.
    enum Scrypt {
        static let signerKey = bytes("jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==")
        static let saltSeparator = bytes("Bw==")
        static let salt = bytes("AQIDBAUGBwgJCgsM")
        static let hash = bytes("2tryPZuuEQ1xG3xxmBzMjaLdgIT6JfC9XwoOrxKaoZBK1gwkLb7hImgp6sbYVxSbCFcFLyXFQWnujUvv9KzKbA==")
        static var parameters: ImportedHashParameters {
            ImportedHashParameters(
                algorithm: "SCRYPT", signerKey: signerKey, saltSeparator: saltSeparator, rounds: 8, memoryCost: 14)
        }
    }

    static let hmacKey = Array("hmac-signer-key-for-tests".utf8)

    /// One hash of ``password`` per supported algorithm, as an import would carry it.
    static func imports() throws -> [(name: String, hash: ImportedPasswordHash)] {
        [
            ("SCRYPT", try ImportedPasswordHash(parameters: Scrypt.parameters, hash: Scrypt.hash, salt: Scrypt.salt)),
            (
                "BCRYPT",
                try ImportedPasswordHash(
                    algorithm: "BCRYPT", parameters: .init(algorithm: ""),
                    hash: Array("$2b$05$abcdefghijklmnopqrstuu6YwdDX7tWjCfaTTFmURTci2WF23Cfsy".utf8), salt: [])
            ),
            (
                "PBKDF2_SHA256",
                try ImportedPasswordHash(
                    parameters: .init(algorithm: "PBKDF2_SHA256", rounds: 1000),
                    hash: bytes("Znxf+DSdANWKJ6bTkJPlSyLlPpd+a4d/pvb+0b0mpXM="), salt: Array("pbkdf2-salt-0001".utf8))
            ),
            (
                "HMAC_SHA256",
                try ImportedPasswordHash(
                    parameters: .init(algorithm: "HMAC_SHA256", signerKey: hmacKey),
                    hash: bytes("+tP60fIa5/8PIRjNw7qcKji+AQcbusGyKyAJQIyT68w="), salt: Array("NaCl-salt".utf8))
            ),
            (
                "HMAC_SHA256 password first",
                try ImportedPasswordHash(
                    parameters: .init(algorithm: "HMAC_SHA256", signerKey: hmacKey, passwordHashOrder: "PASSWORD_AND_SALT"),
                    hash: bytes("Gn85mBYXDTngJcLwB48HouL8L7vntIDMg6GsU9nNdCg="), salt: Array("NaCl-salt".utf8))
            ),
        ]
    }

    static func bytes(_ base64: String) -> [UInt8] { Array(Data(base64Encoded: base64)!) }

    @Test("each algorithm verifies its password, refuses others, and survives its tagged text")
    func verifyAndEncode() throws {
        for (name, imported) in try Self.imports() {
            #expect(imported.verify(Self.password), "\(name)")
            #expect(!imported.verify(Self.password + "!"), "\(name)")
            #expect(!imported.verify(""), "\(name)")
            let decoded = try #require(ImportedPasswordHash.decode(imported.encoded), "\(name)")
            #expect(decoded == imported, "\(name)")
            #expect(decoded.verify(Self.password), "\(name)")
        }
        let encoded = try Self.imports().map(\.hash.encoded)
        #expect(encoded[0].hasPrefix("$firebase-scrypt$v=1$14$8$"))
        #expect(encoded[1] == "$2b$05$abcdefghijklmnopqrstuu6YwdDX7tWjCfaTTFmURTci2WF23Cfsy")
        #expect(encoded[2] == "$pbkdf2-sha256$1000$cGJrZGYyLXNhbHQtMDAwMQ$Znxf-DSdANWKJ6bTkJPlSyLlPpd-a4d_pvb-0b0mpXM")
        #expect(encoded[3].hasPrefix("$hmac-sha256$sp$"))
        #expect(encoded[4].hasPrefix("$hmac-sha256$ps$"))
    }

    @Test("the firebase/scrypt README sample account verifies as an import")
    func readmeSample() throws {
        let imported = try ImportedPasswordHash(
            parameters: Scrypt.parameters,
            hash: Self.bytes("lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ=="),
            salt: Self.bytes("42xEC+ixf3L2lw=="))
        #expect(imported.verify("user1password"))
        #expect(!imported.verify("user1passworD"))
    }

    @Test("imports outside the bounds are refused with a reason that holds no secret")
    func rejections() throws {
        let hash32 = [UInt8](repeating: 0xA5, count: 32)
        let cases: [(ImportedHashParameters, [UInt8], String)] = [
            (.init(algorithm: "MD5", rounds: 1), hash32, "hashAlgorithm is not supported"),
            (
                .init(algorithm: "scrypt", signerKey: Scrypt.signerKey, rounds: 8, memoryCost: 14), Scrypt.hash,
                "hashAlgorithm is not supported"
            ),
            (.init(algorithm: "SCRYPT", rounds: 8, memoryCost: 14), Scrypt.hash, "signerKey is required for SCRYPT"),
            (
                .init(algorithm: "SCRYPT", signerKey: [], rounds: 8, memoryCost: 14), Scrypt.hash,
                "signerKey is required for SCRYPT"
            ),
            (
                .init(algorithm: "SCRYPT", signerKey: Scrypt.signerKey, rounds: 0, memoryCost: 14), Scrypt.hash,
                "rounds must be 1 to 8 for SCRYPT"
            ),
            (
                .init(algorithm: "SCRYPT", signerKey: Scrypt.signerKey, rounds: 9, memoryCost: 14), Scrypt.hash,
                "rounds must be 1 to 8 for SCRYPT"
            ),
            (
                .init(algorithm: "SCRYPT", signerKey: Scrypt.signerKey, memoryCost: 14), Scrypt.hash,
                "rounds must be 1 to 8 for SCRYPT"
            ),
            (
                .init(algorithm: "SCRYPT", signerKey: Scrypt.signerKey, rounds: 8, memoryCost: 0), Scrypt.hash,
                "memoryCost must be 1 to 14 for SCRYPT"
            ),
            (
                .init(algorithm: "SCRYPT", signerKey: Scrypt.signerKey, rounds: 8, memoryCost: 15), Scrypt.hash,
                "memoryCost must be 1 to 14 for SCRYPT"
            ),
            (
                .init(algorithm: "SCRYPT", signerKey: Scrypt.signerKey, rounds: 8, memoryCost: 14), hash32,
                "passwordHash must be as long as signerKey for SCRYPT"
            ),
            (.init(algorithm: "PBKDF2_SHA256"), hash32, "rounds must be 1 to 120000 for PBKDF2_SHA256"),
            (.init(algorithm: "PBKDF2_SHA256", rounds: 0), hash32, "rounds must be 1 to 120000 for PBKDF2_SHA256"),
            (.init(algorithm: "PBKDF2_SHA256", rounds: 120_001), hash32, "rounds must be 1 to 120000 for PBKDF2_SHA256"),
            (.init(algorithm: "PBKDF2_SHA256", rounds: 10), [1, 2, 3], "passwordHash must be 16 to 64 bytes for PBKDF2_SHA256"),
            (.init(algorithm: "HMAC_SHA256"), hash32, "signerKey is required for HMAC_SHA256"),
            (
                .init(algorithm: "HMAC_SHA256", signerKey: Self.hmacKey), [UInt8](repeating: 1, count: 20),
                "passwordHash must be 32 bytes for HMAC_SHA256"
            ),
            (
                .init(algorithm: "HMAC_SHA256", signerKey: Self.hmacKey, passwordHashOrder: "BOTH"), hash32,
                "passwordHashOrder is not supported"
            ),
            (
                .init(algorithm: "BCRYPT"), Array("$2b$05$abcdefghijklmnopqrstuu6YwdDX7tWjCfaTTFmURTci2WF23Cfs".utf8),
                "passwordHash is not a bcrypt hash"
            ),
            (
                .init(algorithm: "BCRYPT"), Array("$2x$05$abcdefghijklmnopqrstuu6YwdDX7tWjCfaTTFmURTci2WF23Cfsy".utf8),
                "passwordHash is not a bcrypt hash"
            ),
            (.init(algorithm: "BCRYPT"), hash32, "passwordHash is not a bcrypt hash"),
            (
                .init(algorithm: "BCRYPT"), Array("$2b$17$abcdefghijklmnopqrstuudiLNMNS1zyIC4tBVvUEqu.2aX/SakkK".utf8),
                "bcrypt cost above 16 is not accepted"
            ),
            (.init(algorithm: "PBKDF2_SHA256", rounds: 10), [], "passwordHash is empty"),
            (
                .init(algorithm: "PBKDF2_SHA256", rounds: 10), [UInt8](repeating: 7, count: 2000),
                "passwordHash, salt, signerKey or saltSeparator is too long"
            ),
        ]
        for (parameters, hash, reason) in cases {
            #expect(throws: ImportedPasswordHash.Rejection(reason)) {
                try ImportedPasswordHash(parameters: parameters, hash: hash, salt: Array("salt".utf8))
            }
            // A refusal never carries key or hash material, in any encoding.
            let secrets = [Scrypt.signerKey, hash].flatMap { [Data($0).base64EncodedString(), Hex.encode($0)] }
            #expect(!secrets.contains { reason.contains($0) })
        }
    }

    @Test("a corrupt or foreign stored text decodes to nothing, so it fails like a wrong password")
    func corruptText() throws {
        let scrypt = try ImportedPasswordHash(parameters: Scrypt.parameters, hash: Scrypt.hash, salt: Scrypt.salt).encoded
        let corrupt = [
            "", "$", "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g", "plain", "$firebase-scrypt$",
            scrypt.replacingOccurrences(of: "$v=1$", with: "$v=2$"),
            scrypt.replacingOccurrences(of: "$14$8$", with: "$20$8$"),
            scrypt.replacingOccurrences(of: "$14$8$", with: "$014$8$"),
            scrypt.replacingOccurrences(of: "$14$8$", with: "$14$-8$"),
            String(scrypt.dropLast(5)), scrypt + "$", scrypt + "==",
            "$pbkdf2-sha256$0$cGJrZGYyLXNhbHQtMDAwMQ$Znxf-DSdANWKJ6bTkJPlSyLlPpd-a4d_pvb-0b0mpXM",
            "$pbkdf2-sha256$99999999$cGJrZGYyLXNhbHQtMDAwMQ$Znxf-DSdANWKJ6bTkJPlSyLlPpd-a4d_pvb-0b0mpXM",
            "$pbkdf2-sha256$1000$cGJrZGYyLXNhbHQtMDAwMQ$Znxf!DSdANWKJ6bTkJPlSyLlPpd-a4d_pvb-0b0mpXM",
            "$hmac-sha256$xx$aG1hYy1zaWduZXIta2V5LWZvci10ZXN0cw$TmFDbC1zYWx0$-tP60fIa5_8PIRjNw7qcKji-AQcbusGyKyAJQIyT68w",
            "$hmac-sha256$sp$$TmFDbC1zYWx0$-tP60fIa5_8PIRjNw7qcKji-AQcbusGyKyAJQIyT68w",
            "$2b$31$abcdefghijklmnopqrstuu6YwdDX7tWjCfaTTFmURTci2WF23Cfsy", "$2b$05$short",
        ]
        for text in corrupt {
            #expect(ImportedPasswordHash.decode(text) == nil, "\(text)")
        }
    }

    @Test("the shared verifier checks an imported hash, rehashes it to Argon2id, and counts a wrong password")
    func verifierRehashes() throws {
        let fixture = try DomainFixture()
        let verifier = fixture.services.passwords
        for (name, imported) in try Self.imports() {
            var user = try fixture.services.admin.createUser(
                tenant: fixture.context.tenant, email: "\(name.lowercased().filter(\.isLetter))@example.com", password: nil)
            user.passwordHash = imported.encoded
            let stored = user
            try fixture.services.store.write { try $0.update(stored) }
            #expect(throws: AuthFailure.invalidCredentials) {
                try verifier.verify("wrong", for: try fixture.reload(user), address: user.email, context: fixture.context)
            }
            #expect(try fixture.reload(user).failedSignIns == 1, "\(name)")
            let before = Argon2idHasher.statistics.count
            let verified = try verifier.verify(
                Self.password, for: try fixture.reload(user), address: user.email, context: fixture.context)
            let rehashed = try #require(verified.rehashed, "\(name)")
            #expect(rehashed.hasPrefix("$argon2id$"), "\(name)")
            // The imported check and the rehash both ran through the hashing gate.
            #expect(Argon2idHasher.statistics.count >= before + 2, "\(name)")
        }
    }

    @Test("an imported hash waits for the hasher's own gate, like an Argon2id verification")
    func waitsForTheGate() throws {
        let gate = Argon2Gate(slots: 1)
        let hasher = Argon2idHasher(parameters: .init(memoryKiB: 1024, iterations: 1, parallelism: 1), gate: gate)
        let imported = try #require(try Self.imports().first { $0.name == "PBKDF2_SHA256" }).hash
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let result = Outcome()
        Thread.detachNewThread {
            _ = try? gate.run(source: "203.0.113.1") {
                holding.signal()
                release.wait()
            }
        }
        holding.wait()
        Thread.detachNewThread {
            result.set(try? hasher.verifyImported(Self.password, against: imported, for: HashingSource(address: "192.0.2.9")))
            done.signal()
        }
        // The only slot is taken: the imported check waits for it.
        #expect(done.wait(timeout: .now() + 0.3) == .timedOut)
        release.signal()
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(result.value == true)
    }

    /// A value set on another thread.
    final class Outcome: @unchecked Sendable {  // `stored` is only touched under `lock`
        private let lock = NSLock()
        private var stored: Bool?
        func set(_ value: Bool?) { lock.withLock { stored = value } }
        var value: Bool? { lock.withLock { stored } }
    }
}
