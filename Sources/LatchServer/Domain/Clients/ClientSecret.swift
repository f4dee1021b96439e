import LatchCrypto

/// The secret of a confidential client (RFC 6749 § 2.3.1): 32 random bytes (256 bits), base64url,
/// shown once when the client is created and stored only as its SHA-256.
///
/// A slow password hash (Argon2id) buys nothing here: the secret is high-entropy random, so a
/// fast one-way hash already makes a stolen database useless for guessing it (RFC 6819
/// § 5.1.4.1.3; OWASP's secrets guidance), and each check stays cheap.
public enum ClientSecret {
    /// A new random secret: 32 random bytes, base64url (43 characters).
    public static func generate() -> String { SecureRandom.token(byteCount: 32) }

    /// The stored form of `secret`: its SHA-256 as 64 lowercase hex characters.
    public static func hash(_ secret: String) -> String { Digest.sha256Hex(secret) }

    /// Whether `secret` is the one `storedHash` was made from, compared in constant time.
    public static func matches(_ secret: String, storedHash: String) -> Bool {
        guard secret.utf8.count <= 512 else { return false }
        return ConstantTime.equals(Array(hash(secret).utf8), Array(storedHash.utf8))
    }
}
