import Foundation
import LatchCrypto
import Testing

/// scrypt (RFC 7914 § 12), PBKDF2-HMAC-SHA256 (RFC 7914 § 11), AES-256-CTR (NIST SP 800-38A
/// F.5.5) and Firebase's modified scrypt (the `firebase/scrypt` README sample) against published
/// vectors.
@Suite struct ImportedHashPrimitiveTests {
    @Test("scrypt: the RFC 7914 § 12 vectors")
    func scrypt() throws {
        #expect(
            Hex.encode(
                try Scrypt.derive(password: [], salt: [], costExponent: 4, blockSize: 1, parallelization: 1, length: 64))
                == "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442"
                + "fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906")
        #expect(
            Hex.encode(
                try Scrypt.derive(
                    password: Array("password".utf8), salt: Array("NaCl".utf8), costExponent: 10, blockSize: 8,
                    parallelization: 16, length: 64))
                == "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162"
                + "2eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640")
        #expect(
            Hex.encode(
                try Scrypt.derive(
                    password: Array("pleaseletmein".utf8), salt: Array("SodiumChloride".utf8), costExponent: 14,
                    blockSize: 8, parallelization: 1, length: 64))
                == "7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2"
                + "d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887")
    }

    @Test("scrypt refuses parameters out of range instead of running them")
    func scryptBounds() {
        #expect(throws: CryptoError.self) {
            try Scrypt.derive(password: [], salt: [], costExponent: 0, blockSize: 1, parallelization: 1, length: 64)
        }
        #expect(throws: CryptoError.self) {
            try Scrypt.derive(password: [], salt: [], costExponent: 40, blockSize: 8, parallelization: 1, length: 64)
        }
        #expect(throws: CryptoError.self) {
            try Scrypt.derive(password: [], salt: [], costExponent: 4, blockSize: 0, parallelization: 1, length: 64)
        }
        #expect(throws: CryptoError.self) {
            try Scrypt.derive(password: [], salt: [], costExponent: 4, blockSize: 1, parallelization: 1, length: 0)
        }
    }

    @Test("PBKDF2-HMAC-SHA256: the RFC 7914 § 11 vectors")
    func pbkdf2() throws {
        #expect(
            Hex.encode(
                try PBKDF2SHA256.derive(password: Array("passwd".utf8), salt: Array("salt".utf8), iterations: 1, length: 64))
                == "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
                + "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783")
        #expect(
            Hex.encode(
                try PBKDF2SHA256.derive(password: Array("Password".utf8), salt: Array("NaCl".utf8), iterations: 80000, length: 64)
            )
                == "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"
                + "a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d")
        #expect(throws: CryptoError.self) { try PBKDF2SHA256.derive(password: [], salt: [], iterations: 0, length: 32) }
        #expect(throws: CryptoError.self) { try PBKDF2SHA256.derive(password: [], salt: [], iterations: 1, length: 0) }
    }

    @Test("AES-256-CTR: NIST SP 800-38A F.5.5, and decryption is the same operation")
    func aesCTR() throws {
        let key = try #require(Hex.decode("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"))
        let counter = try #require(Hex.decode("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"))
        let plaintext = try #require(
            Hex.decode(
                "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
                    + "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710"))
        let ciphertext = try AES256CTR.apply(plaintext, key: key, counter: counter)
        #expect(
            Hex.encode(ciphertext)
                == "601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c5"
                + "2b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6")
        #expect(try AES256CTR.apply(ciphertext, key: key, counter: counter) == plaintext)
        #expect(throws: CryptoError.self) { try AES256CTR.apply(plaintext, key: [1, 2, 3], counter: counter) }
    }

    /// The sample project parameters and account from the `firebase/scrypt` README.
    enum FirebaseSample {
        static let signerKey = Array(
            Data(base64Encoded: "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==")!)
        static let saltSeparator = Array(Data(base64Encoded: "Bw==")!)
        static let salt = Array(Data(base64Encoded: "42xEC+ixf3L2lw==")!)
        static let hash = Array(
            Data(base64Encoded: "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==")!)
        static let password = Array("user1password".utf8)
    }

    @Test("Firebase scrypt: the firebase/scrypt README sample (rounds 8, memory cost 14)")
    func firebaseSample() throws {
        let sample = FirebaseSample.self
        let hash = try FirebaseScrypt.hash(
            sample.password, salt: sample.salt, saltSeparator: sample.saltSeparator, signerKey: sample.signerKey,
            rounds: 8, memoryCost: 14)
        #expect(hash == sample.hash)
        #expect(
            FirebaseScrypt.verify(
                sample.password, hash: sample.hash, salt: sample.salt, saltSeparator: sample.saltSeparator,
                signerKey: sample.signerKey, rounds: 8, memoryCost: 14))
        #expect(
            !FirebaseScrypt.verify(
                Array("user1passworD".utf8), hash: sample.hash, salt: sample.salt, saltSeparator: sample.saltSeparator,
                signerKey: sample.signerKey, rounds: 8, memoryCost: 14))
        #expect(
            !FirebaseScrypt.verify(
                sample.password, hash: sample.hash, salt: sample.salt, saltSeparator: [], signerKey: sample.signerKey,
                rounds: 8, memoryCost: 14))
    }

    @Test("Firebase scrypt refuses rounds and memory costs outside Firebase's range")
    func firebaseBounds() {
        let sample = FirebaseSample.self
        for (rounds, memoryCost) in [(0, 14), (9, 14), (8, 0), (8, 15)] {
            #expect(throws: CryptoError.self) {
                try FirebaseScrypt.hash(
                    sample.password, salt: sample.salt, saltSeparator: sample.saltSeparator, signerKey: sample.signerKey,
                    rounds: rounds, memoryCost: memoryCost)
            }
        }
        #expect(throws: CryptoError.self) {
            try FirebaseScrypt.hash(
                sample.password, salt: sample.salt, saltSeparator: [], signerKey: [], rounds: 8, memoryCost: 14)
        }
    }
}
