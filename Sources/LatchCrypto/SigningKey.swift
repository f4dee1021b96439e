/// A JWS signing or verification key for ES256 or RS256 (RFC 7518 §§ 3.3–3.4), identified by
/// its `kid` (RFC 7515 § 4.1.4).
///
/// Instances are immutable and may be shared across threads and tasks: every ``sign(_:)`` and
/// ``isValidSignature(_:for:)`` call uses its own libcrypto context.
public final class SigningKey: @unchecked Sendable {
    // @unchecked: all stored properties are immutable lets; the wrapped EVP_PKEY is never mutated
    // and OpenSSL 3 supports concurrent signing/verifying with one key.

    /// The key ID, published as the JWK `kid` and written to the JWS `kid` header (RFC 7517 § 4.5).
    public let id: String
    /// The only algorithm this key signs or verifies with (RFC 7518 § 3.1).
    public let algorithm: SigningAlgorithm
    /// The public half as a JWK: `kty`/`crv`/`x`/`y` or `kty`/`n`/`e`, plus `kid`, `alg` and
    /// `use: "sig"` (RFC 7517 § 4, RFC 7518 § 6).
    public let publicJWK: JWK
    /// Whether the key holds private material and can ``sign(_:)``; keys made from a JWK cannot.
    public let canSign: Bool

    private let key: PKey

    private init(key: PKey, id: String, algorithm: SigningAlgorithm, canSign: Bool) throws(CryptoError) {
        try key.check(matches: algorithm)
        self.publicJWK = try JWKCodec.publicJWK(of: key, id: id, algorithm: algorithm)
        self.key = key
        self.id = id
        self.algorithm = algorithm
        self.canSign = canSign
    }

    /// Generates a new key: P-256 for ES256 (RFC 7518 § 3.4), RSA 2048 with e = 65537 for RS256
    /// (RFC 7518 § 3.3).
    /// - Parameters:
    ///   - algorithm: the algorithm the key will be used with.
    ///   - id: the `kid` to publish it under.
    public static func generate(_ algorithm: SigningAlgorithm, id: String) throws(CryptoError) -> SigningKey {
        try SigningKey(key: KeyGenerator.generate(algorithm), id: id, algorithm: algorithm, canSign: true)
    }

    /// Loads a private key from unencrypted PKCS#8 PEM (RFC 5208, RFC 7468 § 10), checking that
    /// its type fits `algorithm`: P-256 EC for ES256, RSA ≥ 2048 bits for RS256 (RFC 7518 § 3).
    /// - Parameters:
    ///   - privateKeyPEM: `-----BEGIN PRIVATE KEY-----` text, as produced by ``privateKeyPEM()``.
    ///   - id: the `kid` to publish it under.
    ///   - algorithm: the algorithm the key must be used with.
    public convenience init(privateKeyPEM: String, id: String, algorithm: SigningAlgorithm) throws(CryptoError) {
        try self.init(key: PEMCodec.readPrivateKey(privateKeyPEM), id: id, algorithm: algorithm, canSign: true)
    }

    /// Creates a verification-only key from a public JWK (RFC 7517 § 4, RFC 7518 § 6). The JWK's
    /// `alg` must be ES256 or RS256 and match its `kty`/`crv`, `use` must be `"sig"`, EC
    /// coordinates must be full 32-byte values of a point on P-256, and RSA moduli at least 2048 bits.
    public convenience init(publicJWK: JWK) throws(CryptoError) {
        let (key, algorithm) = try JWKCodec.publicKey(from: publicJWK)
        try self.init(key: key, id: publicJWK.kid, algorithm: algorithm, canSign: false)
    }

    /// The private key as unencrypted PKCS#8 PEM (RFC 5208, RFC 7468 § 10). Encrypt it (for
    /// example with ``SecretBox``) before storing it.
    /// - Throws: ``CryptoError`` for verification-only keys.
    public func privateKeyPEM() throws(CryptoError) -> String {
        guard canSign else { throw CryptoError("verification-only key has no private key to export") }
        return try PEMCodec.writePrivateKey(key)
    }

    /// Signs `message` (the JWS Signing Input, RFC 7515 § 5.1).
    ///
    /// ES256 returns the 64-byte `R || S` form of RFC 7518 § 3.4 (converted from libcrypto's DER);
    /// RS256 returns an RSASSA-PKCS1-v1_5 SHA-256 signature as long as the modulus (RFC 7518 § 3.3).
    /// - Throws: ``CryptoError`` for verification-only keys or if libcrypto fails.
    public func sign(_ message: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard canSign else { throw CryptoError("verification-only key cannot sign") }
        let signature = try DigestSigner.sign(message, with: key)
        switch algorithm {
        case .rs256:
            return signature
        case .es256:
            guard let raw = ECDSASignature.raw(fromDER: signature, coordinateSize: JWKCodec.p256CoordinateSize) else {
                throw CryptoError("cannot convert ECDSA signature to R || S")
            }
            return raw
        }
    }

    /// Whether `signature` is a valid signature of `message` under this key and its algorithm
    /// (RFC 7515 § 5.2 step 8, RFC 7518 §§ 3.3–3.4). ES256 signatures must be exactly 64 bytes
    /// (`R || S`); anything else, including DER, is rejected. Never throws or traps.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        switch algorithm {
        case .rs256:
            guard signature.count == key.maximumSignatureSize else { return false }
            return DigestSigner.verify(signature, for: message, with: key)
        case .es256:
            guard let der = ECDSASignature.der(fromRaw: signature, coordinateSize: JWKCodec.p256CoordinateSize) else {
                return false
            }
            return DigestSigner.verify(der, for: message, with: key)
        }
    }
}
